//! The sample tree on the page: grow one lane's tree (its seed drawn when
//! the lane has none, refused here with the reason when a tree cannot be
//! grown from it), follow its progress, cancel it, and open a branch's
//! steps in every lane's tables.

use super::fresh_seeds::draw_seeds;
use super::outcome::{Command, Outcome};
use super::run::RunKind;
use super::sample_tree::path_to;
use super::Page;
use crate::said::Said;
use ntl_decoding::sample_tree::{TreeDocument, TreeRequest as Check};
use ntl_protocol::{RunRequest, ToWorker, TreeRequest};

/// What the tree panel asks the page to do.
#[derive(Debug, Clone, PartialEq)]
pub enum TreeAction {
    Set(TreeSetting),
    Grow,
    Cancel,
    /// Open (or close) a branch.
    Select(u32),
    /// Every lane follows the open branch; its tables open.
    Follow,
    ExportJson,
    /// The drawing as the page shows it, a standalone SVG file.
    ExportSvg(String),
}

/// What the settings take: a lane, a sample count, a depth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TreeSetting {
    Lane(usize),
    Samples(usize),
    Tokens(usize),
}

impl Page {
    pub fn on_tree(&mut self, action: TreeAction) -> Outcome {
        match action {
            TreeAction::Set(s) => self.set_tree(s),
            TreeAction::Grow => self.grow_tree(),
            TreeAction::Cancel => self.cancel_tree(),
            TreeAction::Select(node) => self.select_tree_node(node),
            TreeAction::Follow => self.follow_tree_branch(),
            TreeAction::ExportJson => {
                let Some(grown) = &self.tree.grown else {
                    return Outcome::unchanged();
                };
                let text = serde_json::to_string_pretty(&*grown.doc).expect("a tree serialises");
                Outcome::unchanged().and(Command::SaveFile {
                    name: "sample-tree.json".into(),
                    mime: "application/json",
                    text,
                })
            }
            TreeAction::ExportSvg(text) => Outcome::unchanged().and(Command::SaveFile {
                name: "sample-tree.svg".into(),
                mime: "image/svg+xml",
                text,
            }),
        }
    }

    /// Projector mode shows the tree only when there is one to show: grown,
    /// growing, or asked for by the lesson step.
    pub fn tree_to_project(&self) -> bool {
        self.tree.grown.is_some()
            || self.tree.growing.is_some()
            || self.lessons.current().tree.is_some()
    }

    pub fn set_tree(&mut self, setting: TreeSetting) -> Outcome {
        let tree = self.tree.make_mut();
        match setting {
            TreeSetting::Lane(l) if l < self.editor.count => tree.lane = l,
            TreeSetting::Samples(n) => {
                tree.samples = n.clamp(1, ntl_decoding::sample_tree::MAX_TREE_SAMPLES)
            }
            TreeSetting::Tokens(n) => {
                tree.tokens = n.clamp(1, ntl_decoding::sample_tree::MAX_TREE_TOKENS)
            }
            TreeSetting::Lane(_) => return Outcome::unchanged(),
        }
        Outcome::redraw()
    }

    /// Grows the chosen lane's tree from the prompt in the box.
    pub fn grow_tree(&mut self) -> Outcome {
        let lane = self.tree.lane.min(self.editor.count - 1);
        let Some(mut lanes) = self.editor.lane_requests(self.model.generation_defaults()) else {
            return Outcome::redraw();
        };
        let mut request = lanes.swap_remove(lane);
        if let Err(e) = draw_seeds(std::slice::from_mut(&mut request)) {
            self.tree.make_mut().error = Some(e);
            return Outcome::redraw();
        }
        if let Err(said) = self.tree_refusal(&request) {
            self.tree.make_mut().error = Some(said);
            return Outcome::redraw();
        }
        if !self.worker.alive {
            self.tree.make_mut().error = Some(Said::WorkerDown);
            return Outcome::redraw();
        }
        let tree = self.tree.make_mut();
        let run_id = tree.begin(lane);
        let request = TreeRequest {
            prompt: self.editor.prompt.clone(),
            prompt_ids: self.editor.branch_ids.clone(),
            lane: request,
            samples: tree.samples,
            tokens: tree.tokens,
        };
        Outcome::redraw().and(Command::Send(ToWorker::Tree {
            run_id,
            request: Box::new(request),
        }))
    }

    /// What the worker would refuse, said here in the reader's words.
    fn tree_refusal(&self, request: &ntl_decoding::LaneRequest) -> Result<(), Said> {
        let config = request.config.validate().map_err(Said::Config)?;
        let check = Check {
            config,
            samples: self.tree.samples,
            tokens: self.tree.tokens,
        };
        // The model's cache per position, when the page knows its shape.
        let cache_bytes = match &self.model.status {
            super::model::ModelStatus::Ready { info, .. } => {
                let kv = info.n_kv_head.unwrap_or(info.n_head) * (info.n_embd / info.n_head.max(1));
                2 * info.n_layer * kv * 4
            }
            _ => 0,
        };
        check.check(cache_bytes).map_err(Said::Tree)
    }

    pub fn cancel_tree(&self) -> Outcome {
        let cancel = self
            .tree
            .growing
            .map(|g| ToWorker::Cancel { run_id: g.run_id });
        Outcome::unchanged().and_send(cancel.filter(|_| self.worker.alive))
    }

    pub fn select_tree_node(&mut self, node: u32) -> Outcome {
        self.tree.make_mut().select(node);
        Outcome::redraw()
    }

    pub(super) fn tree_grown(&mut self, run_id: u64, doc: TreeDocument, ms: f64) -> Outcome {
        Outcome::changed(self.tree.make_mut().grown(run_id, doc, ms))
    }

    /// The open branch followed by every lane: each records what its own
    /// knobs give the branch's tokens, and the tree's lane opens at its
    /// first step (the tree's probabilities, now as tables).
    pub fn follow_tree_branch(&mut self) -> Outcome {
        let (Some(grown), Some(node)) = (self.tree.grown.clone(), self.tree.selected) else {
            return Outcome::unchanged();
        };
        let ids: Vec<u32> = path_to(&grown.doc.tree.nodes, node)
            .iter()
            .map(|n| n.token_id)
            .collect();
        let Some(mut lanes) = self.editor.lane_requests(self.model.generation_defaults()) else {
            return Outcome::redraw();
        };
        for l in &mut lanes {
            l.forced_ids = Some(ids.clone());
        }
        if !self.worker.alive {
            self.error = Some(Said::WorkerDown);
            return Outcome::redraw();
        }
        self.error = None;
        let run_id = self.run.begin(RunKind::Score, &grown.doc.prompt);
        self.run.ran_with = None;
        self.pending_step = Some((grown.lane.min(self.editor.count - 1), 0));
        let request = RunRequest {
            prompt: grown.doc.prompt.clone(),
            lanes,
            prompt_ids: Some(grown.doc.prompt_ids.clone()),
            lens: self.lens,
            ..RunRequest::default()
        };
        self.run.request = Some(request.clone());
        self.run_sent(run_id, request)
    }
}
