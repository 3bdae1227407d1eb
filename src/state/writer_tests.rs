//! Writing a lesson on the page: steps saved from the editor and the run on
//! screen, refused when the step would not run as it did here, reordered,
//! previewed in the player, and written out as a file the page opens.

use super::lesson_writer::{LessonWriter, NextStep, QuestionKind, WriterAction, WriterTrouble};
use super::tests::{info, ready_page};
use super::*;
use crate::lessons::LessonFrom;
use ntl_decoding::Defaults;
use ntl_protocol::lesson::{self, Question, Recording};
use ntl_protocol::FromWorker;

/// The recorded run of built-in lesson 1's first step (the temperature sweep).
fn sweep_recording() -> Document {
    let text = std::fs::read("www/lessons/recordings/temperature-sweep-1.json").unwrap();
    serde_json::from_slice(&text).unwrap()
}

/// A page on the bundled model that ran the temperature sweep's first step.
fn page_after_a_run() -> Page {
    let mut page = ready_page(Requested {
        model: Some("bundled".into()),
        ..Requested::default()
    });
    let _ = page.on_worker(info(), 0.0);
    let _ = page.open_built_in(1);
    let out = page.start_run(RunKind::Generate);
    let Some(Command::Send(ToWorker::Run { run_id, .. })) = out.commands.first().cloned() else {
        panic!("{out:?}")
    };
    let finished = FromWorker::Finished {
        run_id,
        document: sweep_recording(),
        shown_texts: vec![],
        ms: 1.0,
        first_step_ms: None,
        memory_bytes: None,
    };
    let _ = page.on_worker(finished, 0.0);
    assert!(page.run.document.is_some());
    page
}

fn form(page: &mut Page, edit: impl FnOnce(&mut NextStep)) {
    let mut next = page.writer.next.clone();
    edit(&mut next);
    let _ = page.on_writer(WriterAction::Form(next));
}

fn save(page: &mut Page) -> Outcome {
    page.on_writer(WriterAction::SaveStep { language: "en" })
}

fn trouble(page: &Page) -> String {
    page.writer
        .error
        .as_ref()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

fn kept(out: &Outcome) -> Option<Option<String>> {
    out.commands.iter().find_map(|c| match c {
        Command::KeepDraft { json } => Some(json.clone()),
        _ => None,
    })
}

#[test]
fn a_saved_step_holds_the_prompt_lanes_note_question_and_the_run_on_screen() {
    let mut page = page_after_a_run();
    form(&mut page, |n| {
        n.title = " Four temperatures ".into();
        n.note = "Watch lane 4 wander.".into();
        n.kind = QuestionKind::WhichLane;
        n.ask = "Which lane is the coldest?".into();
        n.lane = 1;
    });
    let out = save(&mut page);
    assert_eq!(trouble(&page), "");
    let w = &page.writer;
    assert_eq!(w.saved, Some(0));
    assert_eq!(w.lesson.model, "bundled");
    assert_eq!(w.lesson.language, "en");
    let step = &w.lesson.steps[0];
    assert_eq!(step.title, "Four temperatures");
    assert_eq!(step.prose, "Watch lane 4 wander.");
    assert_eq!(step.prompt, page.editor.prompt);
    assert_eq!(step.lanes, page.editor.active());
    assert!(matches!(&step.recording, Some(Recording::Inline(d)) if **d == sweep_recording()));
    assert!(matches!(
        &step.questions[..],
        [Question::WhichLane { answer: 1, ask, .. }] if ask == "Which lane is the coldest?"
    ));
    // The form empties for the next step, keeping the choice to attach runs.
    assert_eq!(w.next, NextStep::default());
    // The browser is asked to keep the draft, and it reads back the same.
    let json = kept(&out).flatten().expect("the draft is kept");
    assert_eq!(LessonWriter::restored(&json).unwrap().lesson, w.lesson);
}

#[test]
fn a_run_that_no_longer_matches_the_lanes_is_refused_and_the_step_saves_without_it() {
    let mut page = page_after_a_run();
    page.editor
        .set_knob(0, ntl_decoding::Knob::MaxNewTokens, "7");
    let _ = save(&mut page);
    assert!(
        trouble(&page).contains("not of this prompt and these lanes"),
        "{}",
        trouble(&page)
    );
    assert!(page.writer.lesson.steps.is_empty(), "nothing saved");
    form(&mut page, |n| n.attach = false);
    let _ = save(&mut page);
    assert_eq!(trouble(&page), "");
    assert_eq!(page.writer.lesson.steps[0].recording, None);
    assert_eq!(
        page.writer.lesson.steps[0].lanes[0].config(),
        page.editor.lanes[0].config()
    );

    // No run at all.
    let mut fresh = ready_page(Requested::default());
    let _ = fresh.on_worker(info(), 0.0);
    let _ = save(&mut fresh);
    assert!(
        trouble(&fresh).starts_with("there is no finished run"),
        "{}",
        trouble(&fresh)
    );
}

#[test]
fn a_step_that_would_run_otherwise_than_here_is_refused_with_what_to_do() {
    let mut page = page_after_a_run();
    page.editor.shared_randomness = true;
    let _ = save(&mut page);
    assert!(
        trouble(&page).contains("turn shared randomness off"),
        "{}",
        trouble(&page)
    );
    page.editor.shared_randomness = false;
    page.editor.set_starts_from(2, Defaults::Library);
    let _ = save(&mut page);
    assert!(trouble(&page).starts_with("lane 3 starts from the library's defaults"));
    assert!(page.writer.lesson.steps.is_empty());

    // A later step on another model than the lesson's.
    page.editor.set_starts_from(2, Defaults::Model);
    let _ = save(&mut page);
    assert_eq!(page.writer.lesson.steps.len(), 1);
    page.model.source = Some(ModelSource::Hub {
        repo: "Qwen/Qwen2.5-0.5B".into(),
        gguf: None,
    });
    let _ = save(&mut page);
    assert_eq!(
        trouble(&page),
        "this lesson is written for bundled, and the page runs Qwen/Qwen2.5-0.5B now: \
         load bundled again, or start a new lesson"
    );
    page.model.source = Some(ModelSource::Files { names: vec![] });
    let _ = page.on_writer(WriterAction::Clear);
    let _ = save(&mut page);
    assert!(trouble(&page).contains("loaded from files on this computer"));
}

#[test]
fn a_question_is_checked_as_the_lesson_file_would_be_naming_its_field() {
    let mut page = page_after_a_run();
    form(&mut page, |n| {
        n.kind = QuestionKind::Choice;
        n.ask = "Which lane repeats itself?".into();
        n.options = "Lane 1\n\n".into();
        n.answer = 1;
    });
    let _ = save(&mut page);
    assert!(
        trouble(&page).contains("`steps[0].questions[0].options`: a multiple-choice question needs 2 to 8 options; it has 1"),
        "{}",
        trouble(&page)
    );
    form(&mut page, |n| n.options = "Lane 1\nLane 4\n".into());
    let _ = save(&mut page);
    assert_eq!(trouble(&page), "");
    // The form is empty again; a lane past the step's lanes is refused by path.
    form(&mut page, |n| {
        n.kind = QuestionKind::NextToken;
        n.lane = 4;
    });
    page.editor.remove_lane();
    form(&mut page, |n| n.attach = false);
    let _ = save(&mut page);
    assert!(
        trouble(&page).contains(
            "`steps[1].questions[0].lane`: lane 4 does not exist: this step has lanes 1 to 3"
        ),
        "{}",
        trouble(&page)
    );
}

#[test]
fn steps_are_reordered_retitled_and_removed_and_the_file_opens_as_written() {
    let mut page = page_after_a_run();
    for title in ["One", "Two", "Three"] {
        form(&mut page, |n| n.title = title.into());
        let _ = save(&mut page);
    }
    let titles = |p: &Page| -> Vec<String> {
        p.writer
            .lesson
            .steps
            .iter()
            .map(|s| s.title.clone())
            .collect()
    };
    let _ = page.on_writer(WriterAction::Move(2, true));
    let _ = page.on_writer(WriterAction::Move(0, true)); // already first
    let _ = page.on_writer(WriterAction::Move(2, false)); // already last
    assert_eq!(titles(&page), ["One", "Three", "Two"]);
    let _ = page.on_writer(WriterAction::Remove(0));
    let _ = page.on_writer(WriterAction::StepTitle(1, "Second".into()));
    let _ = page.on_writer(WriterAction::StepNote(0, "First **note**".into()));
    assert_eq!(titles(&page), ["Three", "Second"]);

    // No title yet: the file is refused by its field, and nothing downloads.
    let out = page.on_writer(WriterAction::Download);
    assert!(!out
        .commands
        .iter()
        .any(|c| matches!(c, Command::SaveFile { .. })));
    assert!(
        trouble(&page).contains("at `title`: it is empty"),
        "{}",
        trouble(&page)
    );

    let _ = page.on_writer(WriterAction::Title("Temperature, step by step".into()));
    let out = page.on_writer(WriterAction::Download);
    let Some(Command::SaveFile { name, mime, text }) = out.commands.last() else {
        panic!("{out:?}")
    };
    assert_eq!(name, "temperature-step-by-step.json");
    assert_eq!(*mime, "application/json");
    let read = lesson::parse(text.as_bytes()).expect("the page opens what it wrote");
    assert_eq!(read.title, "Temperature, step by step");
    assert_eq!(read.steps[0].prose, "First **note**");
    assert_eq!(read.steps.len(), 2);

    // Starting over forgets the draft in the browser too.
    let out = page.on_writer(WriterAction::Clear);
    assert_eq!(kept(&out), Some(None));
    assert!(page.writer.is_empty());
}

#[test]
fn a_preview_opens_the_lesson_in_the_player_on_its_recorded_run() {
    let mut page = page_after_a_run();
    form(&mut page, |n| n.note = "Look.".into());
    let _ = save(&mut page);
    let _ = page.on_writer(WriterAction::Title("Mine".into()));
    // Another step is on screen when the preview opens.
    let _ = page.open_built_in(0);
    let _ = page.on_writer(WriterAction::Preview);
    assert_eq!(page.lessons.open.from, LessonFrom::Writer);
    assert_eq!(page.lessons.open.lesson.title, "Mine");
    assert_eq!(page.lessons.current().prose, "Look.");
    assert_eq!(page.editor.prompt, sweep_recording().prompt);
    // The model is ready, so the run waits to be asked for; then it shows inline.
    assert!(page.lessons.has_recording());
    let _ = page.show_recording();
    assert_eq!(page.lessons.recorded, lesson_player::Recorded::Shown);
}

#[test]
fn a_run_too_large_for_a_lesson_file_is_refused_and_the_step_saves_without_it() {
    let mut page = page_after_a_run();
    let mut doc = sweep_recording();
    let long = "x".repeat(lesson::MAX_LESSON_BYTES);
    doc.runs[0].text = long;
    page.run.document = Some(crate::rc_eq::RcEq::new(doc));
    let _ = save(&mut page);
    let t = page.writer.error.as_ref().map(|e| match e {
        crate::said::Said::Writer(t) => matches!(**t, WriterTrouble::TooLarge { max_kb: 2097, .. }),
        _ => false,
    });
    assert_eq!(t, Some(true), "{}", trouble(&page));
    assert!(page.writer.lesson.steps.is_empty());
}

#[test]
fn a_file_is_named_after_its_title_in_any_script() {
    let mut w = LessonWriter::default();
    assert_eq!(w.file_name(), "lesson.json");
    w.lesson.title = "同一句话，两种分词器".into();
    assert_eq!(w.file_name(), "同一句话-两种分词器.json");
    w.lesson.title = "  ../../etc/passwd ".into();
    assert_eq!(w.file_name(), "etc-passwd.json");
}

#[test]
fn a_kept_draft_of_another_format_or_not_a_lesson_is_set_aside() {
    assert!(LessonWriter::restored("{").is_none());
    assert!(LessonWriter::restored(
        r#"{"version": 2, "title": "", "language": "en", "steps": []}"#
    )
    .is_none());
    let w =
        LessonWriter::restored(r#"{"version": 1, "title": "", "language": "zh-CN", "steps": []}"#)
            .unwrap();
    assert_eq!(w.lesson.language, "zh-CN");
    assert!(w.is_empty());
}

#[test]
fn a_lesson_keeps_the_weights_its_first_step_was_saved_with_and_refuses_a_step_kept_otherwise() {
    let mut page = page_after_a_run();
    page.model.eight_bit = true;
    let _ = save(&mut page);
    assert_eq!(page.writer.lesson.weights, ntl_protocol::LoadWeights::Q8_0);
    assert!(page
        .writer
        .lesson
        .to_json()
        .contains(r#""weights": "q8_0""#));
    page.model.eight_bit = false;
    let _ = save(&mut page);
    assert_eq!(
        trouble(&page),
        "this lesson keeps its model's weights in 8 bits, and the page keeps them as stored \
         now: check “Keep weights in 8 bits” again, or start a new lesson"
    );
    assert_eq!(page.writer.lesson.steps.len(), 1);
    page.model.eight_bit = true;
    let _ = save(&mut page);
    assert_eq!(page.writer.lesson.steps.len(), 2);
}
