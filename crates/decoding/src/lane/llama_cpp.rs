//! A llama.cpp lane: one row, llama.cpp's sampler chain instead of HF's
//! processors. The chain is stateful (penalty and DRY history, mirostat's
//! `mu`, its seeded draws), so the lane owns it and tells it every token the
//! sequence takes: the prompt's first, as llama-server does, then each pick.

use super::contract::{
    feed_or_done, finish_run, one_row_stop, sequence, Lane, LaneEnv, Next, RowOutputs,
};
use crate::config::ValidConfig;
use crate::llama_cpp::observe::observe_chain;
use crate::llama_cpp::{Chain, ChainModel};
use crate::observe::{step_record, StepInfo};
use crate::record::{Run, Step, StopReason};
use crate::scores::argmax;

pub struct LlamaCppLane {
    cfg: ValidConfig,
    chain: Chain,
    ids: Vec<u32>,
    prompt_len: usize,
    forced: Option<Vec<u32>>,
    steps: Vec<Step>,
    stop: Option<StopReason>,
}

impl LlamaCppLane {
    /// `None` when the config is not a llama.cpp lane's.
    pub fn new(cfg: ValidConfig, forced: Option<Vec<u32>>, env: &LaneEnv) -> Option<LlamaCppLane> {
        let settings = cfg.llama_cpp.clone()?;
        let model = ChainModel {
            n_vocab: env.vocab.len(),
            n_ctx: env.n_positions,
            eog: &cfg.eos_token_ids,
        };
        let mut chain = Chain::new(&settings, &model);
        for &t in env.prompt {
            chain.accept(t);
        }
        Some(LlamaCppLane {
            cfg,
            chain,
            ids: env.prompt.to_vec(),
            prompt_len: env.prompt.len(),
            forced,
            steps: vec![],
            stop: None,
        })
    }
}

impl Lane for LlamaCppLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        _shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let logits = out.logits(0);
        let (obs, picked) = observe_chain(&mut self.chain, logits);
        let n = self.ids.len() - self.prompt_len;
        let (chosen, forced) = match &self.forced {
            Some(f) => (f[n], true),
            // llama.cpp asserts a pick; a chain always ends in one that picks.
            None => (picked.unwrap_or(argmax(&obs.processed) as u32), false),
        };
        let step = step_record(
            &obs,
            StepInfo {
                logits,
                chosen,
                draw: None,
                forced,
                top_n: env.top_n,
            },
            env.vocab,
        );
        self.chain.accept(chosen);
        self.ids.push(chosen);
        self.steps.push(step.clone());
        let stop = one_row_stop(
            &self.cfg,
            &self.ids,
            self.prompt_len,
            self.forced.as_deref(),
            env,
        );
        if stop.is_some() {
            self.stop = stop;
        }
        (Some(step), feed_or_done(stop, chosen))
    }

    fn cancel(&mut self) {
        self.stop.get_or_insert(StopReason::Cancelled);
    }

    fn generated(&self) -> &[u32] {
        &self.ids[self.prompt_len..]
    }

    fn into_run(self: Box<Self>, env: &LaneEnv) -> Run {
        let best = sequence(&self.ids[self.prompt_len..], None, env.vocab);
        finish_run(&self.cfg, vec![best], self.stop, self.steps)
    }
}
