//! Packing the open lesson as one zip to upload (see `lesson_package`):
//! first what it holds and its size, then, when the teacher says so, the
//! files fetched and zipped, with progress. The transitions are in
//! `package_steps`.

use crate::lesson_package::Plan;
use crate::said::Said;

#[derive(Debug, Clone, PartialEq, Default)]
pub enum Packaging {
    #[default]
    Idle,
    /// The page's file list is on its way.
    Measuring,
    /// What the package would hold and its size, for the teacher to confirm.
    Offered(Plan),
    Packing {
        done: usize,
        total: usize,
    },
    /// Saved under this name, this many bytes.
    Done {
        name: String,
        bytes: u64,
    },
    Failed(Said),
}
