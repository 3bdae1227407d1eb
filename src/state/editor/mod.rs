//! What the user is setting up: the prompt, the four lanes' knobs and their
//! errors, the shared seed, a text to score, a branch's exact ids.

use super::lane_outlook::{runs_as, LaneOutlook, Outlooks};
use crate::lane_config::{KnobText, LaneKnobs};
use crate::lanes::LANES;
use crate::lessons;
use crate::rc_eq::RcEq;
use crate::said::Said;
use ntl_decoding::llama_cpp::LlamaCppKnob;
use ntl_decoding::{ConfigError, Defaults, Knob, LaneRequest, Mode, ModelDefaults, Semantics};
use ntl_protocol::lesson::LessonStep;
use ntl_protocol::share::Shared;

/// A lane's JSON split into its `"model"` (a name, or none) and its knobs;
/// `Err` holds a `"model"` that is not a name.
fn split_model(text: &str) -> Result<(Option<String>, String), String> {
    let Ok(serde_json::Value::Object(mut map)) = serde_json::from_str(text) else {
        // Not an object: the knobs' parser says what is wrong with it.
        return Ok((None, text.to_string()));
    };
    match map.remove("model") {
        None => Ok((None, text.to_string())),
        Some(serde_json::Value::Null) => Ok((None, serde_json::Value::Object(map).to_string())),
        Some(serde_json::Value::String(name)) => {
            Ok((Some(name), serde_json::Value::Object(map).to_string()))
        }
        Some(other) => Err(other.to_string()),
    }
}

fn not_a_model(name: &str) -> Said {
    Said::LaneModel {
        name: name.chars().take(80).collect(),
        trouble: super::lane_models::LaneModelTrouble::NotAModel,
    }
}

/// What a lane shows next to its knobs when something is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneError {
    /// The field at fault as the lane names it (an HF knob or a llama.cpp
    /// one), when one is (its box is marked).
    pub field: Option<String>,
    pub message: Said,
}

impl From<ConfigError> for LaneError {
    fn from(e: ConfigError) -> Self {
        LaneError {
            field: e.field().map(String::from),
            message: Said::Config(e),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Editor {
    pub prompt: String,
    pub lanes: [LaneKnobs; LANES],
    pub errors: [Option<LaneError>; LANES],
    /// Lanes whose knob editor is unfolded (a lane with an error opens).
    pub open: [bool; LANES],
    /// All sampling lanes use the same uniforms each step (differences come from the knobs).
    pub shared_randomness: bool,
    pub shared_seed: u64,
    pub score_text: String,
    /// What `guidance_scale` lanes steer away from (empty: the prompt's last token).
    pub negative_prompt: String,
    /// A branch's exact token ids; editing the prompt drops them.
    pub branch_ids: Option<Vec<u32>>,
    /// Where each lane's unset knobs come from: the model's
    /// generation_config.json, as HF's `generate()` does, or the library alone.
    pub starts_from: [Defaults; LANES],
    /// How many lanes run and show, from the first: a lesson step or a link
    /// may have fewer than four. The others keep their configs for *Add a
    /// lane*.
    pub count: usize,
    /// Each lane's own model (`None`: the page's), named as `?model=` names
    /// one.
    pub models: [Option<String>; LANES],
    outlooks: Outlooks,
}

impl Default for Editor {
    fn default() -> Self {
        let first = lessons::OpenLesson::built_in(0).expect("a built-in lesson ships");
        let step = &first.lesson.steps[0];
        Editor {
            prompt: step.prompt.clone(),
            lanes: lessons::step_lanes(step),
            errors: Default::default(),
            open: [false; LANES],
            shared_randomness: false,
            shared_seed: 0,
            score_text: String::new(),
            negative_prompt: String::new(),
            branch_ids: None,
            starts_from: [Defaults::Model; LANES],
            count: LANES,
            models: Default::default(),
            outlooks: Outlooks::default(),
        }
    }
}

impl Editor {
    pub fn set_prompt(&mut self, prompt: String) {
        self.prompt = prompt;
        self.branch_ids = None;
    }

    /// A lesson step's prompt and lanes (lanes it does not set keep the
    /// first lesson's).
    pub fn apply_step(&mut self, step: &LessonStep) {
        self.branch_ids = None;
        self.prompt = step.prompt.clone();
        self.lanes = lessons::step_lanes(step);
        self.count = step.lanes.len().clamp(1, LANES);
        self.errors = Default::default();
        self.models = Default::default();
        for (lane, name) in step.lane_models.iter().take(LANES).enumerate() {
            self.models[lane] = name.clone();
        }
        // A step that compares seeds would show identical lanes with one
        // seed for all.
        if self.seeds_differ() {
            self.shared_randomness = false;
        }
    }

    /// Some lane uses classifier-free guidance (so a negative prompt matters).
    pub fn guided(&self) -> bool {
        self.active().iter().any(|l| {
            l.hf()
                .is_some_and(|c| c.guidance_scale.is_some_and(|g| g != 1.0))
        })
    }

    /// Sampling lanes that set different seeds of their own: shared
    /// randomness would set them aside.
    pub fn seeds_differ(&self) -> bool {
        let mut seeds = self.active().iter().filter_map(LaneKnobs::seed);
        let first = seeds.next();
        seeds.any(|s| Some(s) != first)
    }

    /// A knob typed into: refused values are reported next to the knob and
    /// change nothing; accepted ones are then validated as a whole.
    pub fn set_knob(&mut self, lane: usize, knob: Knob, text: &str) {
        let l = &mut self.lanes[lane];
        let result = l.set_text(knob, text).and_then(|_| l.validate().map(drop));
        self.errors[lane] = result.err().map(Into::into);
        self.open[lane] |= self.errors[lane].is_some();
    }

    /// A field typed into, named as the lane's ecosystem names it.
    pub fn set_field(&mut self, lane: usize, name: &str, text: &str) {
        match self.lanes[lane].semantics() {
            Semantics::Transformers => match name.parse::<Knob>() {
                Ok(knob) => self.set_knob(lane, knob, text),
                Err(_) => self.unknown_field(lane, name),
            },
            Semantics::LlamaCpp => match name.parse::<LlamaCppKnob>() {
                Ok(knob) => self.set_llama_knob(lane, knob, text),
                Err(_) => self.unknown_field(lane, name),
            },
            Semantics::Tutorial => {
                let t = text.trim();
                let l = &mut self.lanes[lane];
                let value = match t.is_empty() {
                    true => Ok(None),
                    false => serde_json::from_str(t).map(Some).map_err(|_| {
                        ntl_decoding::ConfigError::Tutorial {
                            field: name.to_string(),
                            message: format!("`{t}` is not a value"),
                        }
                    }),
                };
                let result = value
                    .and_then(|v| l.set_tutorial(name, v))
                    .and_then(|_| l.validate().map(drop));
                self.errors[lane] = result.err().map(Into::into);
                self.open[lane] |= self.errors[lane].is_some();
            }
        }
    }

    fn unknown_field(&mut self, lane: usize, name: &str) {
        self.errors[lane] = Some(LaneError {
            field: None,
            message: Said::NoKnob(name.to_string()),
        });
    }

    /// A llama.cpp lane's knob typed into.
    pub fn set_llama_knob(&mut self, lane: usize, knob: LlamaCppKnob, text: &str) {
        let l = &mut self.lanes[lane];
        let result = l
            .set_llama_cpp_text(knob, text)
            .and_then(|_| l.validate().map(drop));
        self.errors[lane] = result.err().map(Into::into);
        self.open[lane] |= self.errors[lane].is_some();
    }

    /// A lane's knobs replaced whole (a kept seed).
    pub fn replace_lane(&mut self, lane: usize, knobs: LaneKnobs) {
        if lane < LANES {
            self.lanes[lane] = knobs;
            self.check(lane);
        }
    }

    /// A lane switched to the other ecosystem's knobs.
    pub fn set_semantics(&mut self, lane: usize, semantics: Semantics) {
        self.lanes[lane].set_semantics(semantics);
        self.check(lane);
    }

    pub fn set_mode(&mut self, lane: usize, mode: Mode) {
        self.lanes[lane].set_mode(mode);
        self.check(lane);
    }

    /// A lane's `generation_config.json` pasted or edited as text; its
    /// `"model"`, if any, is the lane's own model (as `decode --config`).
    pub fn set_json(&mut self, lane: usize, text: &str) {
        let (model, knobs) = match split_model(text) {
            Ok(split) => split,
            Err(found) => {
                self.errors[lane] = Some(LaneError {
                    field: Some("model".into()),
                    message: not_a_model(&found),
                });
                self.open[lane] = true;
                return;
            }
        };
        match LaneKnobs::from_json(&knobs) {
            Ok(c) => {
                self.lanes[lane] = c;
                self.check(lane);
                self.set_model(lane, model.as_deref().unwrap_or(""));
            }
            Err(e) => {
                self.errors[lane] = Some(e.into());
                self.open[lane] = true;
            }
        }
    }

    /// A lane's own model typed or picked (empty: the page's model). A name
    /// that can name no model is refused next to the lane.
    pub fn set_model(&mut self, lane: usize, text: &str) {
        let Some(slot) = self.models.get_mut(lane) else {
            return;
        };
        let name = text.trim();
        if name.is_empty() {
            *slot = None;
            if self.errors[lane]
                .as_ref()
                .is_some_and(|e| e.field.as_deref() == Some("model"))
            {
                self.errors[lane] = None;
                self.check(lane);
            }
            return;
        }
        if super::lane_models::source_of(name).is_none() {
            self.errors[lane] = Some(LaneError {
                field: Some("model".into()),
                message: not_a_model(name),
            });
            self.open[lane] = true;
            return;
        }
        *slot = Some(name.to_string());
        if self.errors[lane]
            .as_ref()
            .is_some_and(|e| e.field.as_deref() == Some("model"))
        {
            self.errors[lane] = None;
            self.check(lane);
        }
    }

    /// The lane as its JSON box shows it: its knobs, and its model first.
    pub fn lane_json(&self, lane: usize) -> String {
        let knobs = self.lanes[lane].to_json();
        match &self.models[lane] {
            None => knobs,
            Some(name) => match serde_json::from_str(&knobs) {
                Ok(serde_json::Value::Object(map)) => {
                    let mut with = serde_json::Map::new();
                    with.insert("model".into(), serde_json::Value::String(name.clone()));
                    with.extend(map);
                    serde_json::to_string_pretty(&serde_json::Value::Object(with)).unwrap_or(knobs)
                }
                _ => knobs,
            },
        }
    }

    /// Validates one lane and shows the result next to it; a model name
    /// refused stays refused until another is given (the lane would run on
    /// the model it had).
    fn check(&mut self, lane: usize) {
        let bad_model = self.errors[lane]
            .as_ref()
            .is_some_and(|e| e.field.as_deref() == Some("model") && e.message.is_not_a_model());
        if bad_model {
            self.open[lane] = true;
            return;
        }
        self.errors[lane] = self.lanes[lane].validate().err().map(Into::into);
        self.open[lane] |= self.errors[lane].is_some();
    }

    /// A sampling lane with exactly `knobs` (the sandbox's: each set or, if
    /// empty, back to HF's default); the lane's other knobs stay.
    pub fn use_knobs(&mut self, lane: usize, knobs: &[(Knob, String)]) {
        let Some(l) = self.lanes.get_mut(lane) else {
            return;
        };
        l.set_mode(Mode::Sample);
        let mut refused = None;
        for (knob, text) in knobs {
            if let Err(e) = l.set_text(*knob, text) {
                refused.get_or_insert(e);
            }
        }
        match refused {
            Some(e) => {
                self.errors[lane] = Some(e.into());
                self.open[lane] = true;
            }
            None => self.check(lane),
        }
    }

    /// Unfolds or folds a lane's knob editor.
    pub fn toggle_editor(&mut self, lane: usize) {
        if let Some(open) = self.open.get_mut(lane) {
            *open = !*open;
        }
    }

    /// New randomness, visibly: every sampling lane's seed moves on, and so
    /// does the shared one.
    pub fn reroll(&mut self) {
        self.shared_seed += 1;
        for lane in 0..LANES {
            let Some(seed) = self.lanes[lane].seed() else {
                continue;
            };
            let next = (seed + 1).to_string();
            match self.lanes[lane].semantics() {
                Semantics::Transformers => self.set_knob(lane, Knob::Seed, &next),
                Semantics::LlamaCpp => self.set_llama_knob(lane, LlamaCppKnob::Seed, &next),
                Semantics::Tutorial => self.set_field(lane, "seed", &next),
            }
        }
    }

    /// The lanes as the worker takes them, each with the model's knobs
    /// under its own where it starts from them; `None` (and each fault shown
    /// next to its lane) when any lane is invalid.
    pub fn lane_requests(&mut self, model: Option<&ModelDefaults>) -> Option<Vec<LaneRequest>> {
        self.lane_requests_on([model; LANES])
    }

    /// As [`Editor::lane_requests`], each lane over its own model's knobs
    /// (lanes on a model of their own).
    pub fn lane_requests_on(
        &mut self,
        models: [Option<&ModelDefaults>; LANES],
    ) -> Option<Vec<LaneRequest>> {
        // Lanes past the count do not run, so cannot stop a run.
        for e in &mut self.errors[self.count..] {
            *e = None;
        }
        for lane in 0..self.count {
            self.check(lane);
        }
        let mut configs = Vec::with_capacity(self.count);
        for (lane, model) in models.into_iter().enumerate().take(self.count) {
            if self.errors[lane].is_some() {
                continue;
            }
            match runs_as(&self.lanes[lane], model, self.starts_from[lane]) {
                Ok(config) => configs.push(config),
                Err(e) => {
                    self.errors[lane] = Some(LaneError::from(e));
                    self.open[lane] = true;
                }
            }
        }
        if self.errors.iter().any(Option::is_some) {
            return None;
        }
        let lanes = configs.into_iter().map(|config| LaneRequest {
            config,
            forced_ids: None,
        });
        Some(lanes.collect())
    }

    /// The lanes that run and show.
    pub fn active(&self) -> &[LaneKnobs] {
        &self.lanes[..self.count]
    }

    /// One more lane, a copy of the last one (so a teacher changes one knob
    /// and compares); at most four.
    pub fn add_lane(&mut self) {
        if self.count < LANES {
            self.lanes[self.count] = self.lanes[self.count - 1].clone();
            self.starts_from[self.count] = self.starts_from[self.count - 1];
            self.models[self.count] = self.models[self.count - 1].clone();
            self.errors[self.count] = None;
            self.open[self.count] = false;
            self.count += 1;
        }
    }

    /// The last lane goes (its config stays for *Add a lane*); one stays.
    pub fn remove_lane(&mut self) {
        if self.count > 1 {
            self.count -= 1;
            self.errors[self.count] = None;
        }
    }

    pub fn set_starts_from(&mut self, lane: usize, from: Defaults) {
        if let Some(slot) = self.starts_from.get_mut(lane) {
            *slot = from;
        }
    }

    /// What lane `lane` will run as, next to it (kept while nothing it
    /// derives from changes).
    pub fn outlook(&self, lane: usize, model: Option<&ModelDefaults>) -> RcEq<LaneOutlook> {
        // A lane past the last reads as the last, its knobs and choice alike.
        let lane = lane.min(LANES - 1);
        self.outlooks
            .get(lane, &self.lanes[lane], self.starts_from[lane], model)
    }

    /// A lane the worker refused (a knob valid here but not for this model).
    pub fn lane_failed(&mut self, lane: usize, field: Option<String>, message: Said) {
        if lane < LANES {
            self.errors[lane] = Some(LaneError { field, message });
            self.open[lane] = true;
        }
    }

    /// The shared seed when shared randomness is on.
    pub fn shared_seed(&self) -> Option<u64> {
        self.shared_randomness.then_some(self.shared_seed)
    }

    /// The page as a share link holds it.
    pub fn shared(&self, model: Option<String>, scoring: bool) -> Shared {
        Shared {
            prompt: self.prompt.clone(),
            lanes: self.active().to_vec(),
            shared_seed: self.shared_seed(),
            model,
            weights: Default::default(),
            score: (scoring && !self.score_text.is_empty()).then(|| self.score_text.clone()),
            step: None,
            negative_prompt: Some(self.negative_prompt.clone())
                .filter(|n| !n.is_empty() && self.guided()),
            library_defaults: (0..self.count)
                .filter(|&l| self.starts_from[l] == Defaults::Library)
                .collect(),
            chat: None,
            lane_models: match self.models[..self.count].iter().any(Option::is_some) {
                true => self.models[..self.count].to_vec(),
                false => vec![],
            },
        }
    }

    /// Restores a share link's page; lanes it does not hold keep the first
    /// preset's. Returns whether the link scores a text.
    pub fn apply_shared(&mut self, s: Shared) -> bool {
        self.prompt = s.prompt;
        // A link names one to four lanes (an empty list: the default four).
        self.count = match s.lanes.len() {
            0 => LANES,
            n => n.min(LANES),
        };
        let first = lessons::OpenLesson::built_in(0).expect("a built-in lesson ships");
        let defaults = lessons::step_lanes(&first.lesson.steps[0]);
        for (lane, default) in defaults.into_iter().enumerate() {
            self.lanes[lane] = match s.lanes.get(lane) {
                Some(knobs) => knobs.clone(),
                None => default,
            };
            self.check(lane);
        }
        self.models = Default::default();
        for (lane, name) in s.lane_models.into_iter().take(LANES).enumerate() {
            self.models[lane] = name;
        }
        self.shared_randomness = s.shared_seed.is_some();
        self.shared_seed = s.shared_seed.unwrap_or(0);
        self.score_text = s.score.unwrap_or_default();
        self.negative_prompt = s.negative_prompt.unwrap_or_default();
        // Indices past the lanes (a hand-made link) are passed over.
        self.starts_from = [Defaults::Model; LANES];
        for lane in s.library_defaults {
            self.set_starts_from(lane, Defaults::Library);
        }
        !self.score_text.is_empty()
    }

    /// The page continues from a branch: its text in the prompt box, its
    /// exact ids sent with the run.
    pub fn branch_to(&mut self, prompt: String, ids: Vec<u32>) {
        self.prompt = prompt;
        self.branch_ids = Some(ids);
    }

    /// A recorded run's prompt and lane configs, for replay.
    pub fn show_recorded(&mut self, prompt: &str, lanes: Vec<(LaneKnobs, Option<String>)>) {
        self.prompt = prompt.to_string();
        self.branch_ids = None;
        for (lane, (config, model)) in lanes.into_iter().take(LANES).enumerate() {
            self.lanes[lane] = config;
            self.errors[lane] = None;
            // A recording's model named as a path on another machine is not
            // one the page can load: the lane shows the page's.
            self.models[lane] = model.filter(|m| super::lane_models::source_of(m).is_some());
        }
    }
}

#[cfg(test)]
mod tests;
