//! The what-if sandbox on a run's step: opening it on a lane's step with the
//! lane's knobs, turning its knobs, and giving them back to a lane.

use super::outcome::{Command, Outcome};
use super::{sandbox, Page};
use ntl_decoding::Knob;

impl Page {
    /// The sandbox holds `lane`'s step `step` (its whole row, from the
    /// worker), starting from the knobs that lane ran with.
    pub fn open_sandbox(&mut self, lane: usize, step: usize) -> Outcome {
        let Some(r) = self.run.results.get(lane).and_then(|r| r.as_ref()) else {
            return Outcome::unchanged();
        };
        let Some(chosen) = r.steps.get(step).map(|s| s.token_id) else {
            return Outcome::unchanged();
        };
        if self.run.prompt_ids.is_empty() || !self.worker.alive {
            return Outcome::unchanged();
        }
        // A beam lane's table is one beam's row: the one its records trace back to.
        let Some(generated) = ntl_decoding::step_context::step_context(&r.steps, step) else {
            return Outcome::unchanged();
        };
        let mut ids = self.run.prompt_ids.clone();
        ids.extend(generated);
        let config = self
            .run
            .doc_run(lane)
            .map(|run| run.config.clone())
            .unwrap_or_else(|| self.editor.lanes[lane].config());
        let llama = config.llama_cpp().is_some();
        let config = sandbox_start(&config);
        let beam = r.steps[step].beams.is_some();
        let source = sandbox::StepSource {
            lane,
            step,
            ids: std::rc::Rc::new(ids),
            prompt_len: self.run.prompt_ids.len(),
            chosen,
            beam,
            // The ids the lane named; none named: the model's, in the worker.
            eos_token_ids: if beam && config.eos_token_id.is_some() {
                config.validate().ok().map(|valid| valid.eos_token_ids)
            } else {
                None
            },
            guided: config.guidance_scale.is_some_and(|g| g != 1.0),
            dola: r.steps[step].dola.is_some(),
            llama,
            // A lane on a model of its own (beside a copy, one vocabulary)
            // is tried on that model.
            model: self.lane_held(lane).wire(),
        };
        let request = self.sandbox.make_mut().open_step(source, &config);
        Outcome::redraw().and_maybe(request.map(Command::Send))
    }

    /// A knob typed into the sandbox.
    pub fn set_sandbox_knob(&mut self, knob: Knob, text: String) -> Outcome {
        let request = self.sandbox.make_mut().set_knob(knob, text);
        Outcome::redraw().and_maybe(request.map(Command::Send))
    }

    /// The sandbox's knobs copied into a lane (nothing while its input is wrong).
    pub fn use_sandbox(&mut self, lane: usize) -> Outcome {
        match self.sandbox.lane_knobs() {
            Some(knobs) => {
                self.editor.use_knobs(lane, &knobs);
                Outcome::redraw()
            }
            None => Outcome::default(),
        }
    }
}

/// The HF knobs the sandbox starts from: a lane's own, or a llama.cpp
/// lane's same-named knobs as an HF sampling config.
fn sandbox_start(config: &ntl_decoding::LaneConfig) -> ntl_decoding::GenerationConfig {
    match config {
        ntl_decoding::LaneConfig::Transformers(c) => c.clone(),
        ntl_decoding::LaneConfig::LlamaCpp(c) => ntl_decoding::GenerationConfig {
            do_sample: c.temperature > 0.0,
            temperature: if c.temperature > 0.0 {
                c.temperature
            } else {
                1.0
            },
            top_k: (c.top_k > 0).then_some(c.top_k),
            top_p: c.top_p,
            min_p: (c.min_p > 0.0).then_some(c.min_p),
            typical_p: c.typical_p,
            ..Default::default()
        },
        ntl_decoding::LaneConfig::Tutorial(c) => ntl_decoding::GenerationConfig {
            do_sample: c.do_sample,
            temperature: c.temperature,
            top_k: c.top_k.filter(|&k| k > 0),
            top_p: c.top_p.unwrap_or(1.0),
            ..Default::default()
        },
    }
}
