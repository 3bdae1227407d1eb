//! The run on screen: each lane's result as it streams in (or as recorded),
//! the step the user selected, the finished document, what a branch needs.

use crate::lane_config::LaneKnobs;
use crate::lane_result::LaneResult;
use crate::lanes::LANES;
use crate::lesson_check::LessonRun;
use crate::page_error::PageError;
use crate::rc_eq::RcEq;
use crate::said::Said;
use crate::watermark_check::LaneCheck;
use ntl_decoding::divergence::{first_divergence, Divergence, LanePath};
use ntl_decoding::{Document, Mode, Step, StopReason};
use ntl_protocol::LaneStart;
use std::rc::Rc;

/// What a run does: generate, or follow a given text in every lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RunKind {
    Generate,
    Score,
}

/// Each lane's result as the views take it (unchanged lanes stay the same value).
pub type Results = [Option<RcEq<LaneResult>>; LANES];

/// Where the compare view's step moves (arrow keys, Home, End).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StepMove {
    Previous,
    Next,
    First,
    Last,
}

/// Every lane continues from these exact ids; the prompt box shows `prompt`.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    pub ids: Vec<u32>,
    pub prompt: String,
    pub token: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RunState {
    pub results: Results,
    /// The run streaming now.
    pub running: Option<u64>,
    /// The newest run's id (the page's `data-run`).
    pub latest: u64,
    pub prompt_cropped: usize,
    /// The step shown in every lane, and the lane it was opened from.
    pub selected: Option<(usize, usize)>,
    /// The lane whose raw probabilities order the compare view's rows.
    pub sort_by: usize,
    /// The prompt and its token ids behind the results on screen (for branching).
    pub ran_prompt: String,
    pub prompt_ids: Vec<u32>,
    pub kind: RunKind,
    /// The finished (or replayed) run, for export.
    pub document: Option<RcEq<Document>>,
    /// Viewing a recorded run loaded from this file.
    pub replay: Option<String>,
    /// How each lane of the running run decodes (from the worker's start).
    modes: [Option<Mode>; LANES],
    /// The longest lane's step budget in the running run (0: not known).
    pub planned: usize,
    /// The run on screen ran a lesson preset unchanged (its printed outputs
    /// can be compared).
    pub lesson: Option<LessonRun>,
    /// The watermark detector over the finished run's lanes.
    pub watermark: [Option<LaneCheck>; LANES],
    /// The prompt and lanes the run on screen ran (or was recorded) with,
    /// as the editor held them, so a lesson step can take it as its run.
    pub ran_with: Option<(String, Vec<LaneKnobs>)>,
    /// The seeds drawn for this run's lanes that asked for a new one (no
    /// seed, or llama.cpp's -1), shown on the lanes and kept in links.
    pub drawn: [Option<u32>; LANES],
    /// When the running run last heard from the worker (ms; `None`: not
    /// since it started).
    pub last_word: Option<f64>,
    /// The request behind the run on screen (none for a recording), to run
    /// again with the logit lens.
    pub request: Option<ntl_protocol::RunRequest>,
    /// The running run repeats the one on screen (for the lens): its steps
    /// replace the old ones where they are, the open step stays open.
    again: bool,
    /// The page's lane of each lane the worker ran, when some lane did not
    /// go (its own model would not load); empty: every lane, in order.
    pub lane_of: Vec<usize>,
    /// Every model the running run's lanes name has the page model's
    /// vocabulary (a model beside a copy of itself, distilgpt2 beside gpt2),
    /// so their tables line up by id: set as the run starts.
    pub one_vocabulary: bool,
}

impl Default for RunState {
    fn default() -> Self {
        RunState {
            results: Default::default(),
            running: None,
            latest: 0,
            prompt_cropped: 0,
            selected: None,
            sort_by: 0,
            ran_prompt: String::new(),
            prompt_ids: vec![],
            kind: RunKind::Generate,
            document: None,
            replay: None,
            modes: [None; LANES],
            planned: 0,
            lesson: None,
            watermark: Default::default(),
            ran_with: None,
            drawn: [None; LANES],
            last_word: None,
            request: None,
            again: false,
            lane_of: vec![],
            one_vocabulary: false,
        }
    }
}

impl RunState {
    /// A new run of `prompt`; its id. Results on screen stay until each
    /// lane's first step replaces them.
    pub fn begin(&mut self, kind: RunKind, prompt: &str) -> u64 {
        self.latest += 1;
        self.running = Some(self.latest);
        self.replay = None;
        self.kind = kind;
        self.ran_prompt = prompt.to_string();
        self.modes = [None; LANES];
        self.planned = 0;
        self.lesson = None;
        self.watermark = Default::default();
        self.drawn = [None; LANES];
        self.last_word = None;
        self.again = false;
        self.lane_of = vec![];
        self.latest
    }

    /// The run on screen again, with `request`: what it ran with, its drawn
    /// seeds, its lesson step and the open step stay.
    pub fn begin_again(&mut self, request: ntl_protocol::RunRequest) -> u64 {
        let kept = (self.drawn, self.ran_with.clone(), self.lesson.clone());
        let lane_of = self.lane_of.clone();
        let prompt = self.ran_prompt.clone();
        let run_id = self.begin(self.kind, &prompt);
        (self.drawn, self.ran_with, self.lesson) = kept;
        self.lane_of = lane_of;
        self.request = Some(request);
        self.again = true;
        run_id
    }

    fn is_current(&self, run_id: u64) -> bool {
        self.running == Some(run_id)
    }

    /// The page's lane of the worker's lane `i` (`LANES`, which no lane
    /// is, for a lane the worker should not have).
    pub fn page_lane(&self, i: usize) -> usize {
        match self.lane_of.is_empty() {
            true => i,
            false => self.lane_of.get(i).copied().unwrap_or(LANES),
        }
    }

    /// The worker's lane of the page's lane `lane` (`None`: it did not run).
    pub fn worker_lane(&self, lane: usize) -> Option<usize> {
        match self.lane_of.is_empty() {
            true => Some(lane),
            false => self.lane_of.iter().position(|&l| l == lane),
        }
    }

    /// The run document's run of the page's lane `lane`.
    pub fn doc_run(&self, lane: usize) -> Option<&ntl_decoding::record::Run> {
        self.document.as_ref()?.runs.get(self.worker_lane(lane)?)
    }

    /// The worker started the run, in a context of `n_positions` tokens when
    /// the model is known. Returns whether anything changed.
    pub fn started(
        &mut self,
        run_id: u64,
        prompt_ids: Vec<u32>,
        cropped: usize,
        lanes: &[LaneStart],
        n_positions: Option<usize>,
    ) -> bool {
        if !self.is_current(run_id) {
            return false;
        }
        // A scored text's length is not known here; nor is it the lanes' budget.
        let room = n_positions.map_or(usize::MAX, |n| n.saturating_sub(prompt_ids.len()));
        self.planned = match self.kind {
            RunKind::Score => 0,
            RunKind::Generate => lanes
                .iter()
                .filter_map(|l| l.config.validate().ok())
                .map(|v| v.new_token_budget(prompt_ids.len()).min(room))
                .max()
                .unwrap_or(0),
        };
        self.prompt_ids = prompt_ids;
        self.prompt_cropped = cropped;
        for (i, lane) in lanes.iter().enumerate() {
            let at = self.page_lane(i);
            if let Some(mode) = self.modes.get_mut(at) {
                *mode = Some(lane.mode);
            }
        }
        // Fewer lanes than last time, or a lane that did not go: their old
        // results go.
        let ran: Vec<usize> = (0..lanes.len()).map(|i| self.page_lane(i)).collect();
        for (lane, r) in self.results.iter_mut().enumerate() {
            if !ran.contains(&lane) {
                *r = None;
            }
        }
        true
    }

    /// A streamed step; steps of any run but the current one change nothing.
    pub fn step(
        &mut self,
        run_id: u64,
        lane: usize,
        index: usize,
        step: Step,
        text: String,
        now: f64,
    ) -> bool {
        let lane = self.page_lane(lane);
        if lane >= LANES || !self.is_current(run_id) {
            return false;
        }
        let slot = &mut self.results[lane];
        if slot.as_ref().map(|r| r.run_id) != Some(run_id) {
            // The first step of a new run replaces this lane's old result.
            *slot = Some(RcEq::new(LaneResult::new(run_id, self.modes[lane], now)));
            if self.selected.map(|(l, _)| l) == Some(lane) && !self.again {
                self.selected = None;
            }
        }
        let result = slot.as_mut().expect("set above").make_mut();
        result.push(index, Rc::new(step), text, now);
        true
    }

    pub fn lane_done(&mut self, run_id: u64, lane: usize, reason: StopReason) -> bool {
        let lane = self.page_lane(lane);
        let Some(slot) = self.results.get_mut(lane).and_then(Option::as_mut) else {
            return false;
        };
        if slot.run_id != run_id {
            return false;
        }
        slot.make_mut().stop = Some(reason);
        true
    }

    pub fn finished(&mut self, run_id: u64, document: Document, shown: &[String]) -> bool {
        let mut changed = false;
        for (i, run) in document.runs.iter().enumerate() {
            let lane = self.page_lane(i);
            let slot = self.results.get_mut(lane).and_then(Option::as_mut);
            if let Some(r) = slot.filter(|r| r.run_id == run_id) {
                r.make_mut().finish(run, shown.get(i).map(String::as_str));
                changed = true;
            }
        }
        if self.is_current(run_id) {
            self.running = None;
            self.document = Some(RcEq::new(document));
            changed = true;
        }
        changed
    }

    /// Scores every lane of the finished run with the lanes' watermark, if any.
    pub fn check_watermarks(&mut self, vocab: usize) {
        let by_run = match &self.document {
            Some(doc) => crate::watermark_check::check(doc, vocab),
            None => Default::default(),
        };
        self.watermark = Default::default();
        for (i, check) in by_run.into_iter().enumerate() {
            let at = self.page_lane(i);
            if let Some(slot) = self.watermark.get_mut(at) {
                *slot = check;
            }
        }
    }

    /// The worker refused or failed the run (`0`: a message it could not read).
    pub fn failed(&mut self, run_id: u64) {
        if self.is_current(run_id) || run_id == 0 {
            self.running = None;
        }
    }

    /// The worker is gone: nothing streams any more.
    /// Ends the running run where it stands: every lane that had not
    /// finished is marked cancelled. Returns the run's id, to cancel it in
    /// the worker too.
    pub fn abandon(&mut self) -> Option<u64> {
        let run_id = self.running.take()?;
        for slot in self.results.iter_mut().flatten() {
            if slot.run_id == run_id && slot.stop.is_none() {
                slot.make_mut().stop = Some(StopReason::Cancelled);
            }
        }
        Some(run_id)
    }

    /// Shows a recorded run: texts, tables, plots, no model needed. Returns
    /// a notice when the file holds more runs than the page has lanes.
    pub fn replay(&mut self, name: String, doc: Document) -> Result<Option<Said>, PageError> {
        if doc.runs.is_empty() {
            return Err(PageError::EmptyRecording { name });
        }
        let notice = (doc.runs.len() > LANES).then(|| Said::FirstRunsShown {
            name: name.clone(),
            runs: doc.runs.len(),
        });
        self.lane_of = vec![];
        self.latest += 1;
        self.running = None;
        self.selected = None;
        // A recording's configs hold the seeds it ran with; none was drawn here.
        self.drawn = [None; LANES];
        self.ran_prompt = doc.prompt.clone();
        self.prompt_ids = doc.prompt_ids.clone();
        self.prompt_cropped = doc.prompt_cropped;
        self.results = Default::default();
        for (slot, run) in self.results.iter_mut().zip(&doc.runs) {
            *slot = Some(RcEq::new(LaneResult::from_run(self.latest, run)));
        }
        let all_forced = doc.runs.iter().all(|r| r.steps.iter().all(|s| s.forced));
        self.kind = if all_forced {
            RunKind::Score
        } else {
            RunKind::Generate
        };
        self.document = Some(RcEq::new(doc));
        self.replay = Some(name);
        self.request = None;
        self.lesson = None;
        Ok(notice)
    }

    /// Opens `step` in every lane (within the longest lane), from `lane`.
    pub fn select(&mut self, lane: usize, step: usize) {
        if lane < LANES {
            self.selected = Some((lane, step.min(self.longest().saturating_sub(1))));
        }
    }

    pub fn close_table(&mut self) {
        self.selected = None;
    }

    /// Steps in the longest lane.
    pub fn longest(&self) -> usize {
        self.results
            .iter()
            .flatten()
            .map(|r| r.steps.len())
            .max()
            .unwrap_or(0)
    }

    /// Moves the compare view's step in every lane, within the longest lane.
    pub fn move_step(&mut self, to: StepMove) {
        let Some((lane, step)) = self.selected else {
            return;
        };
        let last = self.longest().saturating_sub(1);
        let step = match to {
            StepMove::Previous => step.saturating_sub(1),
            StepMove::Next => (step + 1).min(last),
            StepMove::First => 0,
            StepMove::Last => last,
        };
        self.selected = Some((lane, step));
    }

    pub fn sort_by(&mut self, lane: usize) {
        if lane < LANES {
            self.sort_by = lane;
        }
    }

    /// How the compare view lines lanes up: by text when the run on screen
    /// has lanes on models of their own (whose vocabularies may differ).
    pub fn align(&self) -> crate::compare::Align {
        let live = self
            .request
            .as_ref()
            .is_some_and(|r| r.lane_models.iter().any(Option::is_some));
        let recorded = self
            .document
            .as_ref()
            .is_some_and(|d| d.runs.iter().any(|r| r.model.is_some()));
        if !(live || recorded) {
            return crate::compare::Align::ById;
        }
        // Once a run is done (or recorded), every lane read the prompt as
        // the same ids too, or the vocabularies differ after all.
        let ids_agree = || {
            self.document.as_ref().is_none_or(|d| {
                d.runs.iter().all(|r| {
                    r.model
                        .as_ref()
                        .is_none_or(|m| m.prompt_ids == d.prompt_ids)
                })
            })
        };
        let one = match (self.replay.is_some(), self.running.is_some()) {
            (true, _) => ids_agree(),
            (false, true) => self.one_vocabulary,
            (false, false) => self.one_vocabulary && ids_agree(),
        };
        match one {
            true => crate::compare::Align::ById,
            false => crate::compare::Align::ByText,
        }
    }

    /// Where the lanes first part ways; only once every lane is done, so the
    /// answer does not move under the reader. Not across models: their
    /// steps are other tokens of other vocabularies, so the step where
    /// they part is not one step (the compare view lines them up by text).
    pub fn divergence(&self) -> Option<Divergence> {
        if self.running.is_some() || self.align() == crate::compare::Align::ByText {
            return None;
        }
        let paths: Vec<LanePath<Rc<Step>>> = self
            .results
            .iter()
            .enumerate()
            .filter_map(|(lane, r)| {
                let r = r.as_ref()?;
                Some(LanePath {
                    lane,
                    mode: r.mode.unwrap_or(Mode::Greedy),
                    steps: &r.steps,
                })
            })
            .collect();
        first_divergence(&paths)
    }

    /// Where lanes on models of their own part ways, by text; only once
    /// every lane is done.
    pub fn text_divergence(&self) -> Option<crate::text_divergence::TextDivergence> {
        if self.running.is_some() || self.align() != crate::compare::Align::ByText {
            return None;
        }
        let results: [Option<&LaneResult>; LANES] =
            std::array::from_fn(|i| self.results[i].as_deref());
        crate::text_divergence::text_divergence(&results)
    }

    /// Continuing from `lane`'s tokens before `step` and `token_id`, where
    /// that lane is one path and the prompt's ids are known.
    pub fn branch(&self, lane: usize, step: usize, token_id: u32) -> Option<Branch> {
        let r = self.results.get(lane)?.as_ref()?;
        if r.rewritten || step >= r.steps.len() || self.prompt_ids.is_empty() {
            return None;
        }
        // The candidate may come from another lane's table (the compare view
        // shows the union of the lanes' tables).
        let token = self
            .results
            .iter()
            .flatten()
            .filter_map(|r| r.steps.get(step))
            .flat_map(|s| &s.top)
            .find(|c| c.id == token_id)
            .map(|c| c.token.clone())
            .unwrap_or_default();
        let mut ids = self.prompt_ids.clone();
        ids.extend(r.steps[..step].iter().map(|s| s.token_id));
        ids.push(token_id);
        let prompt = format!("{}{}{}", self.ran_prompt, r.pieces[..step].concat(), token);
        Some(Branch { ids, prompt, token })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ntl_decoding::record::{Candidate, Run};
    use ntl_decoding::GenerationConfig;

    pub(crate) fn step(id: u32, token: &str) -> Step {
        let cand = |id: u32, token: &str| Candidate {
            id,
            token: token.into(),
            logit: 0.0,
            raw_prob: 0.5,
            score: Some(0.0),
            prob: 0.5,
            removed_by: None,
        };
        Step {
            token_id: id,
            token: token.into(),
            kept: 2,
            entropy: 0.5,
            raw_entropy: 0.5,
            rank: 1,
            chosen_raw_prob: 0.5,
            chosen_prob: 0.5,
            nucleus: [1, 1, 1],
            funnel: vec![],
            top: vec![cand(id, token), cand(id + 100, " other")],
            draw: None,
            forced: false,
            beams: None,
            contrastive: None,
            dola: None,
            lens: None,
        }
    }

    pub(crate) fn one_step_run(id: u32, token: &str) -> Run {
        Run {
            config: GenerationConfig::default().into(),
            mode: Mode::Greedy,
            token_ids: vec![id],
            text: token.into(),
            stop_reason: StopReason::MaxNewTokens,
            sequences: vec![],
            steps: vec![step(id, token)],
            model: None,
        }
    }

    /// A recording of one run of one step (what a replay shows).
    pub(crate) fn one_step_doc(id: u32, token: &str) -> ntl_decoding::Document {
        ntl_decoding::Document {
            prompt_ids: vec![1],
            prompt: "Hi".into(),
            prompt_cropped: 0,
            runs: vec![one_step_run(id, token)],
        }
    }

    /// A run that the worker has started.
    fn streaming() -> (RunState, u64) {
        let mut s = RunState::default();
        let run = s.begin(RunKind::Generate, "Hi");
        started(&mut s, run);
        (s, run)
    }

    fn started(s: &mut RunState, run: u64) {
        let lanes = vec![
            LaneStart {
                mode: Mode::Greedy,
                config: GenerationConfig::default().into()
            };
            LANES
        ];
        assert!(s.started(run, vec![10, 11], 0, &lanes, Some(256)));
    }

    #[test]
    fn streamed_steps_build_each_lane_and_a_view_keeps_the_value_it_holds() {
        let (mut s, run) = streaming();
        assert!(s.step(run, 0, 0, step(1, " a"), " a".into(), 0.0));
        let seen_by_view = s.results[0].clone();
        let untouched_lane = s.results[1].clone();
        assert!(s.step(run, 0, 1, step(2, " b"), " a b".into(), 1.0));
        assert_ne!(s.results[0], seen_by_view, "a changed lane is a new value");
        assert_eq!(seen_by_view.unwrap().steps.len(), 1);
        assert_eq!(s.results[1], untouched_lane);
        let r = s.results[0].as_ref().unwrap();
        assert_eq!((r.steps.len(), r.mode), (2, Some(Mode::Greedy)));
        assert_eq!(s.planned, 20, "HF's default budget");
    }

    #[test]
    fn messages_of_a_superseded_run_change_nothing() {
        let mut s = RunState::default();
        let old = s.begin(RunKind::Generate, "Hi");
        assert!(s.step(old, 0, 0, step(1, " a"), " a".into(), 0.0));
        let new = s.begin(RunKind::Generate, "Hi");
        let before = s.clone();
        assert!(!s.step(old, 0, 1, step(2, " b"), " a b".into(), 1.0));
        assert!(!s.started(old, vec![1], 0, &[], None));
        assert!(!s.lane_done(old + 5, 0, StopReason::Eos));
        assert_eq!(s, before);
        // The new run's first step replaces the old result.
        assert!(s.step(new, 0, 0, step(3, " c"), " c".into(), 2.0));
        assert_eq!(s.results[0].as_ref().unwrap().run_id, new);
    }

    #[test]
    fn a_finished_run_keeps_its_document_and_the_lanes_part_ways_only_then() {
        let (mut s, run) = streaming();
        s.step(run, 0, 0, step(1, " a"), " a".into(), 0.0);
        s.step(run, 1, 0, step(2, " b"), " b".into(), 0.0);
        assert_eq!(s.divergence(), None, "not while running");
        let doc = Document {
            prompt_ids: vec![10, 11],
            prompt: "Hi".into(),
            prompt_cropped: 0,
            runs: vec![one_step_run(1, " a"), one_step_run(2, " b")],
        };
        assert!(s.finished(run, doc, &[]));
        assert_eq!(s.running, None);
        assert!(s.document.is_some());
        assert_eq!(
            s.results[0].as_ref().unwrap().stop,
            Some(StopReason::MaxNewTokens)
        );
        assert_eq!(s.divergence().map(|d| d.step), Some(0));
    }

    #[test]
    fn a_branch_continues_from_the_prompt_the_lanes_tokens_and_the_candidate() {
        let (mut s, run) = streaming();
        s.step(run, 2, 0, step(1, " a"), " a".into(), 0.0);
        s.step(run, 2, 1, step(2, " b"), " a b".into(), 0.0);
        let b = s.branch(2, 1, 102).expect("a branch");
        assert_eq!(b.ids, vec![10, 11, 1, 102]);
        assert_eq!(b.prompt, "Hi a other");
        assert_eq!(s.branch(3, 0, 1), None, "no such lane result");
        assert_eq!(s.branch(2, 9, 1), None, "no such step");
    }

    #[test]
    fn a_selected_step_is_forgotten_when_a_new_run_replaces_its_lane() {
        let mut s = RunState::default();
        let run = s.begin(RunKind::Generate, "Hi");
        s.step(run, 1, 0, step(1, " a"), " a".into(), 0.0);
        s.select(1, 0);
        let next = s.begin(RunKind::Generate, "Hi");
        s.step(next, 1, 0, step(5, " e"), " e".into(), 0.0);
        assert_eq!(s.selected, None);
    }

    #[test]
    fn the_compare_step_moves_in_every_lane_within_the_longest_lane() {
        let (mut s, run) = streaming();
        for i in 0..3 {
            s.step(run, 0, i, step(1, " a"), " a".repeat(i + 1), 0.0);
        }
        s.step(run, 2, 0, step(1, " a"), " a".into(), 0.0);
        s.select(2, 0);
        s.move_step(StepMove::Next);
        assert_eq!(
            s.selected,
            Some((2, 1)),
            "past lane 3's end: lane 1 still has it"
        );
        s.move_step(StepMove::Last);
        s.move_step(StepMove::Next);
        assert_eq!(s.selected, Some((2, 2)));
        s.move_step(StepMove::First);
        s.move_step(StepMove::Previous);
        assert_eq!(s.selected, Some((2, 0)));
    }

    #[test]
    fn an_empty_recording_is_refused_and_a_big_one_shows_its_first_lanes() {
        let mut s = RunState::default();
        let empty = Document {
            prompt_ids: vec![],
            prompt: String::new(),
            prompt_cropped: 0,
            runs: vec![],
        };
        assert!(s.replay("e.json".into(), empty).is_err());
        let doc = Document {
            prompt_ids: vec![1],
            prompt: "Hi".into(),
            prompt_cropped: 0,
            runs: vec![one_step_run(1, " a"); 6],
        };
        let notice = s.replay("big.json".into(), doc).unwrap();
        assert!(notice.unwrap().to_string().contains("holds 6 runs"));
        assert!(s.results.iter().all(Option::is_some));
        assert_eq!(s.replay.as_deref(), Some("big.json"));
    }
}
