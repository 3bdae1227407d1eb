//! The beam tree on the page: the lane it draws, a node opened (its step
//! opens in every lane's tables), and the tree saved.

use super::beam_tree::{BeamTreeAction, BeamTreeView, ShownBeamTree};
use super::outcome::{Command, Outcome};
use super::Page;
use ntl_decoding::beam_tree::BeamTree;
use serde::Serialize;

/// The saved file: the prompt, the lane and its tree.
#[derive(Serialize)]
struct Saved<'a> {
    prompt: &'a str,
    lane: usize,
    tree: &'a BeamTree,
}

impl Page {
    /// Lanes on screen whose steps are a beam search's.
    pub fn beam_lanes(&self) -> Vec<usize> {
        self.run
            .results
            .iter()
            .enumerate()
            .filter_map(|(l, r)| {
                let first = r.as_ref()?.steps.first()?;
                first.beams.is_some().then_some(l)
            })
            .collect()
    }

    /// The tree the panel draws, if a lane on screen runs a beam search.
    pub fn beam_tree(&self) -> Option<ShownBeamTree> {
        let lanes = self.beam_lanes();
        let lane = self
            .beam_view
            .lane
            .filter(|l| lanes.contains(l))
            .or(lanes.first().copied())?;
        let result = self.run.results[lane].as_ref()?;
        let tree = BeamTree::build(result.steps.iter().map(|s| &**s), &result.sequences)?;
        let open = self
            .beam_view
            .open
            .filter(|&(run, node)| run == result.run_id && (node as usize) < tree.nodes.len())
            .map(|(_, node)| node);
        Some(ShownBeamTree {
            lane,
            lanes,
            tree,
            open,
            growing: result.stop.is_none(),
        })
    }

    pub fn on_beam_tree(&mut self, action: BeamTreeAction) -> Outcome {
        match action {
            BeamTreeAction::Lane(l) => {
                if !self.beam_lanes().contains(&l) {
                    return Outcome::unchanged();
                }
                self.beam_view = BeamTreeView {
                    lane: Some(l),
                    open: None,
                };
            }
            BeamTreeAction::Select(node) => {
                let Some(shown) = self.beam_tree() else {
                    return Outcome::unchanged();
                };
                let Some(n) = shown.tree.nodes.get(node as usize) else {
                    return Outcome::unchanged();
                };
                let run_id = self.run.results[shown.lane]
                    .as_ref()
                    .map_or(0, |r| r.run_id);
                if shown.open == Some(node) {
                    self.beam_view.open = None;
                } else {
                    self.beam_view = BeamTreeView {
                        lane: Some(shown.lane),
                        open: Some((run_id, node)),
                    };
                    self.run.select(shown.lane, n.step as usize);
                }
            }
            BeamTreeAction::ExportJson => {
                let Some(shown) = self.beam_tree() else {
                    return Outcome::unchanged();
                };
                let saved = Saved {
                    prompt: &self.run.ran_prompt,
                    lane: shown.lane + 1,
                    tree: &shown.tree,
                };
                let text = serde_json::to_string_pretty(&saved).expect("a tree serialises");
                return Outcome::unchanged().and(Command::SaveFile {
                    name: "beam-tree.json".into(),
                    mime: "application/json",
                    text,
                });
            }
            BeamTreeAction::ExportSvg(text) => {
                return Outcome::unchanged().and(Command::SaveFile {
                    name: "beam-tree.svg".into(),
                    mime: "image/svg+xml",
                    text,
                })
            }
        }
        Outcome::redraw()
    }
}
