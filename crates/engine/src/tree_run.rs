//! A sample tree as the engine takes it: the prompt, one sampling lane, how
//! many samples and tokens; checked against this model like a run's lanes.

use crate::error::{PromptError, RunError};
use crate::Engine;
use ntl_decoding::sample_tree::{TreeDocument, TreeProgress, TreeRequest, TreeRun};
use ntl_decoding::{prepare_prompt, LaneRequest, Prompt};
use std::ops::ControlFlow;

#[derive(Debug, Clone)]
pub struct TreeInput {
    pub prompt: String,
    /// Start from these ids instead of encoding `prompt`.
    pub prompt_ids: Option<Vec<u32>>,
    /// The sampling lane every sample runs (its `forced_ids` must be none).
    pub lane: LaneRequest,
    pub samples: usize,
    pub tokens: usize,
}

/// A tree checked against the model, ready for [`Engine::start_tree`].
pub struct PreparedTree {
    pub prompt_text: String,
    pub prompt: Prompt,
    pub request: TreeRequest,
}

impl PreparedTree {
    pub fn document(self, run: TreeRun<&Engine>) -> TreeDocument {
        TreeDocument {
            prompt_ids: self.prompt.ids,
            prompt: self.prompt_text,
            prompt_cropped: self.prompt.cropped,
            tree: run.finish(),
        }
    }
}

impl Engine {
    pub fn prepare_tree(&self, input: TreeInput) -> Result<PreparedTree, RunError> {
        let cfg = self.model.cfg();
        if input.lane.forced_ids.is_some() {
            return Err(RunError::ForcedIds { lane: 0 });
        }
        let spec = self.lane_spec(0, input.lane, None)?;
        let ids = match input.prompt_ids {
            Some(ids) => {
                if let Some(&id) = ids.iter().find(|&&id| id as usize >= cfg.vocab_size) {
                    let vocab_size = cfg.vocab_size;
                    return Err(PromptError::OutsideVocab { id, vocab_size }.into());
                }
                ids
            }
            None => self.encode(&input.prompt)?,
        };
        let prompt = prepare_prompt(&ids, cfg.bos_token_id, cfg.n_positions, input.tokens.max(1));
        let request = TreeRequest {
            config: spec.config,
            samples: input.samples,
            tokens: input.tokens,
        };
        // Refused here, before the prompt's pass.
        request
            .check(ntl_decoding::LanguageModel::cache_bytes_per_position(self))
            .map_err(ntl_decoding::sample_tree::TreeError::from)?;
        Ok(PreparedTree {
            prompt_text: input.prompt,
            prompt,
            request,
        })
    }

    /// A prepared tree's run, to grow pass by pass (the worker).
    pub fn start_tree<'a>(&'a self, p: &PreparedTree) -> Result<TreeRun<&'a Engine>, RunError> {
        Ok(TreeRun::start(
            self,
            self.tokenizer_vocab(),
            &p.prompt.ids,
            p.request.clone(),
        )?)
    }

    /// Grows a tree to its end (or until `on_progress` breaks: the tree so far).
    pub fn tree(
        &self,
        input: TreeInput,
        mut on_progress: impl FnMut(TreeProgress) -> ControlFlow<()>,
    ) -> Result<TreeDocument, RunError> {
        let p = self.prepare_tree(input)?;
        let mut run = self.start_tree(&p)?;
        while run.advance()? {
            if on_progress(run.progress()).is_break() {
                run.cancel();
            }
        }
        Ok(p.document(run))
    }
}
