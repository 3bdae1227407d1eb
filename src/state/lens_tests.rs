//! The lens is recorded only while shown; showing it over a finished run
//! repeats that run's request with it, seeds and all.

use super::tests::{info, ready_page};
use super::*;
use ntl_protocol::{RunRequest, ToWorker};

fn sent(out: &Outcome) -> Option<RunRequest> {
    out.commands.iter().find_map(|c| match c {
        Command::Send(ToWorker::Run { request, .. }) => Some(request.clone()),
        _ => None,
    })
}

fn sampling_page() -> Page {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor
        .set_json(0, r#"{"do_sample": true, "max_new_tokens": 4}"#);
    page
}

#[test]
fn a_run_records_the_lens_only_while_it_is_shown() {
    let mut page = sampling_page();
    assert!(!sent(&page.start_run(RunKind::Generate)).unwrap().lens);
    let _ = page.show_lens(true);
    let _ = page.stop();
    page.run.running = None;
    assert!(sent(&page.start_run(RunKind::Generate)).unwrap().lens);
    let _ = page.show_lens(false);
    page.run.running = None;
    assert!(!sent(&page.start_run(RunKind::Generate)).unwrap().lens);
}

#[test]
fn showing_the_lens_over_a_finished_run_repeats_it_with_the_same_seeds() {
    let mut page = sampling_page();
    let first = sent(&page.start_run(RunKind::Generate)).unwrap();
    let drawn = page.run.drawn;
    assert!(drawn[0].is_some(), "the unseeded lane drew a seed");
    page.run.running = None;
    let again = sent(&page.show_lens(true)).expect("the run again, with the lens");
    assert!(again.lens);
    assert_eq!(
        again.lanes, first.lanes,
        "the same lanes, the drawn seed in them"
    );
    assert_eq!(again.prompt, first.prompt);
    assert_eq!(page.run.drawn, drawn, "the lanes still show the seed drawn");
    // Its steps replace the old ones; the step open stays open.
    page.run.select(0, 0);
    let run_id = page.run.running.unwrap();
    let step = super::run::tests::step(5, " a");
    assert!(page.run.step(run_id, 0, 0, step, " a".into(), 0.0));
    assert_eq!(page.run.selected, Some((0, 0)));
    // Hidden and shown again: the run on screen has its lens already.
    page.run.running = None;
    assert!(sent(&page.show_lens(false)).is_none());
    assert!(sent(&page.show_lens(true)).is_none());
}

#[test]
fn showing_the_lens_while_a_run_goes_waits_for_the_next_run() {
    let mut page = sampling_page();
    let _ = page.start_run(RunKind::Generate);
    assert!(page.run.running.is_some());
    assert!(sent(&page.show_lens(true)).is_none());
    assert!(page.lens);
}

#[test]
fn a_replayed_recording_is_not_run_again_for_the_lens() {
    let mut page = sampling_page();
    let _ = page.start_run(RunKind::Generate);
    page.run.running = None;
    let doc = super::run::tests::one_step_doc(5, " a");
    page.run.replay("r.json".into(), doc).unwrap();
    assert!(sent(&page.show_lens(true)).is_none());
}
