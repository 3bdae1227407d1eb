//! A site's `models/index.json` on arbitrary bytes (a page may be served from
//! a host the teacher does not control): reading never panics, an accepted
//! index names only plain folders under `models/`, and reads back equal.
#![no_main]
use libfuzzer_sys::fuzz_target;
use ntl_protocol::site_models::parse;
use ntl_protocol::valid_folder_path;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(index) = parse(bytes) {
        for m in &index.models {
            assert!(valid_folder_path(&m.path()) && !m.folder.contains('/'));
        }
        let again = serde_json::to_vec(&index).expect("an index serializes");
        assert_eq!(parse(&again).expect("own index reads"), index);
    }
});
