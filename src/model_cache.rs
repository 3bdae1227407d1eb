//! The models the browser keeps (the worker's Cache API entries): which, how
//! large, forgetting one, and asking the browser to keep them through storage
//! pressure. Grouping entries into models is plain Rust, tested natively.

use ntl_protocol::{repo_of_base, valid_folder_path, MODEL_CACHE};

#[derive(Debug, Clone, PartialEq)]
pub struct CachedModel {
    /// "distilbert/distilgpt2", "bundled KJV-GPT-2", or a folder beside the
    /// page as a link names it ("models/class-gpt2/").
    pub name: String,
    /// The URL prefix its files are cached under.
    pub base: String,
    pub bytes: u64,
    pub files: usize,
}

/// Cache entries (absolute URL, size) grouped by the folder they sit in,
/// largest model first; `page_dir` is the absolute URL of the page's own
/// folder, which model folders beside the page are named from.
pub fn group(entries: &[(String, u64)], page_dir: &str) -> Vec<CachedModel> {
    let mut models: Vec<CachedModel> = Vec::new();
    for (url, bytes) in entries {
        // The worker's marks for files a repo does not have weigh nothing.
        if *bytes == 0 {
            continue;
        }
        let Some((base, _file)) = url.rsplit_once('/') else {
            continue;
        };
        match models.iter_mut().find(|m| m.base == base) {
            Some(m) => {
                m.bytes += bytes;
                m.files += 1;
            }
            None => models.push(CachedModel {
                name: name_of(base, page_dir),
                base: base.to_string(),
                bytes: *bytes,
                files: 1,
            }),
        }
    }
    models.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.name.cmp(&b.name)));
    models
}

fn name_of(base: &str, page_dir: &str) -> String {
    if let Some(repo) = repo_of_base(base) {
        return repo.to_string();
    }
    if base.ends_with("/models/kjv-gpt2") {
        return "bundled KJV-GPT-2".into();
    }
    match base.strip_prefix(page_dir).map(|p| format!("{p}/")) {
        Some(folder) if valid_folder_path(&folder) => folder,
        _ => base.to_string(),
    }
}

pub use browser::*;

/// The browser's side: Cache API and StorageManager calls, looked up at run
/// time because either may be missing (insecure contexts, old browsers).
mod browser {
    use super::*;
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;

    fn get(target: &JsValue, key: &str) -> Option<JsValue> {
        js_sys::Reflect::get(target, &key.into())
            .ok()
            .filter(|v| !v.is_undefined() && !v.is_null())
    }

    async fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Option<JsValue> {
        let f: js_sys::Function = get(target, method)?.dyn_into().ok()?;
        let out = f
            .apply(target, &args.iter().collect::<js_sys::Array>())
            .ok()?;
        match out.dyn_into::<js_sys::Promise>() {
            Ok(p) => JsFuture::from(p).await.ok(),
            Err(v) => Some(v),
        }
    }

    async fn cache() -> Option<JsValue> {
        let caches = get(&js_sys::global(), "caches")?;
        call(&caches, "open", &[MODEL_CACHE.into()]).await
    }

    /// Every cached model with its size. `None` where the browser has no
    /// Cache API (an insecure context): nothing is kept there.
    pub async fn list() -> Option<Vec<CachedModel>> {
        let cache = cache().await?;
        let keys = call(&cache, "keys", &[]).await?;
        let mut entries = Vec::new();
        for req in js_sys::Array::from(&keys).iter() {
            let Some(url) = get(&req, "url").and_then(|u| u.as_string()) else {
                continue;
            };
            let size = match call(&cache, "match", &[req]).await {
                Some(resp) => size_of(&resp).await,
                None => 0,
            };
            entries.push((url, size));
        }
        let href = web_sys::window()?.location().href().ok()?;
        let page_dir = href.split(['?', '#']).next().unwrap_or_default();
        let page_dir = &page_dir[..page_dir.rfind('/').map_or(0, |i| i + 1)];
        Some(group(&entries, page_dir))
    }

    /// The stored size: the header the worker wrote, else the body's length.
    async fn size_of(resp: &JsValue) -> u64 {
        let header = get(resp, "headers")
            .and_then(|h| {
                let h: web_sys::Headers = h.dyn_into().ok()?;
                h.get("content-length").ok().flatten()
            })
            .and_then(|v| v.parse().ok());
        if let Some(n) = header {
            return n;
        }
        match call(resp, "arrayBuffer", &[]).await {
            Some(buf) => js_sys::ArrayBuffer::from(buf).byte_length() as u64,
            None => 0,
        }
    }

    /// Deletes every file of the model cached under `base`.
    pub async fn forget(base: &str) {
        let Some(cache) = cache().await else {
            return;
        };
        let Some(keys) = call(&cache, "keys", &[]).await else {
            return;
        };
        let prefix = format!("{base}/");
        for req in js_sys::Array::from(&keys).iter() {
            let url = get(&req, "url").and_then(|u| u.as_string());
            if url.is_some_and(|u| u.starts_with(&prefix)) {
                call(&cache, "delete", &[req]).await;
            }
        }
    }

    fn storage() -> Option<JsValue> {
        get(&get(&js_sys::global(), "navigator")?, "storage")
    }

    /// Asks the browser to keep this site's storage under pressure, so a
    /// 350 MB download is not evicted between lessons. Best effort.
    pub async fn persist() -> Option<bool> {
        call(&storage()?, "persist", &[]).await?.as_bool()
    }

    /// (used, quota) in bytes, as the browser estimates them.
    pub async fn estimate() -> Option<(u64, u64)> {
        let e = call(&storage()?, "estimate", &[]).await?;
        let n = |k| get(&e, k).and_then(|v| v.as_f64()).map(|v| v as u64);
        Some((n("usage")?, n("quota")?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_group_into_models_by_folder_named_by_repo() {
        let hub = "https://huggingface.co/distilbert/distilgpt2/resolve/main";
        let bundled = "http://127.0.0.1:8080/models/kjv-gpt2";
        let entries = [
            (format!("{hub}/config.json"), 800),
            (format!("{bundled}/config.json"), 700),
            (format!("{hub}/model.safetensors"), 352_000_000),
            (format!("{bundled}/model.safetensors"), 13_900_000),
            (format!("{hub}/tokenizer.json"), 1_300_000),
        ];
        let models = group(&entries, "http://127.0.0.1:8080/");
        assert_eq!(
            models,
            [
                CachedModel {
                    name: "distilbert/distilgpt2".into(),
                    base: hub.into(),
                    bytes: 353_300_800,
                    files: 3,
                },
                CachedModel {
                    name: "bundled KJV-GPT-2".into(),
                    base: bundled.into(),
                    bytes: 13_900_700,
                    files: 2,
                },
            ]
        );
    }

    #[test]
    fn a_mark_for_a_file_the_repo_lacks_is_not_a_file_or_a_model() {
        let hub = "https://huggingface.co/distilbert/distilgpt2/resolve/main";
        let other = "https://huggingface.co/someone/base/resolve/main";
        let models = group(
            &[
                (format!("{hub}/model.safetensors"), 352_824_413),
                (format!("{hub}/tokenizer_config.json"), 0),
                (format!("{other}/tokenizer_config.json"), 0),
            ],
            "http://127.0.0.1:8080/",
        );
        assert_eq!(models.len(), 1);
        assert_eq!(models[0].files, 1);
    }

    #[test]
    fn nothing_cached_is_no_models() {
        assert_eq!(group(&[], "http://127.0.0.1:8080/"), []);
    }

    #[test]
    fn a_model_folder_beside_the_page_is_named_as_a_link_names_it() {
        let page = "https://school.example/course/";
        let folder = "https://school.example/course/models/class-gpt2";
        let elsewhere = "https://other.example/models/x";
        let models = group(
            &[
                (format!("{folder}/model.safetensors"), 500),
                (format!("{elsewhere}/model.safetensors"), 400),
            ],
            page,
        );
        assert_eq!(models[0].name, "models/class-gpt2/");
        assert_eq!(models[1].name, elsewhere);
    }
}
