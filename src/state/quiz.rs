//! A lesson's questions as the class answers them: each answer, the score,
//! and a typed guess waiting for the tokenizer. Nothing leaves the page.
//! What an answer reveals is `quiz_marking`; the transitions are in
//! `quiz_steps`.

use std::collections::BTreeMap;

/// Tokenizer requests of the quiz count from here, so the worker's answer
/// is never taken for the token inspector's (whose ids count from 1).
const FIRST_REQUEST: u64 = 1 << 40;

/// A question of the open lesson: (step from 0, question from 0).
pub type QuestionAt = (usize, usize);

/// What the student answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Guess {
    /// A token: picked from the candidates, or typed text read as one.
    Token {
        id: u32,
        token: String,
        /// What was typed, when it was typed.
        typed: Option<String>,
    },
    /// Typed text that is none of the step's candidates (no model to ask the
    /// tokenizer, or the tokenizer's token is outside every table).
    Unmatched { typed: String },
    /// A lane, from 1.
    Lane(usize),
    /// One of the teacher's options, from 1.
    Option(usize),
    /// The answer was shown without a guess.
    Skipped,
}

/// What the student did with a question.
#[derive(Debug, Clone, PartialEq)]
pub enum QuizInput {
    Token {
        id: u32,
        token: String,
    },
    Typed(String),
    Lane(usize),
    Option(usize),
    /// Show the answer without guessing.
    Skip,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub guess: Guess,
    pub right: bool,
}

/// Typed text on its way through the tokenizer.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    pub request_id: u64,
    pub at: QuestionAt,
    pub typed: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    answers: BTreeMap<QuestionAt, Answer>,
    pub pending: Option<Pending>,
    next_request: u64,
}

impl Default for Quiz {
    fn default() -> Self {
        Quiz {
            answers: BTreeMap::new(),
            pending: None,
            next_request: FIRST_REQUEST,
        }
    }
}

/// The lesson's score so far.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    pub right: usize,
    pub answered: usize,
    /// Questions in the whole lesson.
    pub total: usize,
}

impl Quiz {
    pub fn answer(&self, at: QuestionAt) -> Option<&Answer> {
        self.answers.get(&at)
    }

    pub fn record(&mut self, at: QuestionAt, answer: Answer) {
        if self.pending.as_ref().is_some_and(|p| p.at == at) {
            self.pending = None;
        }
        self.answers.entry(at).or_insert(answer);
    }

    /// Whether step `step` (with `questions` questions) still hides its run.
    pub fn veils(&self, step: usize, questions: usize) -> bool {
        (0..questions).any(|q| !self.answers.contains_key(&(step, q)))
    }

    /// A tokenizer request for `typed`, asked at `at`; its id.
    pub fn ask_tokenizer(&mut self, at: QuestionAt, typed: String) -> u64 {
        self.next_request += 1;
        self.pending = Some(Pending {
            request_id: self.next_request,
            at,
            typed,
        });
        self.next_request
    }

    /// Whether the worker's tokenizer answer `request_id` is the quiz's.
    pub fn owns(request_id: u64) -> bool {
        request_id > FIRST_REQUEST
    }

    /// The pending guess for `request_id`, taken; `None` for a stale one.
    pub fn take_pending(&mut self, request_id: u64) -> Option<Pending> {
        if self.pending.as_ref()?.request_id == request_id {
            self.pending.take()
        } else {
            None
        }
    }

    /// Clears every answer: the lesson's questions veil their steps again.
    pub fn reset(&mut self) {
        self.answers.clear();
        self.pending = None;
    }

    pub fn score(&self, total: usize) -> Score {
        let answered = self.answers.len();
        let right = self.answers.values().filter(|a| a.right).count();
        Score {
            right,
            answered,
            total,
        }
    }
}
