//! The beam tree panel's state: which beam lane it draws and the node open
//! in it. The tree itself is built from the lane's steps as they stream
//! (`BeamTree::build`), so it needs no request of its own.

use ntl_decoding::beam_tree::BeamTree;

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BeamTreeView {
    /// The lane chosen; the first beam lane when none is, or when the
    /// chosen one no longer runs a beam search.
    pub lane: Option<usize>,
    /// The open node, and the run whose tree it belongs to.
    pub open: Option<(u64, u32)>,
}

/// What the beam tree panel asks the page to do.
#[derive(Debug, Clone, PartialEq)]
pub enum BeamTreeAction {
    Lane(usize),
    /// Open (or close) a node: its step opens in every lane's tables.
    Select(u32),
    ExportJson,
    /// The drawing as the page shows it, a standalone SVG file.
    ExportSvg(String),
}

/// The drawn lane's tree, as the panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownBeamTree {
    pub lane: usize,
    /// Every lane on screen whose steps are a beam search's.
    pub lanes: Vec<usize>,
    pub tree: BeamTree,
    pub open: Option<u32>,
    /// The lane is still running.
    pub growing: bool,
}
