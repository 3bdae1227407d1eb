//! The share-link decoder on arbitrary text (links are data from strangers),
//! and the encoder/decoder round trip on whatever it accepts.
#![no_main]
use libfuzzer_sys::fuzz_target;
use ntl_protocol::share;

fuzz_target!(|link: &str| {
    match share::decode(link) {
        Ok(s) => assert_eq!(
            share::decode(&share::encode(&s)).expect("own links decode"),
            s
        ),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
