//! What the user is setting up: the prompt, the four lanes' knobs and their
//! errors, the shared seed, a text to score, a branch's exact ids.

use super::lane_outlook::{runs_as, LaneOutlook, Outlooks};
use crate::lane_config::{KnobText, LaneKnobs};
use crate::lanes::LANES;
use crate::lessons;
use crate::rc_eq::RcEq;
use ntl_decoding::llama_cpp::LlamaCppKnob;
use ntl_decoding::{ConfigError, Defaults, Knob, LaneRequest, Mode, ModelDefaults, Semantics};
use ntl_protocol::lesson::LessonStep;
use ntl_protocol::share::Shared;

/// What a lane shows next to its knobs when something is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneError {
    /// The field at fault as the lane names it (an HF knob or a llama.cpp
    /// one), when one is (its box is marked).
    pub field: Option<String>,
    pub message: String,
}

impl From<ConfigError> for LaneError {
    fn from(e: ConfigError) -> Self {
        LaneError {
            field: e.field().map(String::from),
            message: e.to_string(),
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
        }
    }

    fn unknown_field(&mut self, lane: usize, name: &str) {
        self.errors[lane] = Some(LaneError {
            field: None,
            message: format!("this lane has no knob named `{name}`"),
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

    /// A lane switched to the other ecosystem's knobs.
    pub fn set_semantics(&mut self, lane: usize, semantics: Semantics) {
        self.lanes[lane].set_semantics(semantics);
        self.check(lane);
    }

    pub fn set_mode(&mut self, lane: usize, mode: Mode) {
        self.lanes[lane].set_mode(mode);
        self.check(lane);
    }

    /// A lane's `generation_config.json` pasted or edited as text.
    pub fn set_json(&mut self, lane: usize, text: &str) {
        match LaneKnobs::from_json(text) {
            Ok(c) => {
                self.lanes[lane] = c;
                self.check(lane);
            }
            Err(e) => {
                self.errors[lane] = Some(e.into());
                self.open[lane] = true;
            }
        }
    }

    /// Validates one lane and shows the result next to it.
    fn check(&mut self, lane: usize) {
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
            }
        }
    }

    /// The lanes as the worker takes them, each with the model's knobs
    /// under its own where it starts from them; `None` (and each fault shown
    /// next to its lane) when any lane is invalid.
    pub fn lane_requests(&mut self, model: Option<&ModelDefaults>) -> Option<Vec<LaneRequest>> {
        // Lanes past the count do not run, so cannot stop a run.
        for e in &mut self.errors[self.count..] {
            *e = None;
        }
        for lane in 0..self.count {
            self.check(lane);
        }
        let mut configs = Vec::with_capacity(self.count);
        for lane in 0..self.count {
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
    pub fn lane_failed(&mut self, lane: usize, field: Option<String>, message: String) {
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
            score: (scoring && !self.score_text.is_empty()).then(|| self.score_text.clone()),
            step: None,
            negative_prompt: Some(self.negative_prompt.clone())
                .filter(|n| !n.is_empty() && self.guided()),
            library_defaults: (0..self.count)
                .filter(|&l| self.starts_from[l] == Defaults::Library)
                .collect(),
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
    pub fn show_recorded(&mut self, prompt: &str, lanes: Vec<LaneKnobs>) {
        self.prompt = prompt.to_string();
        self.branch_ids = None;
        for (lane, config) in lanes.into_iter().take(LANES).enumerate() {
            self.lanes[lane] = config;
            self.errors[lane] = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_refused_knob_is_reported_next_to_it_and_blocks_the_run() {
        let mut e = Editor::default();
        e.set_knob(1, Knob::Temperature, "0");
        let err = e.errors[1].clone().expect("temperature 0 while sampling");
        assert!(e.open[1], "the editor unfolds to show the knob at fault");
        assert_eq!(err.field.as_deref(), Some("temperature"));
        assert!(err.message.contains("strictly positive"), "{}", err.message);
        assert_eq!(e.lane_requests(None), None);
        e.set_knob(1, Knob::Temperature, "0.5");
        assert_eq!(e.errors[1], None);
        let lanes = e.lane_requests(None).expect("all valid");
        assert_eq!(lanes[1].config.transformers().unwrap().temperature, 0.5);
    }

    /// Qwen2.5-0.5B-Instruct's generation_config.json.
    fn qwen_instruct() -> ModelDefaults {
        ModelDefaults::from_json(
            br#"{"bos_token_id": 151643, "do_sample": true, "eos_token_id": [151645, 151643],
            "repetition_penalty": 1.1, "temperature": 0.7, "top_p": 0.8, "top_k": 20,
            "transformers_version": "4.37.0"}"#,
        )
        .unwrap()
    }

    #[test]
    fn every_preset_runs_over_an_instruct_models_generation_config_and_its_beams_sample() {
        let model = qwen_instruct();
        let steps: Vec<(String, LessonStep)> = lessons::built_in(|all| {
            all.iter()
                .flat_map(|b| {
                    b.lesson
                        .steps
                        .iter()
                        .map(|s| (b.lesson.title.clone(), s.clone()))
                })
                .collect()
        });
        for (title, step) in steps {
            let mut e = Editor::default();
            e.apply_step(&step);
            let lanes = e.lane_requests(Some(&model));
            assert!(
                lanes.is_some(),
                "{title}: {:?}",
                e.errors.iter().flatten().collect::<Vec<_>>()
            );
        }
        let mut e = Editor::default();
        e.apply_step(&lessons::built_in_step("Beam search vs greedy", 0));
        let modes: Vec<Mode> = (0..LANES)
            .map(|l| {
                e.outlook(l, Some(&model))
                    .starts_from
                    .clone()
                    .expect("the file sets knobs")
                    .mode
            })
            .collect();
        assert_eq!(
            modes,
            [
                Mode::Sample,
                Mode::BeamSample,
                Mode::BeamSample,
                Mode::BeamSample
            ],
            "HF's generate() samples every lane here, the beams included"
        );
    }

    #[test]
    fn warnings_read_the_knobs_as_the_lane_runs_them_over_the_models_file() {
        let model = qwen_instruct();
        let mut e = Editor::default();
        e.set_json(0, r#"{"temperature": 0.5}"#);
        let fields = |e: &Editor| -> Vec<&'static str> {
            e.outlook(0, Some(&model))
                .warnings
                .iter()
                .map(|(f, _)| *f)
                .collect()
        };
        // The file's do_sample makes the lane sample: its temperature acts.
        assert!(!fields(&e).contains(&"temperature"), "{:?}", fields(&e));
        // From the library's defaults alone it decodes greedily, and says so.
        e.set_starts_from(0, Defaults::Library);
        assert!(fields(&e).contains(&"temperature"));
        // Greedy over the file: the file's warpers do nothing, and the
        // warning says where they came from.
        e.set_starts_from(0, Defaults::Model);
        e.set_json(0, r#"{"do_sample": false}"#);
        let outlook = e.outlook(0, Some(&model));
        let (_, top_p) = outlook
            .warnings
            .iter()
            .find(|(f, _)| *f == "top_p")
            .expect("top_p from the file does nothing while greedy");
        assert!(top_p.contains("generation_config.json"), "{top_p}");
    }

    #[test]
    fn an_outlook_is_kept_until_the_lane_its_choice_or_the_model_changes() {
        let model = qwen_instruct();
        let mut e = Editor::default();
        let first = e.outlook(1, Some(&model));
        assert!(
            first == e.outlook(1, Some(&model)),
            "same pointer while nothing changed"
        );
        e.set_knob(1, Knob::Temperature, "0.3");
        let after_knob = e.outlook(1, Some(&model));
        assert!(first != after_knob);
        e.set_starts_from(1, Defaults::Library);
        assert!(after_knob != e.outlook(1, Some(&model)));
        let plain = e.outlook(1, None);
        assert_eq!(
            plain.starts_from, None,
            "no model file, nothing to start from"
        );
    }

    #[test]
    fn a_lane_that_sets_nothing_runs_with_the_models_generation_config_as_generate_does() {
        let model = qwen_instruct();
        let mut e = Editor::default();
        e.set_json(0, "{}");
        let starts = e
            .outlook(0, Some(&model))
            .starts_from
            .clone()
            .expect("the file sets knobs");
        assert_eq!(starts.choice, Defaults::Model);
        assert_eq!(starts.mode, Mode::Sample);
        assert_eq!(starts.other_mode, Some(Mode::Greedy));
        assert!(
            starts.taken.contains(&"temperature 0.7".to_string()),
            "{:?}",
            starts.taken
        );
        let lanes = e.lane_requests(Some(&model)).expect("valid");
        let c = lanes[0].config.transformers().unwrap();
        assert!(c.do_sample);
        assert_eq!((c.temperature, c.top_k, c.top_p), (0.7, Some(20), 0.8));
        assert_eq!(c.repetition_penalty, 1.1);
        // The end-of-turn token stops it, as the file says.
        assert_eq!(
            lanes[0].config.to_value()["eos_token_id"],
            json!([151645, 151643])
        );

        // The library's defaults alone: greedy, as without the file.
        e.set_starts_from(0, Defaults::Library);
        let lanes = e.lane_requests(Some(&model)).expect("valid");
        assert!(!lanes[0].config.transformers().unwrap().do_sample);
        let starts = e.outlook(0, Some(&model)).starts_from.clone().unwrap();
        assert_eq!(
            (starts.mode, starts.other_mode),
            (Mode::Greedy, Some(Mode::Sample))
        );
    }

    #[test]
    fn the_lanes_own_knobs_win_and_a_file_with_only_eos_is_not_mentioned() {
        let model = qwen_instruct();
        let mut e = Editor::default();
        e.set_json(0, r#"{"do_sample": false, "temperature": 1.3}"#);
        let starts = e.outlook(0, Some(&model)).starts_from.clone().unwrap();
        assert_eq!(starts.mode, Mode::Greedy);
        assert!(!starts
            .taken
            .iter()
            .any(|k| k.starts_with("temperature") || k.starts_with("do_sample")));
        let lanes = e.lane_requests(Some(&model)).expect("valid");
        let c = lanes[0].config.transformers().unwrap();
        assert_eq!(
            (c.do_sample, c.temperature, c.top_k),
            (false, 1.3, Some(20))
        );
        let gpt2 =
            ModelDefaults::from_json(br#"{"bos_token_id": 50256, "eos_token_id": 50256}"#).unwrap();
        assert_eq!(e.outlook(0, Some(&gpt2)).starts_from.clone(), None);
        assert_eq!(e.outlook(0, None).starts_from.clone(), None);
    }

    #[test]
    fn a_share_link_keeps_which_lanes_start_from_the_librarys_defaults() {
        let mut e = Editor::default();
        e.set_starts_from(2, Defaults::Library);
        let link = e.shared(Some("Qwen/Qwen2.5-0.5B-Instruct".into()), false);
        assert_eq!(link.library_defaults, [2]);
        let mut other = Editor::default();
        other.set_starts_from(0, Defaults::Library);
        other.apply_shared(
            ntl_protocol::share::decode(&ntl_protocol::share::encode(&link)).unwrap(),
        );
        assert_eq!(other.starts_from, e.starts_from);
        let hostile = Shared {
            library_defaults: vec![1, 99],
            ..link
        };
        other.apply_shared(hostile);
        assert_eq!(
            other.starts_from,
            [
                Defaults::Model,
                Defaults::Library,
                Defaults::Model,
                Defaults::Model
            ]
        );
    }

    #[test]
    fn a_lane_valid_alone_but_not_over_the_models_knobs_is_refused_next_to_it() {
        let model = qwen_instruct();
        let mut e = Editor::default();
        e.set_json(2, r#"{"temperature": 0}"#);
        assert_eq!(e.errors[2], None, "greedy alone: temperature is unused");
        assert_eq!(e.lane_requests(Some(&model)), None);
        let err = e.errors[2].clone().expect("sampling with temperature 0");
        assert_eq!(err.field.as_deref(), Some("temperature"));
        assert!(e.open[2]);
        e.set_starts_from(2, Defaults::Library);
        assert!(e.lane_requests(Some(&model)).is_some());
    }

    #[test]
    fn reroll_moves_every_sampling_seed_and_the_shared_one_on() {
        let mut e = Editor::default();
        let seeds = |e: &Editor| {
            e.lanes
                .iter()
                .map(|l| l.hf().unwrap().seed)
                .collect::<Vec<_>>()
        };
        assert_eq!(seeds(&e), [None, Some(0), Some(0), None]);
        e.reroll();
        assert_eq!(seeds(&e), [None, Some(1), Some(1), None]);
        assert_eq!(e.shared_seed, 1);
    }

    #[test]
    fn a_preset_comparing_seeds_turns_shared_randomness_off() {
        let mut e = Editor {
            shared_randomness: true,
            ..Default::default()
        };
        assert!(
            !e.seeds_differ(),
            "the first preset's sampling lanes share seed 0"
        );
        e.apply_step(&lessons::built_in_step("Seeds at low temperature", 0));
        assert!(e.seeds_differ());
        assert!(
            !e.shared_randomness,
            "three identical lanes would teach nothing"
        );
        e.shared_randomness = true;
        e.apply_step(&lessons::built_in_step("Four runs, one prompt", 0));
        assert!(
            e.shared_randomness,
            "a preset with one seed leaves it as it was"
        );
    }

    #[test]
    fn editing_the_prompt_drops_a_branchs_ids() {
        let mut e = Editor::default();
        e.branch_to("text".into(), vec![1, 2]);
        e.set_prompt("other".into());
        assert_eq!(e.branch_ids, None);
    }

    #[test]
    fn a_share_link_round_trips_and_a_link_with_fewer_lanes_shows_that_many() {
        let mut e = Editor::default();
        e.set_knob(0, Knob::MaxNewTokens, "7");
        e.shared_randomness = true;
        e.score_text = " to read".into();
        e.set_knob(1, Knob::GuidanceScale, "2");
        e.negative_prompt = "a dull answer".into();
        let link = e.shared(Some("bundled".into()), true);
        let mut other = Editor::default();
        other.apply_step(&lessons::built_in_step("Repetition: penalty and stop", 0));
        assert!(other.apply_shared(link));
        assert_eq!(other.lanes, e.lanes);
        assert_eq!(
            other.negative_prompt, "a dull answer",
            "guided lanes keep their negative prompt"
        );
        assert_eq!(
            (other.shared_seed(), other.score_text.as_str()),
            (Some(0), " to read")
        );

        let one_lane = Shared {
            lanes: vec![LaneKnobs::from_value(json!({"do_sample": true})).unwrap()],
            ..Default::default()
        };
        assert!(!other.apply_shared(one_lane));
        assert_eq!(other.lanes[0].mode(), Mode::Sample);
        assert_eq!(other.count, 1, "the link's one lane, not four");
        assert_eq!(other.lane_requests(None).map(|l| l.len()), Some(1));
        assert_eq!(other.shared(None, false).lanes.len(), 1, "and back");
        // The others keep the first preset's configs, for *Add a lane*.
        assert_eq!(other.lanes[3], Editor::default().lanes[3]);
        let no_lanes = Shared::default();
        let _ = other.apply_shared(no_lanes);
        assert_eq!(other.count, LANES, "an empty list: the default four");
    }

    #[test]
    fn a_lesson_step_runs_and_links_its_own_lanes_and_a_lane_can_be_added_and_removed() {
        let mut e = Editor::default();
        let two = lessons::built_in_step("Logits and the four knobs between them and words", 1);
        assert_eq!(two.lanes.len(), 2);
        e.apply_step(&two);
        assert_eq!(e.count, 2);
        assert_eq!(e.lane_requests(None).map(|l| l.len()), Some(2));
        assert_eq!(e.shared(None, false).lanes.len(), 2);
        // A fault in a lane that does not run cannot stop the run.
        e.set_knob(3, Knob::Temperature, "0");
        e.set_knob(3, Knob::DoSample, "true");
        assert!(e.errors[3].is_some(), "lane 4 is at fault");
        assert_eq!(e.lane_requests(None).map(|l| l.len()), Some(2));

        e.add_lane();
        assert_eq!(e.count, 3);
        assert_eq!(e.lanes[2], e.lanes[1], "a copy of the last lane");
        e.add_lane();
        e.add_lane();
        assert_eq!(e.count, LANES, "at most four");
        for _ in 0..5 {
            e.remove_lane();
        }
        assert_eq!(e.count, 1, "one stays");
        assert_eq!(e.lane_requests(None).map(|l| l.len()), Some(1));
    }

    #[test]
    fn a_pasted_config_that_is_not_json_is_reported_and_the_lane_kept() {
        let mut e = Editor::default();
        let before = e.lanes[2].clone();
        e.set_json(2, "{not json");
        assert!(e.errors[2]
            .as_ref()
            .unwrap()
            .message
            .contains("not valid JSON"));
        assert_eq!(e.lanes[2], before);
    }
}
