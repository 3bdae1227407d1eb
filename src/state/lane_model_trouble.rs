//! Why a lane's own model will not load, and what it costs: values the
//! page's words ([`crate::said::Said`]) carry, apart from the state that
//! decides them (so the words need not know the state).

use ntl_protocol::trouble::LoadTrouble;

/// What loading a lane model costs, said before it loads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaneModelCost {
    /// The weights' bytes (the download, unless the browser has them).
    pub download: u64,
    /// The tab's peak for it (`MemoryNeed::in_tab`).
    pub memory: u64,
}

/// Why a lane's model will not load.
#[derive(Debug, Clone, PartialEq)]
pub enum LaneModelTrouble {
    /// Not `bundled`, a hub repo id or a folder beside the page.
    NotAModel,
    /// Beside what the worker holds it would pass WebAssembly's 4 GiB, or
    /// half of what the device reports.
    TooBig {
        cost: LaneModelCost,
        held: u64,
        device_gb: Option<f64>,
    },
    /// The hub or the site would not say its size, and without it the page
    /// cannot say whether it fits.
    SizeUnknown,
    /// The worker could not load it.
    Load {
        file: Option<String>,
        // Boxed: the page's words (`Said`) stay small.
        trouble: Box<LoadTrouble>,
    },
}
