//! Contrastive search as transformers 4.55.4 `_contrastive_search` does it:
//! take the `top_k` most probable processed candidates, run each one, and pick
//! the one maximising `(1 - alpha) * p - alpha * max cosine(h, context)` where
//! the hidden states are the final layer's (after `ln_f`).

use super::contract::{finish_run, sequence, stop_after, Lane, LaneEnv, Next, RowOutputs};
use crate::config::ValidConfig;
use crate::observe::{observe, step_record, Input, Observed, StepInfo};
use crate::processors::{Context, Pipeline};
use crate::record::{ContrastiveCandidate, Run, Step, StopReason};
use crate::scores::top_indices;

struct Pending {
    obs: Observed,
    logits: Vec<f32>,
    ids: Vec<u32>,
    probs: Vec<f32>,
}

pub struct ContrastiveLane {
    cfg: ValidConfig,
    pipeline: Pipeline,
    ids: Vec<u32>,
    prompt_len: usize,
    /// Unit-normalised final hidden states of every position so far.
    context: Vec<Vec<f32>>,
    pending: Option<Pending>,
    steps: Vec<Step>,
    stop: Option<StopReason>,
}

fn normalized(h: &[f32]) -> Vec<f32> {
    let norm = h.iter().map(|x| x * x).sum::<f32>().sqrt();
    h.iter().map(|x| x / norm).collect()
}

impl ContrastiveLane {
    pub fn new(
        cfg: ValidConfig,
        pipeline: Pipeline,
        prompt: &[u32],
        prompt_hidden: &[f32],
    ) -> ContrastiveLane {
        let h = prompt_hidden.len() / prompt.len().max(1);
        ContrastiveLane {
            cfg,
            pipeline,
            ids: prompt.to_vec(),
            prompt_len: prompt.len(),
            context: prompt_hidden.chunks(h.max(1)).map(normalized).collect(),
            pending: None,
            steps: vec![],
            stop: None,
        }
    }
}

impl Lane for ContrastiveLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        _shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let alpha = self.cfg.penalty_alpha;
        let mut step = None;
        let (next_logits, src_row) = match self.pending.take() {
            None => (out.logits(0).to_vec(), 0),
            Some(p) => {
                let k = p.ids.len();
                let cands: Vec<ContrastiveCandidate> = (0..k)
                    .map(|i| {
                        let h = normalized(out.hidden(i));
                        let penalty = self
                            .context
                            .iter()
                            .map(|c| c.iter().zip(&h).map(|(a, b)| a * b).sum::<f32>())
                            .fold(f32::NEG_INFINITY, f32::max);
                        ContrastiveCandidate {
                            id: p.ids[i],
                            token: env.vocab.display(p.ids[i]),
                            prob: p.probs[i],
                            degeneration_penalty: penalty,
                            score: (1.0 - alpha) * p.probs[i] - alpha * penalty,
                        }
                    })
                    .collect();
                let mut s = 0;
                for (i, c) in cands.iter().enumerate() {
                    if c.score > cands[s].score {
                        s = i;
                    }
                }
                let chosen = p.ids[s];
                let mut rec = step_record(
                    &p.obs,
                    StepInfo {
                        logits: &p.logits,
                        chosen,
                        draw: None,
                        forced: false,
                        top_n: env.top_n,
                    },
                    env.vocab,
                );
                rec.contrastive = Some(cands);
                self.steps.push(rec.clone());
                step = Some(rec);
                self.ids.push(chosen);
                self.context.push(normalized(out.hidden(s)));
                if let Some(r) = stop_after(
                    &self.cfg,
                    &self.ids,
                    self.prompt_len,
                    env.n_positions,
                    env.vocab,
                ) {
                    self.stop = Some(r);
                    return (step, Next::Done(r));
                }
                (out.logits(s).to_vec(), s)
            }
        };
        let obs = observe(
            &self.pipeline,
            &Context::new(&self.ids, self.prompt_len),
            &next_logits,
            Input::Logits,
        );
        let top = top_indices(&obs.probs, self.cfg.top_k);
        let ids: Vec<u32> = top.iter().map(|&i| i as u32).collect();
        let probs = top.iter().map(|&i| obs.probs[i]).collect();
        let k = ids.len();
        self.pending = Some(Pending {
            obs,
            logits: next_logits,
            ids: ids.clone(),
            probs,
        });
        (
            step,
            Next::Feed {
                src: vec![src_row; k],
                tokens: ids,
            },
        )
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
