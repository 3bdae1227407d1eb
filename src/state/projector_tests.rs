//! Projector mode's keys: tokens, lesson steps, the reveal and the way back.

use super::projector::PresentKey;
use super::quiz_tests::{page_on_quiz, page_on_quiz_with_model};
use super::*;

fn presenting() -> Page {
    let mut page = page_on_quiz();
    let _ = page.toggle_present();
    assert!(page.present);
    page
}

#[test]
fn keys_mean_what_a_presenters_clicker_and_the_arrows_send() {
    use PresentKey::*;
    let keys = [
        ("ArrowRight", NextToken),
        ("ArrowLeft", PreviousToken),
        ("ArrowDown", NextStep),
        ("PageDown", NextStep),
        ("ArrowUp", PreviousStep),
        ("PageUp", PreviousStep),
        (" ", Reveal),
        ("Escape", Back),
    ];
    for (key, meaning) in keys {
        assert_eq!(PresentKey::from_key(key), Some(meaning), "{key:?}");
    }
    assert_eq!(PresentKey::from_key("a"), None);
    assert_eq!(
        PresentKey::from_key("Enter"),
        None,
        "Enter belongs to buttons"
    );
}

#[test]
fn outside_projector_mode_the_keys_do_nothing() {
    let mut page = page_on_quiz();
    let before = page.clone();
    for key in [
        PresentKey::Reveal,
        PresentKey::NextStep,
        PresentKey::NextToken,
    ] {
        assert_eq!(page.present_key(key), Outcome::default());
    }
    assert_eq!(page, before);
}

#[test]
fn space_reveals_one_question_at_a_time_and_then_the_tokens_open() {
    let mut page = presenting();
    assert!(page.veiled());
    // Tokens stay hidden while a question is open.
    assert!(!page.present_key(PresentKey::NextToken).redraw);
    assert_eq!(page.run.selected, None);

    assert!(page.present_key(PresentKey::Reveal).redraw);
    let first = page
        .lessons
        .quiz
        .answer((0, 0))
        .expect("the first is shown");
    assert_eq!(first.guess, quiz::Guess::Skipped);
    assert!(page.lessons.quiz.answer((0, 1)).is_none(), "one per press");
    assert!(page.veiled());
    assert!(page.present_key(PresentKey::Reveal).redraw);
    assert!(!page.veiled());
    assert!(!page.present_key(PresentKey::Reveal).redraw, "nothing left");

    // → opens the first step's table, → → moves it, ← back one, Esc closes.
    let _ = page.present_key(PresentKey::NextToken);
    assert_eq!(page.run.selected, Some((0, 0)));
    let _ = page.present_key(PresentKey::NextToken);
    let _ = page.present_key(PresentKey::NextToken);
    assert_eq!(page.run.selected, Some((0, 2)));
    let _ = page.present_key(PresentKey::PreviousToken);
    assert_eq!(page.run.selected, Some((0, 1)));
    assert!(page.present_key(PresentKey::Back).redraw);
    assert_eq!(page.run.selected, None);
    assert!(!page.present_key(PresentKey::Back).redraw);
    assert!(
        !page.present_key(PresentKey::PreviousToken).redraw,
        "← with no table open stays on the lanes"
    );
}

#[test]
fn the_last_token_stays_the_last() {
    let mut page = presenting();
    let _ = page.present_key(PresentKey::Reveal);
    let _ = page.present_key(PresentKey::Reveal);
    let longest = page.run.longest();
    assert!(longest > 1);
    for _ in 0..longest + 5 {
        let _ = page.present_key(PresentKey::NextToken);
    }
    assert_eq!(page.run.selected, Some((0, longest - 1)));
    assert!(!page.present_key(PresentKey::NextToken).redraw);
}

#[test]
fn page_down_and_up_move_through_the_lesson_and_close_the_table() {
    let mut page = presenting();
    let _ = page.present_key(PresentKey::Reveal);
    let _ = page.present_key(PresentKey::Reveal);
    let _ = page.present_key(PresentKey::NextToken);
    assert!(page.run.selected.is_some());

    assert!(page.present_key(PresentKey::NextStep).redraw);
    assert_eq!(page.lessons.step, 1);
    assert_eq!(page.editor.prompt.as_str(), "The cat");
    assert_eq!(page.run.selected, None, "a new step starts on its lanes");
    assert!(
        !page.present_key(PresentKey::NextStep).redraw,
        "the last step stays"
    );
    assert!(page.present_key(PresentKey::PreviousStep).redraw);
    assert_eq!(page.lessons.step, 0);
    assert!(!page.veiled(), "the answers given are kept");
    assert!(!page.present_key(PresentKey::PreviousStep).redraw);
}

#[test]
fn the_projector_button_toggles_the_mode_and_the_address_can_ask_for_it() {
    let (mut page, _) = Page::new(
        Requested {
            present: true,
            ..Requested::default()
        },
        crate::worker_choice::Abilities::default(),
    );
    assert!(page.present);
    let _ = page.toggle_present();
    assert!(!page.present);
}

#[test]
fn with_the_model_ready_a_step_opens_on_its_recording_in_projector_mode_only() {
    let mut page = page_on_quiz_with_model();
    let _ = page.lesson_step(1);
    let _ = page.lesson_step(0);
    assert_eq!(
        page.lessons.recorded,
        lesson_player::Recorded::NotShown,
        "the full page runs live"
    );
    let _ = page.toggle_present();
    let _ = page.present_key(PresentKey::NextStep);
    let _ = page.present_key(PresentKey::PreviousStep);
    assert_eq!(page.lessons.recorded, lesson_player::Recorded::Shown);
}

#[test]
fn turned_on_over_another_steps_run_the_mode_shows_this_steps_recording() {
    let mut page = page_on_quiz_with_model();
    let _ = page.lesson_step(1);
    let _ = page.lesson_step(0);
    assert_eq!(page.lessons.recorded, lesson_player::Recorded::NotShown);
    let _ = page.toggle_present();
    assert_eq!(page.lessons.recorded, lesson_player::Recorded::Shown);
    assert_eq!(
        page.run.replay.as_deref().map(|n| n.ends_with(" — 1/2")),
        Some(true)
    );
}
