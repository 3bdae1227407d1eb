//! The sample tree panel: which lane runs many times, how many samples and
//! tokens, the tree growing (its progress) or grown, and the branch open.

use crate::rc_eq::RcEq;
use crate::said::Said;
use ntl_decoding::sample_tree::{TreeDocument, TreeNode};

/// The sample counts offered: a handful to see the idea, a thousand for
/// shares that settle near the probabilities.
pub const SAMPLE_CHOICES: [usize; 6] = [10, 50, 100, 200, 500, 1000];
pub const DEFAULT_SAMPLES: usize = 200;
pub const DEFAULT_TOKENS: usize = 6;
/// Tree run ids start here, apart from the lanes' runs (the page's
/// `data-run` counts those alone); the worker cancels whichever is older.
const TREE_IDS: u64 = 1 << 40;

/// A tree on its way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Growing {
    pub run_id: u64,
    pub lane: usize,
    pub fraction: f64,
    pub level: usize,
    pub levels: usize,
    pub rows: usize,
}

/// A tree on screen: the lane it ran and how long it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Grown {
    pub doc: RcEq<TreeDocument>,
    pub lane: usize,
    pub ms: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TreePanel {
    pub lane: usize,
    pub samples: usize,
    pub tokens: usize,
    pub growing: Option<Growing>,
    pub grown: Option<Grown>,
    pub error: Option<Said>,
    /// The branch whose path is shown (a node of the grown tree).
    pub selected: Option<u32>,
    issued: u64,
}

impl Default for TreePanel {
    fn default() -> Self {
        TreePanel {
            lane: 0,
            samples: DEFAULT_SAMPLES,
            tokens: DEFAULT_TOKENS,
            growing: None,
            grown: None,
            error: None,
            selected: None,
            issued: 0,
        }
    }
}

impl TreePanel {
    /// A new tree of `lane`: its run id.
    pub fn begin(&mut self, lane: usize) -> u64 {
        self.issued += 1;
        let run_id = TREE_IDS + self.issued;
        self.error = None;
        self.growing = Some(Growing {
            run_id,
            lane,
            fraction: 0.0,
            level: 0,
            levels: self.tokens.saturating_sub(1),
            rows: 0,
        });
        run_id
    }

    /// Whether `run_id` is the tree growing now.
    pub fn is_growing(&self, run_id: u64) -> bool {
        self.growing.is_some_and(|g| g.run_id == run_id)
    }

    pub fn progress(
        &mut self,
        run_id: u64,
        fraction: f64,
        level: usize,
        levels: usize,
        rows: usize,
    ) -> bool {
        match &mut self.growing {
            Some(g) if g.run_id == run_id => {
                *g = Growing {
                    fraction,
                    level,
                    levels,
                    rows,
                    ..*g
                };
                true
            }
            _ => false,
        }
    }

    /// The tree arrived (whole, or as far as it grew before a cancel).
    pub fn grown(&mut self, run_id: u64, doc: TreeDocument, ms: f64) -> bool {
        let Some(g) = self.growing.filter(|g| g.run_id == run_id) else {
            return false;
        };
        self.growing = None;
        self.selected = None;
        self.grown = Some(Grown {
            doc: RcEq::new(doc),
            lane: g.lane,
            ms,
        });
        true
    }

    pub fn failed(&mut self, run_id: u64, said: Said) -> bool {
        if !self.is_growing(run_id) {
            return false;
        }
        self.growing = None;
        self.error = Some(said);
        true
    }

    /// Opens a branch of the tree on screen (or closes it when it is open).
    pub fn select(&mut self, node: u32) {
        let exists = self
            .grown
            .as_ref()
            .is_some_and(|g| (node as usize) < g.doc.tree.nodes.len());
        if exists {
            self.selected = (self.selected != Some(node)).then_some(node);
        }
    }
}

/// The nodes from the first token to `node`.
pub fn path_to(nodes: &[TreeNode], node: u32) -> Vec<&TreeNode> {
    let mut path = vec![];
    let mut at = Some(node);
    while let Some(n) = at.and_then(|n| nodes.get(n as usize)) {
        path.push(n);
        at = n.parent;
    }
    path.reverse();
    path
}
