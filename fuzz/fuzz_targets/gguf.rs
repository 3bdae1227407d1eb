//! The GGUF reader on arbitrary `.gguf` bytes (a file a user picks, a
//! download cut short, a folder on a host the teacher does not control):
//! refuse with a message or load, never panic, hang or allocate past the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|gguf: &[u8]| {
    if let Err(e) = ntl_engine::check_gguf(gguf) {
        assert!(!e.to_string().is_empty());
    }
});
