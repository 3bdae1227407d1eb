//! A worker that ran out of memory: what the browser says when a model's
//! weights or a run's cache do not fit (wasm32 has 4 GB of addresses, a
//! phone's tab far less), told apart from other crashes so the page can say
//! which model and how large, start a fresh worker, and not load the same
//! model into it again by itself.

/// What browsers and Rust's allocator say when memory runs out: Chromium
/// "WebAssembly.Memory.grow(): Maximum memory size exceeded" and "Out of
/// memory", Firefox "out of memory", Safari "Out of memory" and "RangeError:
/// Out of memory", Rust "memory allocation of N bytes failed". A worker that
/// stopped with no message at all (the page's "(out of memory?)") is only a
/// guess, so it stays an ordinary crash with a restart button.
pub fn is_out_of_memory(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    if m.contains("out of memory?") {
        return false;
    }
    [
        "out of memory",
        "maximum memory size exceeded",
        "memory allocation of",
        "could not allocate memory",
        "cannot allocate wasm memory",
        "array buffer allocation failed",
    ]
    .iter()
    .any(|s| m.contains(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_browsers_words_for_running_out_of_memory_are_told_apart_from_other_crashes() {
        for said in [
            "the model worker crashed: RangeError: WebAssembly.Memory.grow(): Maximum memory size exceeded",
            "the model worker crashed: out of memory",
            "the model worker crashed: RangeError: Out of memory",
            "memory allocation of 1417674752 bytes failed",
            "RangeError: Array buffer allocation failed",
        ] {
            assert!(is_out_of_memory(said), "{said}");
        }
        for other in [
            "the model worker crashed: RuntimeError: unreachable",
            "the model worker crashed: TypeError: x is undefined",
            "the model worker stopped (out of memory?)",
            "",
        ] {
            assert!(!is_out_of_memory(other), "{other}");
        }
    }
}
