//! Greedy and multinomial sampling (HF `_sample`), DoLa on either (HF 4.55's
//! `_dola_decoding`: the knobs act on the layers' contrast instead of the
//! logits), and teacher forcing for any mode.

use super::contract::{
    feed_or_done, finish_run, one_row_stop, sequence, Lane, LaneEnv, Next, RowOutputs,
};
use crate::config::ValidConfig;
use crate::dola::choose_layer;
use crate::draws::{sample, Draws};
use crate::knob::{Knob, Stage};
use crate::observe::{observe, step_record, Input, StepInfo};
use crate::processors::{Context, Pipeline};
use crate::record::{DolaStep, Run, Step, StopReason};
use crate::scores::argmax;

pub struct SingleLane {
    cfg: ValidConfig,
    pipeline: Pipeline,
    ids: Vec<u32>,
    prompt_len: usize,
    draws: Draws,
    forced: Option<Vec<u32>>,
    steps: Vec<Step>,
    stop: Option<StopReason>,
    /// DoLa's candidate layers (early exits read at every step).
    dola: Vec<usize>,
}

impl SingleLane {
    pub fn new(
        cfg: ValidConfig,
        pipeline: Pipeline,
        prompt: &[u32],
        forced: Option<Vec<u32>>,
    ) -> SingleLane {
        let draws = Draws::new(cfg.seed);
        SingleLane::with_draws(cfg, pipeline, prompt, forced, draws)
    }

    /// A lane drawing from a given random stream (a lane's later samples).
    pub fn with_draws(
        cfg: ValidConfig,
        pipeline: Pipeline,
        prompt: &[u32],
        forced: Option<Vec<u32>>,
        draws: Draws,
    ) -> SingleLane {
        SingleLane {
            draws,
            cfg,
            pipeline,
            ids: prompt.to_vec(),
            prompt_len: prompt.len(),
            forced,
            steps: vec![],
            stop: None,
            dola: vec![],
        }
    }

    /// Contrasts with these layers (DoLa) when given.
    pub fn with_dola(mut self, layers: Option<Vec<usize>>) -> SingleLane {
        self.dola = layers.unwrap_or_default();
        self
    }
}

impl Lane for SingleLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let logits = out.logits(0);
        let exits = out.exit_rows(0);
        let dola = (!self.dola.is_empty()).then(|| choose_layer(logits, &exits));
        let ctx = Context {
            unconditional: out.unconditional,
            premature: dola.as_ref().map(|(chosen, _)| exits[*chosen]),
            ..Context::new(&self.ids, self.prompt_len)
        };
        let obs = observe(&self.pipeline, &ctx, logits, Input::Logits);
        let n = self.ids.len() - self.prompt_len;
        let (chosen, draw, forced) = match &self.forced {
            Some(f) => (f[n], None, true),
            None if self.cfg.is_sampling() => {
                let (chosen, u) = sample(&obs.probs, shared, &mut self.draws);
                (chosen, Some(u), false)
            }
            None => (argmax(&obs.processed) as u32, None, false),
        };
        let mut step = step_record(
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
        step.dola = dola.map(|(chosen, divergences)| DolaStep {
            premature_layer: self.dola[chosen],
            candidates: self.dola.clone(),
            divergences,
            plausible: obs
                .funnel
                .iter()
                .find(|f| f.name == Stage::Knob(Knob::DolaLayers))
                .map_or(0, |f| f.kept),
        });
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

    fn uses_draws(&self) -> bool {
        self.cfg.is_sampling() && self.forced.is_none()
    }

    fn exit_layers(&self) -> &[usize] {
        &self.dola
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
