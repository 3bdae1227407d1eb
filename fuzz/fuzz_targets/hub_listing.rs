//! The hub's file listing of a GGUF repo on arbitrary bytes (it comes from the
//! network and is kept in the cache): reading never panics, every file kept
//! is a plain top-level name, the selector a link would keep for a file picks
//! that file back, and the listing crosses to the page unchanged.
#![no_main]
use libfuzzer_sys::fuzz_target;
use ntl_protocol::hub_gguf::{parse_listing, pick, selector_for, valid_selector, Listing};

fuzz_target!(|bytes: &[u8]| {
    let Ok(listing) = parse_listing(bytes) else {
        return;
    };
    let _ = pick(&listing, None);
    for file in &listing.files {
        assert!(valid_selector(&file.name) && !file.name.contains('/'));
        let sel = selector_for(&listing, file);
        assert!(valid_selector(&sel));
        assert_eq!(
            pick(&listing, Some(&sel))
                .expect("its own selector picks")
                .name,
            file.name
        );
    }
    let wire = serde_json::to_vec(&listing).expect("a listing serializes");
    assert_eq!(
        serde_json::from_slice::<Listing>(&wire).expect("reads back"),
        listing
    );
});
