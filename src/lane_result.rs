//! What one lane produced in a run, as the page shows it: built step by step
//! from the worker's stream, or at once from a recorded document (replay).
//! Steps are shared (`Rc`): a lane's result is copied on write while the
//! views hold the previous one, and a copy costs a pointer per step.

use ntl_decoding::record::Run;
use ntl_decoding::vocab::{display_bytes, display_text_bytes, streamable_text};
use ntl_decoding::warnings::Warning;
use ntl_decoding::{Mode, Sequence, Stage, Step, StopReason};
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq)]
pub struct LaneResult {
    pub run_id: u64,
    /// Known once the worker says how the lane runs.
    pub mode: Option<Mode>,
    pub steps: Vec<Rc<Step>>,
    /// The text each step added, for clickable token spans (empty for beam lanes,
    /// whose best hypothesis can change under earlier tokens).
    pub pieces: Vec<Rc<str>>,
    pub text: String,
    pub rewritten: bool,
    pub stop: Option<StopReason>,
    pub started_ms: f64,
    pub last_ms: f64,
    pub sequences: Vec<Sequence>,
}

/// A scored text under one lane's configuration (teacher forcing).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    pub tokens: usize,
    /// Sum of ln p over the text's tokens (−∞ when one was impossible).
    pub log_prob: f64,
    /// Tokens this configuration made impossible (p = 0 after its knobs).
    pub impossible: usize,
}

impl Score {
    pub fn perplexity(&self) -> f64 {
        (-self.log_prob / self.tokens.max(1) as f64).exp()
    }
}

impl LaneResult {
    pub fn new(run_id: u64, mode: Option<Mode>, now: f64) -> Self {
        LaneResult {
            run_id,
            mode,
            steps: vec![],
            pieces: vec![],
            text: String::new(),
            rewritten: false,
            stop: None,
            started_ms: now,
            last_ms: now,
            sequences: vec![],
        }
    }

    /// Adds a streamed step; `text` is the lane's whole text so far. A step
    /// that arrives twice or out of order is ignored.
    pub fn push(&mut self, index: usize, step: Rc<Step>, text: String, now: f64) {
        if index != self.steps.len() {
            return;
        }
        let piece = text.strip_prefix(self.text.as_str()).map(str::to_string);
        self.rewritten |= piece.is_none() || step.beams.is_some();
        self.pieces.push(Rc::from(piece.unwrap_or_default()));
        self.steps.push(step);
        self.text = text;
        self.last_ms = now;
    }

    /// The finished run's final word on mode, stop reason, sequences and
    /// text; `shown` is the worker's text for it (see [`shown_text`]).
    pub fn finish(&mut self, run: &Run, shown: Option<&str>) {
        self.mode = Some(run.mode);
        self.stop = Some(run.stop_reason);
        self.sequences = run.sequences.clone();
        if self.rewritten {
            self.text = shown.map_or_else(|| shown_text(run), str::to_string);
        }
    }

    /// A recorded run, for replay: its steps stream again as the worker
    /// streamed them (a split character's first pieces add no text and show
    /// their bytes). Beam lanes, and runs whose steps do not add up to the
    /// text, show the text whole with step chips.
    pub fn from_run(run_id: u64, run: &Run) -> Self {
        let mut r = LaneResult::new(run_id, Some(run.mode), 0.0);
        let mut bytes = vec![];
        for (i, s) in run.steps.iter().enumerate() {
            bytes.extend(display_text_bytes(&s.token));
            r.push(i, Rc::new(s.clone()), streamable_text(&bytes), 0.0);
        }
        r.rewritten |= String::from_utf8_lossy(&bytes) != run.text;
        r.finish(run, None);
        r
    }

    /// Run-based notes ("`top_p` removed nothing in this run"), from the steps.
    pub fn run_warnings(&self) -> Vec<Warning<Stage>> {
        ntl_decoding::warnings::run_warnings(self.mode.unwrap_or(Mode::Greedy), &self.steps)
    }

    pub fn tokens_per_s(&self) -> Option<f64> {
        let dt = self.last_ms - self.started_ms;
        (dt > 0.0 && !self.steps.is_empty()).then(|| self.steps.len() as f64 * 1000.0 / dt)
    }

    /// When the lane followed a given text, how likely its configuration found it.
    pub fn score(&self) -> Option<Score> {
        if self.steps.is_empty() || !self.steps.iter().all(|s| s.forced) {
            return None;
        }
        Some(Score {
            tokens: self.steps.len(),
            log_prob: self.steps.iter().map(|s| (s.chosen_prob as f64).ln()).sum(),
            impossible: self.steps.iter().filter(|s| s.chosen_prob == 0.0).count(),
        })
    }
}

/// A run's best text as the page shows it, never with U+FFFD: the record
/// keeps HF's decoded text, which ends in U+FFFD when the run stopped in the
/// middle of a character. Rebuilt from the steps' tokens where they are the
/// text (every lane but beams); a beam lane's lost bytes show as `⟨?⟩`.
pub fn shown_text(run: &Run) -> String {
    if !run.text.contains('\u{FFFD}') {
        return run.text.clone();
    }
    let bytes: Vec<u8> = run
        .steps
        .iter()
        .flat_map(|s| display_text_bytes(&s.token))
        .collect();
    if String::from_utf8_lossy(&bytes) == run.text {
        display_bytes(&bytes)
    } else {
        run.text.replace('\u{FFFD}', "⟨?⟩")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ntl_decoding::GenerationConfig;

    fn step(token: &str, p: f32, forced: bool) -> Step {
        Step {
            token_id: 1,
            token: token.into(),
            kept: 1,
            entropy: 0.0,
            raw_entropy: 0.0,
            rank: 1,
            chosen_raw_prob: p,
            chosen_prob: p,
            nucleus: [1, 1, 1],
            funnel: vec![],
            top: vec![],
            draw: None,
            forced,
            beams: None,
            contrastive: None,
            dola: None,
            lens: None,
        }
    }

    fn run(text: &str, steps: Vec<Step>) -> Run {
        Run {
            config: GenerationConfig::default().into(),
            mode: Mode::Greedy,
            token_ids: vec![1; steps.len()],
            text: text.into(),
            stop_reason: StopReason::ForcedEnd,
            sequences: vec![],
            steps,
            model: None,
        }
    }

    #[test]
    fn streamed_steps_become_pieces_and_repeats_are_ignored() {
        let mut r = LaneResult::new(1, None, 0.0);
        r.push(0, Rc::new(step(" a", 0.5, false)), " a".into(), 10.0);
        r.push(0, Rc::new(step(" a", 0.5, false)), " a".into(), 11.0);
        r.push(1, Rc::new(step(" b", 0.5, false)), " a b".into(), 20.0);
        assert_eq!(
            r.pieces.iter().map(|p| &**p).collect::<Vec<_>>(),
            [" a", " b"]
        );
        assert!(!r.rewritten);
        assert_eq!(r.tokens_per_s(), Some(100.0));
    }

    #[test]
    fn a_replayed_run_keeps_its_token_spans_when_they_add_up_to_the_text() {
        let r = LaneResult::from_run(
            3,
            &run(" a b", vec![step(" a", 0.5, false), step(" b", 0.5, false)]),
        );
        assert!(!r.rewritten);
        assert_eq!(r.stop, Some(StopReason::ForcedEnd));
        let split = LaneResult::from_run(
            3,
            &run(
                "é",
                vec![step("<0xC3>", 0.5, false), step("<0xA9>", 0.5, false)],
            ),
        );
        assert!(!split.rewritten, "a split character streams as it did live");
        assert_eq!(
            split.pieces.iter().map(|p| &**p).collect::<Vec<_>>(),
            ["", "é"]
        );
    }

    #[test]
    fn a_text_that_ends_mid_character_shows_its_dangling_bytes_not_a_replacement_character() {
        // HF decodes " 我" cut after two of its three bytes as " \u{FFFD}".
        let cut = run(" \u{FFFD}", vec![step(" <0xE6><0x88>", 0.5, false)]);
        assert_eq!(shown_text(&cut), " <0xE6><0x88>");
        let mut beams = cut.clone();
        beams.steps.clear();
        assert_eq!(shown_text(&beams), " ⟨?⟩");
        let whole = run(
            " 我",
            vec![
                step(" <0xE6><0x88>", 0.5, false),
                step("<0x91>", 0.5, false),
            ],
        );
        assert_eq!(shown_text(&whole), " 我");
    }

    #[test]
    fn a_scored_text_reports_log_probability_perplexity_and_impossible_tokens() {
        let r = LaneResult::from_run(
            1,
            &run(" a b", vec![step(" a", 0.5, true), step(" b", 0.25, true)]),
        );
        let s = r.score().unwrap();
        assert!((s.log_prob - (0.5f64.ln() + 0.25f64.ln())).abs() < 1e-9);
        assert!((s.perplexity() - (8.0f64).sqrt()).abs() < 1e-9);
        assert_eq!(s.impossible, 0);
        let r = LaneResult::from_run(
            1,
            &run(" a b", vec![step(" a", 0.5, true), step(" b", 0.0, true)]),
        );
        assert_eq!(r.score().unwrap().impossible, 1);
        assert_eq!(
            LaneResult::from_run(1, &run(" a", vec![step(" a", 0.5, false)])).score(),
            None
        );
    }
}
