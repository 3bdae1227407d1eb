//! A lesson's questions: the veil, marking, typed guesses through the
//! tokenizer or the step's table, the score and its reset.

use super::lesson_player::Recorded;
use super::quiz::Guess;
use super::quiz_marking::{self as marking, Place};
use super::*;
use crate::lessons::{LessonFrom, OpenLesson};
use ntl_decoding::inspect::PromptToken;
use ntl_protocol::lesson;
use ntl_protocol::FromWorker;

/// The four-runs lesson's recording: lane 1 (greedy) writes ` in` first,
/// with ` the` second in its table; lane 3 writes ` all`.
const RECORDING: &str = include_str!("../../www/lessons/recordings/four-runs-1.json");

/// Two steps: the first with a next-token and a which-lane question over
/// the four-runs recording, the second with none.
pub(super) fn quiz_lesson() -> OpenLesson {
    let text = format!(
        r#"{{"version": 1, "title": "Quiz", "language": "en", "model": "bundled", "steps": [
        {{"prose": "Guess", "prompt": "The best way to learn programming is",
          "lanes": [{{"max_new_tokens": 40}},
                    {{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "max_new_tokens": 40, "seed": 0}},
                    {{"do_sample": true, "temperature": 1.5, "max_new_tokens": 40, "seed": 0}},
                    {{"no_repeat_ngram_size": 3, "max_new_tokens": 40}}],
          "recording": {RECORDING},
          "questions": [
            {{"kind": "next_token", "lane": 1, "explanation": "Greedy takes the top token."}},
            {{"kind": "which_lane", "ask": "Which lane is hottest?", "answer": 3}}
          ]}},
        {{"prose": "No questions", "prompt": "The cat", "lanes": [{{}}]}}
    ]}}"#
    );
    OpenLesson {
        lesson: RcEq::new(lesson::parse(text.as_bytes()).expect("the quiz lesson parses")),
        from: LessonFrom::File("quiz.json".into()),
    }
}

/// The quiz lesson's first step open, its recording on screen, no model.
pub(super) fn page_on_quiz() -> Page {
    let (mut page, _) = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    );
    let _ = page.open_lesson(quiz_lesson(), 0);
    assert_eq!(
        page.lessons.recorded,
        Recorded::Shown,
        "no model: the recording shows"
    );
    page
}

/// The quiz page once the bundled model has loaded.
pub(super) fn page_on_quiz_with_model() -> Page {
    let mut page = page_on_quiz();
    page.worker.ready = true;
    page.worker.alive = true;
    let _ = page.on_worker(super::tests::info(), 0.0);
    assert!(page.model.is_ready());
    page
}

#[test]
fn a_step_with_questions_hides_its_run_until_every_one_is_answered() {
    let mut page = page_on_quiz();
    assert!(page.veiled());
    let _ = page.answer_question((0, 1), QuizInput::Lane(3));
    assert!(page.veiled(), "one question is still open");
    let _ = page.answer_question((0, 0), QuizInput::Skip);
    assert!(!page.veiled());
    // A step without questions never hides anything.
    let _ = page.lesson_step(1);
    assert!(!page.veiled());
}

#[test]
fn a_picked_token_is_right_when_the_lane_wrote_it_and_the_score_counts_it() {
    let mut page = page_on_quiz();
    let record = marking::step_of(page.step_results().unwrap(), 0, 1).unwrap();
    let offered = marking::choices(record);
    assert_eq!(offered.len(), marking::CHOICES);
    assert!(offered.iter().any(|(_, t)| t == " in"));
    let _ = page.answer_question(
        (0, 0),
        QuizInput::Token {
            id: 262,
            token: " the".into(),
        },
    );
    let a = page.lessons.quiz.answer((0, 0)).unwrap();
    assert!(!a.right, "greedy wrote ` in`, not ` the`");
    // A second answer to the same question does not count.
    let _ = page.answer_question(
        (0, 0),
        QuizInput::Token {
            id: 287,
            token: " in".into(),
        },
    );
    assert!(!page.lessons.quiz.answer((0, 0)).unwrap().right);
    let _ = page.answer_question((0, 1), QuizInput::Lane(3));
    let score = page.lessons.quiz.score(2);
    assert_eq!((score.right, score.answered, score.total), (1, 2, 2));

    // Where ` the` stood: second in the greedy lane's table.
    let rows = marking::reveal_token(Some(262), 1, 4, page.step_results().unwrap());
    assert_eq!(rows[0].chosen.as_deref(), Some(" in"));
    assert!(
        matches!(rows[0].place, Place::Ranked { rank: 2, prob, .. } if (prob - 0.054).abs() < 1e-3)
    );
    assert_eq!(rows[2].chosen.as_deref(), Some(" all"));

    let _ = page.reset_quiz();
    assert!(page.veiled());
    assert_eq!(page.lessons.quiz.score(2).answered, 0);
}

#[test]
fn typed_text_without_a_model_is_read_by_the_steps_table_with_its_leading_space() {
    let mut page = page_on_quiz();
    // "in" after "…is" means the word ` in`.
    let out = page.answer_question((0, 0), QuizInput::Typed("in".into()));
    assert!(out.commands.is_empty(), "no model: no tokenizer asked");
    let a = page.lessons.quiz.answer((0, 0)).unwrap();
    assert!(a.right);
    assert!(matches!(&a.guess, Guess::Token { id: 287, typed: Some(t), .. } if t == "in"));

    // A word that starts with a candidate is read as that candidate.
    let mut page = page_on_quiz();
    let _ = page.answer_question((0, 0), QuizInput::Typed("therefore".into()));
    assert!(matches!(
        &page.lessons.quiz.answer((0, 0)).unwrap().guess,
        Guess::Token { id: 262, .. }
    ));

    // Nothing like any candidate.
    let mut page = page_on_quiz();
    let _ = page.answer_question((0, 0), QuizInput::Typed("zzz".into()));
    let a = page.lessons.quiz.answer((0, 0)).unwrap();
    assert_eq!(
        a.guess,
        Guess::Unmatched {
            typed: "zzz".into()
        }
    );
    assert!(!a.right);
}

#[test]
fn typed_text_with_a_model_goes_through_its_tokenizer_and_a_stale_answer_is_ignored() {
    let mut page = page_on_quiz_with_model();
    // The model loading does not take the recording off screen.
    assert!(page.step_results().is_some());
    let out = page.answer_question((0, 0), QuizInput::Typed("learning".into()));
    let Some(Command::Send(ToWorker::Tokenize { request_id, text })) = out.commands.first() else {
        panic!("the tokenizer is asked: {:?}", out.commands);
    };
    assert_eq!(text, " learning");
    assert!(quiz::Quiz::owns(*request_id));
    assert!(page.veiled(), "waiting for the tokenizer");
    // The inspector's answers are not the quiz's.
    let _ = page.on_worker(
        FromWorker::Tokenized {
            request_id: 1,
            tokens: Ok(vec![]),
        },
        0.0,
    );
    assert!(page.lessons.quiz.answer((0, 0)).is_none());
    let token = |id: u32, token: &str| PromptToken {
        id,
        token: token.into(),
        bytes: token.as_bytes().to_vec(),
    };
    let _ = page.on_worker(
        FromWorker::Tokenized {
            request_id: *request_id,
            tokens: Ok(vec![token(4673, " learning")]),
        },
        0.0,
    );
    let a = page.lessons.quiz.answer((0, 0)).unwrap();
    assert!(matches!(&a.guess, Guess::Token { id: 4673, .. }));
    assert!(!a.right);
    let rows = marking::reveal_token(Some(4673), 1, 4, page.step_results().unwrap());
    assert!(matches!(rows[0].place, Place::Outside { shown: 10 }));
}

#[test]
fn another_lesson_starts_with_no_answers_but_stepping_keeps_them() {
    let mut page = page_on_quiz();
    let _ = page.answer_question((0, 1), QuizInput::Lane(2));
    let _ = page.lesson_step(1);
    let _ = page.lesson_step(0);
    assert!(page.lessons.quiz.answer((0, 1)).is_some());
    let _ = page.open_built_in(0);
    let _ = page.open_lesson(quiz_lesson(), 0);
    assert!(page.lessons.quiz.answer((0, 1)).is_none());
}

#[test]
fn continuations_take_a_leading_space_only_after_a_word() {
    assert_eq!(marking::as_continuation("in", false), " in");
    assert_eq!(marking::as_continuation("in", true), "in");
    assert_eq!(marking::as_continuation(",", false), ",");
    assert_eq!(marking::as_continuation(" in", false), " in");
}
