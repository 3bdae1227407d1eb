//! What answering a lesson's question does to the page: a picked token, a
//! lane or an option is marked at once; typed text is read as a token by
//! the model's tokenizer when a model is loaded, by the step's table when
//! not. Answers are kept per open lesson and counted in its score.

use super::lesson_player::Recorded;
use super::outcome::{Command, Outcome};
use super::quiz::{Answer, Guess, QuestionAt, QuizInput};
use super::quiz_marking::{self as marking};
use super::Page;
use crate::lane_result::LaneResult;
use crate::rc_eq::RcEq;
use ntl_decoding::inspect::PromptToken;
use ntl_protocol::lesson::Question;
use ntl_protocol::{ToWorker, Unanswered};

impl Page {
    /// The lanes' results when they are the open step's run, as written:
    /// a live run of the unchanged step or its recording.
    pub fn step_results(&self) -> Option<&[Option<RcEq<LaneResult>>]> {
        let here = self.lessons.here();
        let live = self.run.lesson.as_ref().is_some_and(|l| l.step == here);
        (live || self.lessons.recorded == Recorded::Shown).then_some(&self.run.results[..])
    }

    fn question(&self, at: QuestionAt) -> Option<&Question> {
        (at.0 == self.lessons.step).then_some(())?;
        self.lessons.current().questions.get(at.1)
    }

    /// An answer to question `at` of the open step; a second answer to the
    /// same question is not taken (the first one counts).
    pub fn answer_question(&mut self, at: QuestionAt, input: QuizInput) -> Outcome {
        let Some(question) = self.question(at).cloned() else {
            return Outcome::unchanged();
        };
        if self.lessons.quiz.answer(at).is_some() {
            return Outcome::unchanged();
        }
        let guess = match input {
            QuizInput::Token { id, token } => Guess::Token {
                id,
                token,
                typed: None,
            },
            QuizInput::Lane(l) => Guess::Lane(l),
            QuizInput::Option(o) => Guess::Option(o),
            QuizInput::Skip => Guess::Skipped,
            QuizInput::Typed(typed) => return self.typed_guess(at, &question, typed),
        };
        self.mark(at, &question, guess);
        Outcome::redraw()
    }

    fn mark(&mut self, at: QuestionAt, question: &Question, guess: Guess) {
        // Which-lane and choice questions need no run to be marked.
        let right = marking::is_right(question, &guess, self.step_results().unwrap_or(&[]));
        self.lessons.quiz.record(at, Answer { guess, right });
    }

    fn typed_guess(&mut self, at: QuestionAt, question: &Question, typed: String) -> Outcome {
        let Question::NextToken { lane, step, .. } = question else {
            return Outcome::unchanged();
        };
        let typed = typed.trim_end().to_string();
        let (lane, step) = (lane - 1, *step);
        let Some(results) = self.step_results() else {
            return Outcome::unchanged();
        };
        let Some(record) = marking::step_of(results, lane, step) else {
            return Outcome::unchanged();
        };
        if typed.is_empty() {
            return Outcome::unchanged();
        }
        let result = results[lane].as_deref();
        let text = marking::as_continuation(
            &typed,
            marking::before_ends_in_space(&self.lessons.current().prompt, result, step),
        );
        // A candidate spelled exactly as typed needs no tokenizer.
        let exact = record
            .top
            .iter()
            .find(|c| c.token == text || c.token == typed)
            .map(|c| (c.id, c.token.clone()));
        if let Some((id, token)) = exact {
            let guess = Guess::Token {
                id,
                token,
                typed: Some(typed),
            };
            self.mark(at, question, guess);
            return Outcome::redraw();
        }
        if self.model.is_ready() && self.worker.ready {
            let request_id = self.lessons.quiz.ask_tokenizer(at, typed);
            return Outcome::redraw().and(Command::Send(ToWorker::Tokenize { request_id, text }));
        }
        let guess = match marking::match_in_table(&text, &record.top) {
            Some((id, token)) => Guess::Token {
                id,
                token,
                typed: Some(typed),
            },
            None => Guess::Unmatched { typed },
        };
        self.mark(at, question, guess);
        Outcome::redraw()
    }

    /// The tokenizer's reading of a typed guess: its first token is the
    /// guess. When the tokenizer cannot answer, the step's table reads it.
    pub fn quiz_tokenized(
        &mut self,
        request_id: u64,
        tokens: Result<Vec<PromptToken>, Unanswered>,
    ) -> Outcome {
        let Some(pending) = self.lessons.quiz.take_pending(request_id) else {
            return Outcome::unchanged();
        };
        let Some(question) = self.question(pending.at).cloned() else {
            return Outcome::redraw();
        };
        let typed = pending.typed;
        let guess = match tokens.ok().and_then(|t| t.into_iter().next()) {
            Some(t) => Guess::Token {
                id: t.id,
                token: t.token,
                typed: Some(typed),
            },
            None => Guess::Unmatched { typed },
        };
        self.mark(pending.at, &question, guess);
        Outcome::redraw()
    }

    /// Every answer of the open lesson forgotten; its questions ask again.
    pub fn reset_quiz(&mut self) -> Outcome {
        self.lessons.quiz.reset();
        Outcome::redraw()
    }

    /// Whether the open step still hides its run behind a question.
    pub fn veiled(&self) -> bool {
        let step = self.lessons.current();
        self.lessons
            .quiz
            .veils(self.lessons.step, step.questions.len())
    }
}
