//! A tutorial lane: one row, seed 004's loop. While the ids fit the window
//! it feeds its token on its row's cache as any lane does; past
//! `block_size` it asks the loop for a fresh pass over the last
//! `block_size` ids ([`Next::Window`]), as `input_ids[:, -block_size:]`
//! does: learned positions shift, so no cache can slide.

use super::contract::{finish_run, sequence, Lane, LaneEnv, Next, RowOutputs};
use crate::config::ValidConfig;
use crate::draws::{sample, Draws};
use crate::knob::{Knob, Stage};
use crate::observe::{step_record, Observed, StepInfo};
use crate::record::{FunnelStage, Run, Step, StopReason};
use crate::scores::argmax;
use crate::softmax_terms::softmax_entropy;
use crate::tutorial::filter::filter;
use crate::tutorial::TutorialSettings;
use std::sync::Arc;

pub struct TutorialLane {
    cfg: ValidConfig,
    settings: Arc<TutorialSettings>,
    /// The window: the settings' block size within the model's context.
    block: usize,
    /// The full prompt (never cropped: the window slides over it), then
    /// the lane's tokens.
    ids: Vec<u32>,
    prompt_len: usize,
    /// Whether the lane's row has a cache to feed its next token on: not
    /// once it has taken a window.
    cached: bool,
    /// Its first step's window, when the shared prompt is not it.
    initial: Option<Vec<u32>>,
    forced: Option<Vec<u32>>,
    draws: Draws,
    steps: Vec<Step>,
    stop: Option<StopReason>,
}

impl TutorialLane {
    /// `None` when the config is not a tutorial lane's.
    pub fn new(cfg: ValidConfig, forced: Option<Vec<u32>>, env: &LaneEnv) -> Option<TutorialLane> {
        let settings = cfg.tutorial.clone()?;
        let block = settings
            .block_size
            .unwrap_or(env.n_positions)
            .min(env.n_positions);
        let full = env.full_prompt;
        let window = &full[full.len().saturating_sub(block)..];
        let initial = (window != env.prompt).then(|| window.to_vec());
        Some(TutorialLane {
            cached: initial.is_none(),
            initial,
            draws: Draws::new(cfg.seed),
            cfg,
            settings,
            block,
            ids: full.to_vec(),
            prompt_len: full.len(),
            forced,
            steps: vec![],
            stop: None,
        })
    }

    fn sampling(&self) -> bool {
        self.settings.do_sample && self.forced.is_none()
    }
}

/// The funnel and distributions of one step: temperature, then top-k and
/// top-p when given; a greedy step shows its raw distribution.
fn observe_tutorial(s: &TutorialSettings, logits: &[f32]) -> Observed {
    let (raw_probs, raw_entropy) = softmax_entropy(logits);
    let kept = |x: &[f32]| x.iter().filter(|v| v.is_finite()).count();
    let mut funnel = vec![FunnelStage {
        name: Stage::Model,
        kept: kept(logits),
        removed_mass: 0.0,
        entropy: raw_entropy,
    }];
    if !s.do_sample {
        return Observed {
            processed: logits.to_vec(),
            probs: raw_probs.clone(),
            raw_probs,
            funnel,
            removed_at: vec![0; logits.len()],
        };
    }
    let f = filter(logits, s.temperature, s.top_k, s.top_p);
    let mut removed_at = vec![0u8; logits.len()];
    let mut before = softmax_entropy(&f.tempered).0;
    funnel.push(FunnelStage {
        name: Stage::Knob(Knob::Temperature),
        kept: kept(&f.tempered),
        removed_mass: 0.0,
        entropy: softmax_entropy(&f.tempered).1,
    });
    for (knob, scores) in [(Knob::TopK, &f.top_k), (Knob::TopP, &f.top_p)] {
        let Some(scores) = scores else { continue };
        let tag = funnel.len().min(u8::MAX as usize) as u8;
        let (after, entropy) = softmax_entropy(scores);
        let mut removed_mass = 0.0;
        for (i, (b, v)) in before.iter().zip(scores.iter()).enumerate() {
            if *v == f32::NEG_INFINITY && *b > 0.0 && removed_at[i] == 0 {
                removed_mass += *b;
                removed_at[i] = tag;
            }
        }
        funnel.push(FunnelStage {
            name: Stage::Knob(knob),
            kept: kept(scores),
            removed_mass,
            entropy,
        });
        before = after;
    }
    Observed {
        processed: f.last().to_vec(),
        probs: f.probs,
        raw_probs,
        funnel,
        removed_at,
    }
}

impl Lane for TutorialLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let logits = out.logits(0);
        let obs = observe_tutorial(&self.settings, logits);
        let n = self.ids.len() - self.prompt_len;
        let (chosen, draw, forced) = match &self.forced {
            Some(f) => (f[n], None, true),
            None if self.settings.do_sample => {
                let (chosen, u) = sample(&obs.probs, shared, &mut self.draws);
                (chosen, Some(u), false)
            }
            // `logits.argmax(dim=-1)`: the first of equal maxima.
            None => (argmax(logits) as u32, None, false),
        };
        let step = step_record(
            &obs,
            StepInfo {
                logits,
                chosen,
                draw,
                forced,
                top_n: env.top_n,
            },
            env.vocab,
        );
        self.ids.push(chosen);
        self.steps.push(step.clone());
        let generated = self.ids.len() - self.prompt_len;
        let stop = match &self.forced {
            Some(f) if generated >= f.len() => Some(StopReason::ForcedEnd),
            Some(_) => None,
            None if generated >= self.settings.max_new_tokens => Some(StopReason::MaxNewTokens),
            None => None,
        };
        if let Some(reason) = stop {
            self.stop = Some(reason);
            return (Some(step), Next::Done(reason));
        }
        let next = if self.cached && self.ids.len() <= self.block {
            Next::Feed {
                src: vec![0],
                tokens: vec![chosen],
            }
        } else {
            self.cached = false;
            Next::Window {
                ids: self.ids[self.ids.len().saturating_sub(self.block)..].to_vec(),
            }
        };
        (Some(step), next)
    }

    fn cancel(&mut self) {
        self.stop.get_or_insert(StopReason::Cancelled);
    }

    fn generated(&self) -> &[u32] {
        &self.ids[self.prompt_len..]
    }

    fn uses_draws(&self) -> bool {
        self.sampling()
    }

    fn initial_window(&self) -> Option<Vec<u32>> {
        self.initial.clone()
    }

    fn one_sequence(&self) -> bool {
        true
    }

    fn last_step_mut(&mut self) -> Option<&mut Step> {
        self.steps.last_mut()
    }

    fn into_run(self: Box<Self>, env: &LaneEnv) -> Run {
        let best = sequence(&self.ids[self.prompt_len..], None, env.vocab);
        finish_run(&self.cfg, vec![best], self.stop, self.steps)
    }
}
