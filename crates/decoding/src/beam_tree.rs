//! A beam lane's steps as the tree the search explored: every continuation
//! a step weighed hangs under the running beam it extended, marked kept,
//! finished or dropped; the hypotheses the run returned are marked where
//! they end. Built from the steps alone (streamed, recorded or exported),
//! so it grows as the run streams.

use crate::record::{BeamCandidate, Sequence, Step};
use serde::{Deserialize, Serialize};

/// What the search did with a continuation it weighed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BeamFate {
    /// One of the beams that went on.
    Kept,
    /// It ended here (eos, length, stop string) and joined the finished hypotheses.
    Finished,
    /// Weighed and let go: not among the best, or ended without ranking.
    Dropped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BeamNode {
    /// The node it continues; `None`: the prompt.
    pub parent: Option<u32>,
    /// The step (0-based) that weighed it; its depth is `step + 1`.
    pub step: u32,
    pub token_id: u32,
    pub token: String,
    /// Sum of the processed log-probabilities of its tokens (the step table's score).
    #[serde(with = "crate::wire_float")]
    pub score: f32,
    pub fate: BeamFate,
    /// Diverse beam search: the group it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    /// Constrained beam search: kept because it moves a constraint forward.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pushed: bool,
    /// The run returned the hypothesis ending here, as its sequence `k`
    /// (0: the lane's text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returned: Option<usize>,
    /// On the path of the lane's text (returned sequence 0).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_answer: bool,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BeamTree {
    /// Parents before children; a step's continuations in the step's order.
    pub nodes: Vec<BeamNode>,
    /// Steps drawn.
    pub steps: usize,
}

/// Scores this low belong to the placeholder beams of a first step (only
/// the first beam of each group holds the prompt then).
const PLACEHOLDER: f32 = -1.0e8;

impl BeamTree {
    /// The tree of `steps` (`None` when they are not a beam lane's), with
    /// the run's returned `sequences` marked (none yet while it streams).
    pub fn build<'a>(
        steps: impl IntoIterator<Item = &'a Step>,
        sequences: &[Sequence],
    ) -> Option<BeamTree> {
        let mut tree = BeamTree::default();
        // The node each running beam holds (`None`: the prompt); a beam
        // that only carries padding holds nothing.
        let mut holds: Vec<Option<Option<u32>>> = vec![];
        for (s, step) in steps.into_iter().enumerate() {
            let beams = step.beams.as_ref()?;
            if s == 0 {
                let n = beams.iter().map(|b| b.beam + 1).max().unwrap_or(1);
                holds = vec![Some(None); n];
            }
            let mut next: Vec<Option<Option<u32>>> = vec![None; holds.len()];
            let mut kept_in_order = 0;
            for c in beams {
                if c.padding || (s == 0 && c.score < PLACEHOLDER) {
                    continue;
                }
                let Some(Some(parent)) = holds.get(c.beam).copied() else {
                    continue;
                };
                let id = tree.nodes.len() as u32;
                tree.nodes.push(node(c, parent, s));
                if c.running {
                    // Steps recorded before `next_beam` existed list the kept
                    // ones in the order they go on.
                    let at = c.next_beam.unwrap_or(kept_in_order);
                    kept_in_order += 1;
                    if at >= next.len() {
                        next.resize(at + 1, None);
                    }
                    next[at] = Some(Some(id));
                }
            }
            holds = next;
            tree.steps = s + 1;
        }
        tree.mark_returned(sequences);
        Some(tree)
    }

    /// The token ids from the prompt to `node`.
    pub fn path_ids(&self, node: u32) -> Vec<u32> {
        self.path(node)
            .iter()
            .map(|&i| self.nodes[i as usize].token_id)
            .collect()
    }

    /// The nodes from the prompt's first child to `node` (empty for a node
    /// the tree does not have).
    pub fn path(&self, node: u32) -> Vec<u32> {
        let mut path = vec![];
        let mut at = (node as usize) < self.nodes.len();
        let mut i = node;
        while at {
            path.push(i);
            match self.nodes[i as usize].parent {
                Some(p) => i = p,
                None => at = false,
            }
        }
        path.reverse();
        path
    }

    /// Kept, finished and dropped continuations.
    pub fn counts(&self) -> [usize; 3] {
        let mut n = [0; 3];
        for node in &self.nodes {
            n[node.fate as usize] += 1;
        }
        n
    }

    fn mark_returned(&mut self, sequences: &[Sequence]) {
        for (k, seq) in sequences.iter().enumerate() {
            let ids = &seq.token_ids;
            let Some(depth) = ids.len().checked_sub(1) else {
                continue;
            };
            // A finished hypothesis first; a cancelled run returns a beam still running.
            let found = [BeamFate::Finished, BeamFate::Kept]
                .iter()
                .find_map(|&fate| {
                    (0..self.nodes.len() as u32).find(|&i| {
                        let n = &self.nodes[i as usize];
                        n.step as usize == depth
                            && n.fate == fate
                            && n.returned.is_none()
                            && self.path_ids(i) == *ids
                    })
                });
            if let Some(i) = found {
                self.nodes[i as usize].returned = Some(k);
                if k == 0 {
                    for p in self.path(i) {
                        self.nodes[p as usize].on_answer = true;
                    }
                }
            }
        }
    }
}

fn node(c: &BeamCandidate, parent: Option<u32>, step: usize) -> BeamNode {
    BeamNode {
        parent,
        step: step as u32,
        token_id: c.token_id,
        token: c.token.clone(),
        score: c.score,
        // At the last step the search keeps its best ended hypotheses as
        // beams too; that they ended is what counts.
        fate: match (c.finished, c.running) {
            (true, _) => BeamFate::Finished,
            (false, true) => BeamFate::Kept,
            (false, false) => BeamFate::Dropped,
        },
        group: c.group,
        pushed: c.pushed,
        returned: None,
        on_answer: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(beam: usize, token_id: u32, score: f32, fate: BeamFate) -> BeamCandidate {
        BeamCandidate {
            beam,
            token_id,
            token: format!("t{token_id}"),
            score,
            finished: fate == BeamFate::Finished,
            running: fate == BeamFate::Kept,
            next_beam: None,
            group: None,
            diversity_penalty: None,
            padding: false,
            constraints: None,
            pushed: false,
        }
    }

    fn step(beams: Vec<BeamCandidate>) -> Step {
        let mut s: Step = serde_json::from_str(
            r#"{"token_id": 0, "token": "", "kept": 1, "entropy": 0.0, "raw_entropy": 0.0,
                "rank": 1, "chosen_raw_prob": 1.0, "chosen_prob": 1.0, "nucleus": [1, 1, 1],
                "funnel": [], "top": []}"#,
        )
        .expect("a minimal step");
        s.beams = Some(beams);
        s
    }

    fn seq(ids: &[u32]) -> Sequence {
        Sequence {
            token_ids: ids.to_vec(),
            text: String::new(),
            score: None,
            steps: vec![],
        }
    }

    use BeamFate::*;

    /// Two beams: step 1 keeps a and b; step 2 extends b first (as beam 0
    /// next), finishes a+eos, drops a+c.
    fn two_steps(next_beams: bool) -> Vec<Step> {
        let mut second = vec![
            cand(1, 3, -1.0, Kept),
            cand(0, 9, -1.2, Finished),
            cand(1, 4, -1.5, Kept),
            cand(0, 3, -2.0, Dropped),
        ];
        if next_beams {
            second[0].next_beam = Some(0);
            second[2].next_beam = Some(1);
        }
        vec![
            step(vec![
                cand(0, 1, -0.5, Kept),
                cand(0, 2, -0.7, Kept),
                cand(0, 5, -0.9, Dropped),
                cand(0, 6, -1.1, Dropped),
                // A placeholder beam's continuation on the first step.
                cand(1, 1, -1.0e9, Dropped),
            ]),
            step(second),
        ]
    }

    #[test]
    fn each_continuation_hangs_under_the_beam_it_extended() {
        for with_next in [true, false] {
            let steps = two_steps(with_next);
            let t = BeamTree::build(&steps, &[seq(&[1, 9]), seq(&[2, 3])]).unwrap();
            assert_eq!(
                t.nodes.len(),
                8,
                "the placeholder's continuation is left out"
            );
            assert_eq!(t.steps, 2);
            assert_eq!(t.path_ids(4), vec![2, 3]);
            assert_eq!(t.path_ids(5), vec![1, 9]);
            assert_eq!(t.path_ids(6), vec![2, 4]);
            assert_eq!(t.path_ids(7), vec![1, 3]);
            assert_eq!(t.counts(), [4, 1, 3]);
            assert_eq!(t.nodes[5].returned, Some(0));
            assert_eq!(t.nodes[4].returned, Some(1), "a beam still running");
            let answer: Vec<usize> = (0..8).filter(|&i| t.nodes[i].on_answer).collect();
            assert_eq!(answer, vec![0, 5]);
        }
    }

    #[test]
    fn a_step_without_beams_is_no_beam_tree() {
        let mut steps = two_steps(true);
        steps[1].beams = None;
        assert_eq!(BeamTree::build(&steps, &[]), None);
    }

    #[test]
    fn a_cancelled_runs_returned_beam_is_the_running_one() {
        let steps = two_steps(true);
        let t = BeamTree::build(&steps, &[seq(&[2, 3])]).unwrap();
        assert_eq!(t.nodes[4].returned, Some(0));
        assert!(t.nodes[1].on_answer && t.nodes[4].on_answer && !t.nodes[0].on_answer);
    }

    #[test]
    fn a_path_to_a_node_it_does_not_have_is_empty() {
        let t = BeamTree::build(&two_steps(true), &[]).unwrap();
        assert!(t.path(99).is_empty());
    }
}
