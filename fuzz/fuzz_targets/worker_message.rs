//! The page's reading of worker messages on arbitrary text: a message it
//! cannot read is a typed `Unreadable` (never a panic), and one it can read
//! is written back and read again to the same JSON, non-finite numbers
//! included (they travel as "-inf"/"inf"/"nan").
#![no_main]
use libfuzzer_sys::fuzz_target;
use ntl_protocol::FromWorker;

fuzz_target!(|text: &str| {
    match FromWorker::read(text) {
        Ok(message) => {
            let json = message.to_json();
            let again = FromWorker::read(&json).expect("the page reads what the worker writes");
            assert_eq!(again.to_json(), json);
        }
        Err(u) => assert!(!u.detail.is_empty()),
    }
});
