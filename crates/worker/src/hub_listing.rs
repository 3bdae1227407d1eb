//! A hub repo's `.gguf` files, from the hub's tree listing, each marked when
//! it is already whole in the cache. The listing is kept in the cache beside
//! the repo's files, so a link naming a quant tag opens offline once its
//! file has been downloaded.

use crate::fetch::{
    cached_bytes, cached_len, file_url, keep_small, refused, request, response_bytes, LoadFailure,
};
use ntl_protocol::hub_gguf::{listing_url, parse_listing, Listing};
use ntl_protocol::trouble::LoadTrouble;

/// The cache key the listing is kept under, inside the repo's base (no
/// file in a repo is named so: a selector never starts with a dot).
const KEPT: &str = ".ntl-listing.json";

/// The listing of `repo` (files under `base`): from the hub, else the copy
/// kept from the last visit.
pub async fn listing(repo: &str, base: &str) -> Result<Listing, LoadFailure> {
    let url = listing_url(repo);
    let kept = file_url(base, KEPT);
    let bytes = match request(&url, 0).await {
        Ok(resp) if resp.ok() => match response_bytes(resp).await {
            Some(bytes) => {
                keep_small(&kept, &bytes).await;
                bytes
            }
            None => kept_or(&kept, &url).await?,
        },
        Ok(resp) if matches!(resp.status(), 401 | 403) => {
            return Err(LoadFailure {
                file: None,
                trouble: LoadTrouble::Private {
                    url,
                    status: resp.status(),
                },
                network: false,
            });
        }
        _ => kept_or(&kept, &url).await?,
    };
    let mut listing = parse_listing(&bytes).map_err(|e| refused(None, format!("{repo}: {e}")))?;
    for file in &mut listing.files {
        file.cached = cached_len(&file_url(base, &file.name)).await.is_some();
    }
    Ok(listing)
}

async fn kept_or(kept: &str, url: &str) -> Result<Vec<u8>, LoadFailure> {
    match cached_bytes(kept).await {
        Some(bytes) => Ok(bytes),
        None => Err(LoadFailure {
            file: None,
            trouble: LoadTrouble::Unreachable { url: url.into() },
            network: true,
        }),
    }
}
