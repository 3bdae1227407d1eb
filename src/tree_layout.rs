//! Where a tree's branches go on screen: a column per token, a row per
//! visible leaf, each branch midway between its first and last child. For
//! a sample tree only branches drawn by at least 2 % of the samples show,
//! at most six per parent; the rest of a parent's samples fold into one
//! "+ n more" item. A beam tree shows every continuation the search weighed.

use ntl_decoding::beam_tree::BeamTree;
use ntl_decoding::sample_tree::SampleTree;

/// A column per token.
pub const COL: f64 = 176.0;
/// A row per leaf.
pub const ROW: f64 = 30.0;
pub const BOX_W: f64 = 92.0;
pub const BOX_H: f64 = 22.0;
const TOP: f64 = 8.0;
const LEFT: f64 = 4.0;
/// Branches drawn less often than this fold into their parent's "more".
pub const MIN_SHARE: f64 = 0.02;
pub const MAX_SIBLINGS: usize = 6;

/// What the layout needs of a tree.
pub trait Drawable {
    /// Each node's parent (`None`: the prompt); parents come first and a
    /// parent's children in the order they are drawn.
    fn parents(&self) -> Vec<Option<u32>>;
    /// Whether `node`, its parent's `rank`-th child, shows unfolded.
    fn shows(&self, rank: usize, node: u32) -> bool;
    /// Samples through `node` (what a folded item counts).
    fn count(&self, node: u32) -> u32;
    /// Its share of the whole, for the edge's width.
    fn share(&self, node: u32) -> f64;
}

impl Drawable for SampleTree {
    fn parents(&self) -> Vec<Option<u32>> {
        self.nodes.iter().map(|n| n.parent).collect()
    }
    fn shows(&self, rank: usize, node: u32) -> bool {
        rank < MAX_SIBLINGS && self.share(node) >= MIN_SHARE
    }
    fn count(&self, node: u32) -> u32 {
        self.nodes[node as usize].count
    }
    fn share(&self, node: u32) -> f64 {
        self.count(node) as f64 / self.samples.max(1) as f64
    }
}

/// Beam trees are small (twice the beams per step): all of it shows.
impl Drawable for BeamTree {
    fn parents(&self) -> Vec<Option<u32>> {
        self.nodes.iter().map(|n| n.parent).collect()
    }
    fn shows(&self, _: usize, _: u32) -> bool {
        true
    }
    fn count(&self, _: u32) -> u32 {
        1
    }
    fn share(&self, _: u32) -> f64 {
        0.0
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ItemKind {
    Node(u32),
    /// Siblings folded together: how many, and their samples.
    More {
        branches: usize,
        count: u32,
    },
}

/// One drawn item: its box's top-left corner, and where its edge starts
/// (its parent's box's right middle).
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub kind: ItemKind,
    pub x: f64,
    pub y: f64,
    pub from: (f64, f64),
    pub share: f64,
    /// On the open branch's path.
    pub on_path: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    /// The prompt's box.
    pub root: (f64, f64),
    pub items: Vec<Item>,
}

/// The tree's visible branches, placed; the open branch's path always shows.
pub fn layout(tree: &impl Drawable, selected: Option<u32>) -> Layout {
    let parents = tree.parents();
    let n = parents.len();
    let mut children: Vec<Vec<u32>> = vec![vec![]; n + 1];
    for (i, parent) in parents.iter().enumerate() {
        children[parent.map_or(n, |p| p as usize)].push(i as u32);
    }
    let mut on_path = vec![false; n];
    let mut at = selected.filter(|&s| (s as usize) < n);
    while let Some(s) = at {
        on_path[s as usize] = true;
        at = parents[s as usize];
    }
    let mut placer = Placer {
        tree,
        n,
        children: &children,
        on_path: &on_path,
        rows: 0,
        items: vec![],
        deepest: 0,
    };
    let root_y = placer.place(n, 0);
    let rows = placer.rows.max(1);
    let deepest = placer.deepest;
    let mut items = placer.items;
    // Edges start at the prompt's box for the first tokens.
    for item in &mut items {
        if item.from.0 < 0.0 {
            item.from = (LEFT + BOX_W, root_y + BOX_H / 2.0);
        }
    }
    Layout {
        width: LEFT + deepest as f64 * COL + BOX_W + 90.0,
        height: TOP + rows as f64 * ROW,
        root: (LEFT, root_y),
        items,
    }
}

struct Placer<'a, T: Drawable> {
    tree: &'a T,
    n: usize,
    children: &'a [Vec<u32>],
    on_path: &'a [bool],
    rows: usize,
    items: Vec<Item>,
    deepest: usize,
}

impl<T: Drawable> Placer<'_, T> {
    /// Places `parent`'s visible children (and their subtrees) at `depth + 1`;
    /// returns the y of `parent`'s box.
    fn place(&mut self, parent: usize, depth: usize) -> f64 {
        let kids = &self.children[parent];
        // (rank among siblings, node)
        type Ranked = Vec<(usize, u32)>;
        let (shown, folded): (Ranked, Ranked) = kids
            .iter()
            .copied()
            .enumerate()
            .partition(|&(rank, k)| self.on_path[k as usize] || self.tree.shows(rank, k));
        if shown.is_empty() && folded.is_empty() {
            let y = self.next_row();
            return y;
        }
        self.deepest = self.deepest.max(depth + 1);
        let x = LEFT + (depth + 1) as f64 * COL;
        let mut ys = vec![];
        let first_item = self.items.len();
        for (_, k) in shown {
            let at = self.items.len();
            self.items.push(Item {
                kind: ItemKind::Node(k),
                x,
                y: 0.0,
                from: (-1.0, 0.0),
                share: self.tree.share(k),
                on_path: self.on_path[k as usize],
            });
            let y = self.place(k as usize, depth + 1);
            self.items[at].y = y;
            ys.push(y);
        }
        if !folded.is_empty() {
            let count: u32 = folded.iter().map(|&(_, k)| self.tree.count(k)).sum();
            let share = folded.iter().map(|&(_, k)| self.tree.share(k)).sum();
            let y = self.next_row();
            self.items.push(Item {
                kind: ItemKind::More {
                    branches: folded.len(),
                    count,
                },
                x,
                y,
                from: (-1.0, 0.0),
                share,
                on_path: false,
            });
            ys.push(y);
        }
        let y = (ys[0] + ys[ys.len() - 1]) / 2.0;
        if parent < self.n {
            let from = (x - COL + BOX_W, y + BOX_H / 2.0);
            for item in &mut self.items[first_item..] {
                if item.x == x {
                    item.from = from;
                }
            }
        }
        y
    }

    fn next_row(&mut self) -> f64 {
        let y = TOP + self.rows as f64 * ROW;
        self.rows += 1;
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ntl_decoding::sample_tree::TreeNode;

    fn node(parent: Option<u32>, depth: u32, count: u32) -> TreeNode {
        TreeNode {
            parent,
            depth,
            token_id: 0,
            token: "t".into(),
            count,
            share: count as f64 / 100.0,
            prob: 0.5,
            raw_prob: 0.5,
            path_prob: 0.5,
            path_raw_prob: 0.5,
            stop: None,
        }
    }

    fn tree(nodes: Vec<TreeNode>) -> SampleTree {
        SampleTree {
            config: ntl_decoding::LaneConfig::from_json("{}").unwrap(),
            samples: 100,
            tokens: 2,
            nodes,
            leaves: vec![],
            rows: 0,
            complete: true,
        }
    }

    fn node_ids(l: &Layout) -> Vec<u32> {
        l.items
            .iter()
            .filter_map(|i| match i.kind {
                ItemKind::Node(n) => Some(n),
                ItemKind::More { .. } => None,
            })
            .collect()
    }

    #[test]
    fn a_parent_sits_midway_between_its_first_and_last_child_one_column_left() {
        let t = tree(vec![
            node(None, 1, 100),
            node(Some(0), 2, 60),
            node(Some(0), 2, 40),
        ]);
        let l = layout(&t, None);
        let y = |n: u32| {
            l.items
                .iter()
                .find(|i| i.kind == ItemKind::Node(n))
                .unwrap()
                .y
        };
        assert_eq!(y(0), (y(1) + y(2)) / 2.0);
        assert_eq!(y(2) - y(1), ROW);
        let x = |n: u32| {
            l.items
                .iter()
                .find(|i| i.kind == ItemKind::Node(n))
                .unwrap()
                .x
        };
        assert_eq!(x(1) - x(0), COL);
        // Edges leave the parent's box on its right, at its middle.
        let first = l
            .items
            .iter()
            .find(|i| i.kind == ItemKind::Node(1))
            .unwrap();
        assert_eq!(first.from, (x(0) + BOX_W, y(0) + BOX_H / 2.0));
        let top = l
            .items
            .iter()
            .find(|i| i.kind == ItemKind::Node(0))
            .unwrap();
        assert_eq!(top.from, (l.root.0 + BOX_W, l.root.1 + BOX_H / 2.0));
        assert_eq!(l.height, 8.0 + 2.0 * ROW);
    }

    #[test]
    fn rare_branches_and_those_past_six_fold_into_one_more_item() {
        let mut nodes = vec![node(None, 1, 100)];
        // Eight children: six of 10 %, then 1 % and 39 %? Siblings come most-drawn first.
        for c in [30, 20, 15, 10, 8, 7, 5, 1] {
            nodes.push(node(Some(0), 2, c));
        }
        // 4 more children of 1 %: sum 100 with the above (96 + 4).
        for _ in 0..4 {
            nodes.push(node(Some(0), 2, 1));
        }
        let t = tree(nodes);
        let l = layout(&t, None);
        assert_eq!(node_ids(&l), vec![0, 1, 2, 3, 4, 5, 6]);
        let more = l
            .items
            .iter()
            .find(|i| matches!(i.kind, ItemKind::More { .. }))
            .unwrap();
        assert_eq!(
            more.kind,
            ItemKind::More {
                branches: 6,
                count: 10
            }
        );
        assert!((more.share - 0.10).abs() < 1e-12);
    }

    #[test]
    fn the_open_branch_shows_even_when_it_is_rare_and_is_marked() {
        let mut nodes = vec![node(None, 1, 99), node(None, 1, 1)];
        nodes.push(node(Some(1), 2, 1));
        let t = tree(nodes);
        assert_eq!(node_ids(&layout(&t, None)), vec![0]);
        let l = layout(&t, Some(2));
        assert_eq!(node_ids(&l), vec![0, 1, 2]);
        assert!(l.items.iter().filter(|i| i.on_path).count() == 2);
    }

    #[test]
    fn a_beam_tree_shows_every_continuation_however_many_a_beam_has() {
        use ntl_decoding::beam_tree::{BeamFate, BeamNode};
        let beam = |parent: Option<u32>, step: u32| BeamNode {
            parent,
            step,
            token_id: 0,
            token: "t".into(),
            score: -1.0,
            fate: BeamFate::Dropped,
            group: None,
            pushed: false,
            returned: None,
            on_answer: false,
        };
        let mut nodes = vec![beam(None, 0)];
        nodes.extend((0..8).map(|_| beam(Some(0), 1)));
        let t = BeamTree { nodes, steps: 2 };
        let l = layout(&t, None);
        assert_eq!(node_ids(&l), (0..9).collect::<Vec<_>>());
        assert!(l.items.iter().all(|i| matches!(i.kind, ItemKind::Node(_))));
        assert_eq!(l.height, 8.0 + 8.0 * ROW);
    }
}
