//! The beam tree panel on the page: it draws a beam lane's steps as they
//! stream, marks the answer once the run finishes, opens a node's step in
//! every lane, forgets an open node when a new run starts, and saves.

use super::beam_tree::BeamTreeAction;
use super::run::RunKind;
use super::tests::{info, ready_page, sent_run, started};
use super::*;
use ntl_decoding::beam_tree::BeamFate;
use ntl_decoding::record::BeamCandidate;
use ntl_decoding::{Document, Mode, Run, Sequence, Step, StopReason};
use ntl_protocol::FromWorker;

fn cand(beam: usize, token_id: u32, score: f32, next_beam: Option<usize>) -> BeamCandidate {
    BeamCandidate {
        beam,
        token_id,
        token: format!(" t{token_id}"),
        score,
        finished: token_id == 9,
        running: next_beam.is_some(),
        next_beam,
        group: None,
        diversity_penalty: None,
        padding: false,
        constraints: None,
        pushed: false,
    }
}

/// Two beams over two steps: the second step finishes " t1 t9".
fn beam_steps() -> Vec<Step> {
    let mut first = super::run::tests::step(1, " t1");
    first.beams = Some(vec![
        cand(0, 1, -0.5, Some(0)),
        cand(0, 2, -0.7, Some(1)),
        cand(0, 5, -0.9, None),
        cand(0, 6, -1.1, None),
    ]);
    let mut second = super::run::tests::step(9, " t9");
    second.beams = Some(vec![
        cand(0, 9, -0.8, None),
        cand(1, 3, -1.0, Some(0)),
        cand(1, 4, -1.5, Some(1)),
        cand(0, 3, -2.0, None),
    ]);
    vec![first, second]
}

/// Lane 1 runs a beam search and has streamed its steps; lane 0 is greedy.
fn streamed() -> (Page, u64) {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor.set_json(1, r#"{"num_beams": 2}"#);
    let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
    let _ = page.on_worker(started(run_id, Mode::Beam), 0.0);
    let greedy = super::run::tests::step(1, " t1");
    for (lane, steps) in [(0, vec![greedy.clone(), greedy]), (1, beam_steps())] {
        for (index, step) in steps.into_iter().enumerate() {
            let text = if index == 0 { " t1" } else { " t1 t9" };
            let _ = page.on_worker(
                FromWorker::Step {
                    run_id,
                    lane,
                    index,
                    step: Box::new(step),
                    text: text.into(),
                },
                0.0,
            );
        }
    }
    (page, run_id)
}

fn finish(page: &mut Page, run_id: u64) {
    let run = |steps: Vec<Step>, mode| Run {
        config: ntl_decoding::GenerationConfig::default().into(),
        mode,
        token_ids: vec![1, 9],
        text: " t1 t9".into(),
        stop_reason: StopReason::Eos,
        sequences: vec![Sequence {
            token_ids: vec![1, 9],
            text: " t1 t9".into(),
            score: Some(-0.4),
            steps: vec![],
        }],
        steps,
        model: None,
    };
    let document = Document {
        prompt_ids: vec![1],
        prompt: "The".into(),
        prompt_cropped: 0,
        runs: vec![run(vec![], Mode::Greedy), run(beam_steps(), Mode::Beam)],
    };
    let _ = page.on_worker(
        FromWorker::Finished {
            run_id,
            document,
            shown_texts: vec![],
            ms: 1.0,
            first_step_ms: None,
            memory_bytes: None,
        },
        0.0,
    );
}

#[test]
fn the_tree_draws_the_beam_lane_while_it_streams_and_marks_the_answer_when_it_ends() {
    let (mut page, run_id) = streamed();
    assert_eq!(page.beam_lanes(), vec![1], "the greedy lane has no tree");
    let shown = page.beam_tree().unwrap();
    assert_eq!((shown.lane, shown.tree.nodes.len()), (1, 8));
    assert!(shown.growing);
    assert!(shown.tree.nodes.iter().all(|n| n.returned.is_none()));
    finish(&mut page, run_id);
    let shown = page.beam_tree().unwrap();
    assert!(!shown.growing);
    let answer = shown
        .tree
        .nodes
        .iter()
        .position(|n| n.returned == Some(0))
        .unwrap();
    assert_eq!(shown.tree.nodes[answer].fate, BeamFate::Finished);
    assert_eq!(shown.tree.path_ids(answer as u32), vec![1, 9]);
}

#[test]
fn a_node_chosen_opens_its_step_in_every_lane_and_chosen_again_closes() {
    let (mut page, _) = streamed();
    // Node 5: the second step's " t3" under beam " t2".
    assert!(page.on_beam_tree(BeamTreeAction::Select(5)).redraw);
    assert_eq!(page.beam_tree().unwrap().open, Some(5));
    assert_eq!(page.run.selected, Some((1, 1)));
    let _ = page.on_beam_tree(BeamTreeAction::Select(5));
    assert_eq!(page.beam_tree().unwrap().open, None);
    assert!(!page.on_beam_tree(BeamTreeAction::Select(99)).redraw);
}

#[test]
fn a_new_run_forgets_the_open_node() {
    let (mut page, _) = streamed();
    let _ = page.on_beam_tree(BeamTreeAction::Select(2));
    let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
    let _ = page.on_worker(started(run_id, Mode::Beam), 0.0);
    let _ = page.on_worker(
        FromWorker::Step {
            run_id,
            lane: 1,
            index: 0,
            step: Box::new(beam_steps().remove(0)),
            text: " t1".into(),
        },
        0.0,
    );
    let shown = page.beam_tree().unwrap();
    assert_eq!((shown.tree.nodes.len(), shown.open), (4, None));
}

#[test]
fn only_a_beam_lane_can_be_chosen() {
    let (mut page, _) = streamed();
    assert!(!page.on_beam_tree(BeamTreeAction::Lane(0)).redraw);
    assert_eq!(page.beam_tree().unwrap().lane, 1);
    assert!(page.on_beam_tree(BeamTreeAction::Lane(1)).redraw);
}

#[test]
fn the_tree_saves_as_json_with_its_prompt_and_lane() {
    let (mut page, run_id) = streamed();
    finish(&mut page, run_id);
    let out = page.on_beam_tree(BeamTreeAction::ExportJson);
    let (name, text) = out
        .commands
        .iter()
        .find_map(|c| match c {
            Command::SaveFile { name, text, .. } => Some((name.clone(), text.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(name, "beam-tree.json");
    let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["lane"], 2);
    assert_eq!(saved["tree"]["nodes"].as_array().unwrap().len(), 8);
    assert_eq!(saved["tree"]["nodes"][4]["fate"], "finished");
    assert_eq!(saved["tree"]["nodes"][4]["returned"], 0);
}
