//! A sample tree as `decode --samples` prints it: the branches drawn by at
//! least 1 % of the samples, indented by depth, with their counts, shares
//! and the probability the sampler gave each path.

use crate::visible::visible;
use ntl_decoding::sample_tree::TreeDocument;

/// Branches below this share are folded into a count under their parent.
const SHOWN_SHARE: f64 = 0.01;

pub fn tree_text(doc: &TreeDocument) -> String {
    let tree = &doc.tree;
    let mut out = format!(
        "{} samples × {} tokens after {:?}: {} branches, {} model rows (separate runs: {}){}\n",
        tree.samples,
        tree.tokens,
        doc.prompt,
        tree.nodes.len(),
        tree.rows,
        tree.samples * tree.tokens,
        if tree.complete { "" } else { " — cancelled" }
    );
    out += "   count  share   p(path)  p raw(path)  token\n";
    let mut children: Vec<Vec<usize>> = vec![vec![]; tree.nodes.len() + 1];
    for (i, n) in tree.nodes.iter().enumerate() {
        children[n.parent.map_or(tree.nodes.len(), |p| p as usize)].push(i);
    }
    // Depth first from the prompt, siblings as stored (most-drawn first).
    let mut stack: Vec<usize> = children[tree.nodes.len()].iter().rev().copied().collect();
    let mut folded = vec![0usize; tree.nodes.len() + 1];
    while let Some(i) = stack.pop() {
        let n = &tree.nodes[i];
        if n.share < SHOWN_SHARE {
            folded[n.parent.map_or(tree.nodes.len(), |p| p as usize)] += 1;
            continue;
        }
        let stop = n
            .stop
            .map(|s| format!("  [{}]", s.as_str()))
            .unwrap_or_default();
        out += &format!(
            "   {:>5} {:>6.1}% {:>9.5} {:>11.5}  {}{}{}\n",
            n.count,
            100.0 * n.share,
            n.path_prob,
            n.path_raw_prob,
            "  ".repeat(n.depth as usize - 1),
            visible(&n.token),
            stop
        );
        stack.extend(children[i].iter().rev());
    }
    let small: usize = folded.iter().sum();
    if small > 0 {
        out += &format!(
            "   ({small} branches drawn by fewer than {:.0} % of the samples not shown; --json has every one)\n",
            100.0 * SHOWN_SHARE
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ntl_decoding::sample_tree::{SampleTree, TreeNode};

    fn node(parent: Option<u32>, depth: u32, token: &str, count: u32) -> TreeNode {
        TreeNode {
            parent,
            depth,
            token_id: 0,
            token: token.into(),
            count,
            share: count as f64 / 100.0,
            prob: 0.5,
            raw_prob: 0.4,
            path_prob: 0.5,
            path_raw_prob: 0.4,
            stop: None,
        }
    }

    #[test]
    fn branches_print_depth_first_indented_and_the_rare_ones_are_counted() {
        let doc = TreeDocument {
            prompt_ids: vec![1],
            prompt: "A".into(),
            prompt_cropped: 0,
            tree: SampleTree {
                config: ntl_decoding::LaneConfig::from_json("{}").unwrap(),
                samples: 100,
                tokens: 2,
                nodes: vec![
                    node(None, 1, " x", 99),
                    node(None, 1, " y", 1),
                    node(Some(0), 2, " z", 60),
                    node(Some(0), 2, " w", 39),
                ],
                leaves: vec![],
                rows: 3,
                complete: true,
            },
        };
        let text = tree_text(&doc);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[2].ends_with("␣x"), "{text}");
        assert!(lines[3].ends_with("  ␣z"), "{text}");
        assert!(lines[4].ends_with("  ␣w"), "{text}");
        assert!(lines[5].ends_with("␣y"), "1 % is shown: {text}");
        assert!(!text.contains("not shown"));
    }
}
