//! Which worker build runs the model, and why: read from what this browser
//! can do (detected in `worker_link`, never sniffed from the user agent).
//! WebKitGTK and WPE say they are cross-origin isolated yet give pages no
//! `SharedArrayBuffer` (WebKit bug 268068), so there an isolated page runs
//! the single-threaded worker and says why; Safari exposes it and gets
//! threads.

/// What the threaded worker needs, as this browser has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Abilities {
    /// `crossOriginIsolated` (COOP + COEP headers).
    pub isolated: bool,
    /// `SharedArrayBuffer` exists.
    pub shared_array_buffer: bool,
    /// A `WebAssembly.Memory` can be made `shared`.
    pub shared_wasm_memory: bool,
}

/// Why the model runs on one thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OneThread {
    /// The page is served without COOP/COEP headers (a plain host, an embed).
    NotIsolated,
    /// Isolated, but the browser gives pages no `SharedArrayBuffer`.
    NoSharedArrayBuffer,
    /// `SharedArrayBuffer` exists but WebAssembly memory cannot be shared.
    NoSharedWasmMemory,
    /// The threaded build did not start here (missing from the host, or it
    /// failed or took too long), so the single-threaded one took over.
    ThreadedFailed,
}

impl Abilities {
    /// The threaded worker when every ability is there, else why not.
    pub fn one_thread(self) -> Option<OneThread> {
        if !self.isolated {
            Some(OneThread::NotIsolated)
        } else if !self.shared_array_buffer {
            Some(OneThread::NoSharedArrayBuffer)
        } else if !self.shared_wasm_memory {
            Some(OneThread::NoSharedWasmMemory)
        } else {
            None
        }
    }

    /// Every ability: a threaded host, in the page's tests.
    #[cfg(test)]
    pub fn all() -> Abilities {
        Abilities {
            isolated: true,
            shared_array_buffer: true,
            shared_wasm_memory: true,
        }
    }
}

impl OneThread {
    /// The `data-why` of the model line's `threads`.
    pub fn as_str(self) -> &'static str {
        match self {
            OneThread::NotIsolated => "not-isolated",
            OneThread::NoSharedArrayBuffer => "no-shared-array-buffer",
            OneThread::NoSharedWasmMemory => "no-shared-wasm-memory",
            OneThread::ThreadedFailed => "threaded-failed",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_missing_ability_is_the_reason_given() {
        assert_eq!(Abilities::all().one_thread(), None);
        let webkit_gtk = Abilities {
            shared_array_buffer: false,
            shared_wasm_memory: false,
            ..Abilities::all()
        };
        assert_eq!(
            webkit_gtk.one_thread(),
            Some(OneThread::NoSharedArrayBuffer)
        );
        let plain_host = Abilities {
            isolated: false,
            ..Abilities::all()
        };
        assert_eq!(plain_host.one_thread(), Some(OneThread::NotIsolated));
        let no_wasm_threads = Abilities {
            shared_wasm_memory: false,
            ..Abilities::all()
        };
        assert_eq!(
            no_wasm_threads.one_thread(),
            Some(OneThread::NoSharedWasmMemory)
        );
    }
}
