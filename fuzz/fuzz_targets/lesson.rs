//! The lesson reader on arbitrary bytes (a lesson may come from anyone: a
//! dropped file, a course site), and the round trip of whatever it accepts:
//! a lesson written back as a file reads as the same lesson.
#![no_main]
use libfuzzer_sys::fuzz_target;
use ntl_protocol::lesson;

fuzz_target!(|bytes: &[u8]| {
    match lesson::parse(bytes) {
        Ok(l) => {
            let written = l.to_json();
            // Pretty-printed, a compact lesson near the limit may pass it.
            if written.len() <= lesson::MAX_LESSON_BYTES {
                let back = lesson::parse(written.as_bytes()).expect("a lesson written back reads");
                assert_eq!(back, l);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
