//! What an answer to a lesson's question is worth, and what it reveals: the
//! step's candidates to pick from, typed text read as a token, whether the
//! guess is right, and where the guessed token ranked in every lane.

use super::quiz::Guess;
use crate::lane_result::LaneResult;
use crate::rc_eq::RcEq;
use ntl_decoding::record::{Candidate, Step};
use ntl_protocol::lesson::Question;

/// Candidates offered for a next-token question: the asked lane's table,
/// at most this many.
pub const CHOICES: usize = 10;

/// The record of generated token `step` (from 1) in lane `lane` (from 0).
pub fn step_of(results: &[Option<RcEq<LaneResult>>], lane: usize, step: usize) -> Option<&Step> {
    let r = results.get(lane)?.as_ref()?;
    r.steps.get(step.checked_sub(1)?).map(|s| &**s)
}

/// The asked lane's candidates, ordered by their text so that the order
/// gives nothing away (the table's order is the model's ranking).
pub fn choices(step: &Step) -> Vec<(u32, String)> {
    let mut c: Vec<(u32, String)> = step
        .top
        .iter()
        .take(CHOICES)
        .map(|c| (c.id, c.token.clone()))
        .collect();
    // The chosen token is always offered, even from beyond the table.
    if !c.iter().any(|(id, _)| *id == step.token_id) {
        c.pop();
        c.push((step.token_id, step.token.clone()));
    }
    c.sort_by(|a, b| a.1.trim_start().cmp(b.1.trim_start()).then(a.0.cmp(&b.0)));
    c
}

/// Typed text as the continuation it means: a word typed after a word is
/// read with its leading space (GPT-2's ` to`, not `to`), unless the text
/// before it already ends in white space or the typed text starts with
/// punctuation or a space of its own.
pub fn as_continuation(typed: &str, before_ends_in_space: bool) -> String {
    let starts_word = typed.chars().next().is_some_and(char::is_alphanumeric);
    if starts_word && !before_ends_in_space {
        format!(" {typed}")
    } else {
        typed.to_string()
    }
}

/// Whether the text before generated token `step` of a lane ends in white
/// space: the prompt, then the lane's earlier tokens.
pub fn before_ends_in_space(prompt: &str, result: Option<&LaneResult>, step: usize) -> bool {
    let earlier = result
        .map(|r| {
            r.steps
                .iter()
                .take(step.saturating_sub(1))
                .map(|s| s.token.as_str())
                .collect::<String>()
        })
        .unwrap_or_default();
    let before = format!("{prompt}{earlier}");
    before.is_empty() || before.ends_with(char::is_whitespace)
}

/// Typed text read against a table without a tokenizer (no model loaded):
/// a candidate that is the text, else the longest candidate the text
/// starts with — the token a tokenizer would most likely begin with.
pub fn match_in_table(text: &str, top: &[Candidate]) -> Option<(u32, String)> {
    top.iter()
        .filter(|c| !c.token.is_empty() && text.starts_with(c.token.as_str()))
        .max_by_key(|c| c.token.len())
        .map(|c| (c.id, c.token.clone()))
}

/// Whether `guess` answers `question` (asked of lanes whose results are
/// `results`).
pub fn is_right(question: &Question, guess: &Guess, results: &[Option<RcEq<LaneResult>>]) -> bool {
    match (question, guess) {
        (Question::NextToken { lane, step, .. }, Guess::Token { id, .. }) => {
            step_of(results, lane - 1, *step).is_some_and(|s| s.token_id == *id)
        }
        (Question::WhichLane { answer, .. }, Guess::Lane(l)) => answer == l,
        (Question::Choice { answer, .. }, Guess::Option(o)) => answer == o,
        _ => false,
    }
}

/// Where the guessed token stood in one lane's table at the asked step.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// Its rank after the lane's knobs (1 is the most likely) and its
    /// probabilities after and before them.
    Ranked {
        rank: usize,
        prob: f32,
        raw_prob: f32,
    },
    /// A knob removed it.
    Removed { by: &'static str, raw_prob: f32 },
    /// Below the lane's table of `shown` candidates.
    Outside { shown: usize },
    /// The lane stopped before that step, or has not run.
    NoStep,
}

/// One lane of a next-token reveal.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneReveal {
    /// From 0.
    pub lane: usize,
    /// The token the lane wrote there.
    pub chosen: Option<String>,
    pub place: Place,
}

/// Where token `id` stood at generated token `step` (from 1) in each of the
/// first `lanes` lanes.
pub fn reveal_token(
    id: Option<u32>,
    step: usize,
    lanes: usize,
    results: &[Option<RcEq<LaneResult>>],
) -> Vec<LaneReveal> {
    (0..lanes)
        .map(|lane| {
            let Some(s) = step_of(results, lane, step) else {
                return LaneReveal {
                    lane,
                    chosen: None,
                    place: Place::NoStep,
                };
            };
            let found = id.and_then(|id| s.top.iter().position(|c| c.id == id));
            let place = match found.map(|k| (k, &s.top[k])) {
                Some((_, c)) if c.removed_by.is_some() => Place::Removed {
                    by: c.removed_by.map(|st| st.name()).unwrap_or_default(),
                    raw_prob: c.raw_prob,
                },
                Some((k, c)) => Place::Ranked {
                    rank: k + 1,
                    prob: c.prob,
                    raw_prob: c.raw_prob,
                },
                None => Place::Outside { shown: s.top.len() },
            };
            LaneReveal {
                lane,
                chosen: Some(s.token.clone()),
                place,
            }
        })
        .collect()
}
