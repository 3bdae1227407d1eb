//! Lanes on two models advanced together: each lane's streamed steps are
//! its record's, numbered in the caller's order; a stop ends every lane on
//! every model; a lane's bad config is blamed on its own number.

mod common;

use ntl_decoding::{LaneConfig, LaneRequest, StopReason};
use ntl_engine::per_model::{run_on_models, LaneEngine, ModelsRun};
use ntl_engine::{RunError, RunInput};
use std::ops::ControlFlow;

fn lane(json: serde_json::Value) -> LaneRequest {
    LaneRequest {
        config: LaneConfig::from_value(json).unwrap(),
        forced_ids: None,
    }
}

fn input(lanes: Vec<LaneRequest>) -> RunInput {
    RunInput {
        prompt: "In the beginning".into(),
        lanes,
        ..Default::default()
    }
}

fn three_lanes() -> Vec<LaneRequest> {
    vec![
        lane(serde_json::json!({"max_new_tokens": 5})),
        lane(serde_json::json!({"max_new_tokens": 7})),
        lane(serde_json::json!({"do_sample": true, "seed": 4, "max_new_tokens": 6})),
    ]
}

#[test]
fn streamed_steps_are_each_lanes_record_in_the_callers_numbering() {
    let (a, b) = (common::engine("tiny"), common::engine("tiny-llama"));
    let models = [
        LaneEngine {
            engine: &a,
            name: "tiny".into(),
        },
        LaneEngine {
            engine: &b,
            name: "tiny-llama".into(),
        },
    ];
    let mut streamed: Vec<Vec<u32>> = vec![vec![]; 3];
    let mut done = vec![];
    let doc = run_on_models(&models, &[1, 0, 1], input(three_lanes()), |e| {
        match e {
            ntl_decoding::Event::Step {
                lane, step, index, ..
            } => {
                assert_eq!(index, streamed[lane].len(), "lane {lane}'s steps in order");
                streamed[lane].push(step.token_id);
            }
            ntl_decoding::Event::LaneDone { lane, .. } => done.push(lane),
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    for (l, run) in doc.runs.iter().enumerate() {
        let ids: Vec<u32> = run.steps.iter().map(|s| s.token_id).collect();
        assert_eq!(streamed[l], ids, "lane {l}");
    }
    done.sort_unstable();
    assert_eq!(done, vec![0, 1, 2]);
    // The first lane's model heads the document; the lane on the other says so.
    assert_eq!(doc.runs[0].model, None);
    assert_eq!(doc.runs[1].model.as_ref().unwrap().name, "tiny");
    assert_eq!([doc.runs[0].steps.len(), doc.runs[1].steps.len()], [5, 7]);
}

#[test]
fn a_stop_from_one_models_lane_ends_every_lane() {
    let (a, b) = (common::engine("tiny"), common::engine("tiny-llama"));
    let models = [
        LaneEngine {
            engine: &a,
            name: "tiny".into(),
        },
        LaneEngine {
            engine: &b,
            name: "tiny-llama".into(),
        },
    ];
    let mut run = ModelsRun::start(&models, &[0, 1, 0], input(three_lanes())).unwrap();
    let mut steps = 0;
    let mut on = |e: ntl_decoding::Event| match e {
        ntl_decoding::Event::Step { .. } => {
            steps += 1;
            if steps == 4 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
        ntl_decoding::Event::LaneDone { .. } => ControlFlow::Continue(()),
    };
    while run.advance(&mut on).unwrap() {}
    let doc = run.finish();
    assert!(doc
        .runs
        .iter()
        .all(|r| r.stop_reason == StopReason::Cancelled));
    assert!(doc.runs.iter().all(|r| r.steps.len() <= 2));
}

#[test]
fn a_bad_config_is_blamed_on_its_lane_among_all_lanes() {
    let (a, b) = (common::engine("tiny"), common::engine("tiny-llama"));
    let models = [
        LaneEngine {
            engine: &a,
            name: "tiny".into(),
        },
        LaneEngine {
            engine: &b,
            name: "tiny-llama".into(),
        },
    ];
    let mut lanes = three_lanes();
    lanes[2] = lane(serde_json::json!({"num_beams": 2, "num_beam_groups": 3}));
    let e = match ModelsRun::start(&models, &[0, 0, 1], input(lanes)) {
        Err(e) => e,
        Ok(_) => panic!("an invalid lane"),
    };
    assert!(matches!(e, RunError::Config { lane: 2, .. }), "{e}");
}
