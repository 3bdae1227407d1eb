//! A student's `minigpt.pt` on arbitrary bytes (a zip of any shape, a pickle
//! naming any global, nested a million deep, storages cut short): refuse with
//! a message or load, never panic, run anything, recurse or allocate past the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|pt: &[u8]| {
    if let Err(e) = ntl_engine::minigpt_import::minigpt_folder(pt, None, None) {
        assert!(!e.to_string().is_empty());
    }
});
