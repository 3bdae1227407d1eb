//! A beam lane's tree against transformers' own answers: on every beam
//! search, diverse and constrained run of the HF fixtures, each sequence HF
//! returned is a path of the tree, marked where it ends, and its score is
//! the end's sum of log-probabilities over its length to the penalty.

mod common;

use ntl_decoding::beam_tree::{BeamFate, BeamTree};
use ntl_decoding::{GenerationConfig, LaneRequest};
use ntl_engine::RunInput;
use std::ops::ControlFlow;

fn beam_runs() -> Vec<serde_json::Value> {
    let mut runs = vec![];
    for file in ["tiny.json", "tiny-strategies.json"] {
        let doc = common::hf(file);
        for r in doc["runs"].as_array().unwrap() {
            let cfg = &r["config"];
            let beams = cfg.get("num_beams").and_then(|v| v.as_u64()).unwrap_or(1);
            let sampling = cfg.get("do_sample").and_then(|v| v.as_bool()) == Some(true);
            if beams > 1 && !sampling {
                runs.push(r.clone());
            }
        }
    }
    runs
}

#[test]
fn every_sequence_transformers_returned_is_a_marked_path_of_the_tree() {
    let e = common::engine("tiny");
    let (mut checked, mut groups, mut constrained) = (0, 0, 0);
    for run in beam_runs() {
        let name = run["name"].as_str().unwrap();
        let cfg = GenerationConfig::from_value(run["config"].clone()).unwrap();
        let penalty = cfg.length_penalty;
        let input = RunInput {
            prompt: common::prompt_text(name).into(),
            lanes: vec![LaneRequest {
                config: cfg.clone().into(),
                forced_ids: None,
            }],
            ..Default::default()
        };
        let doc = e.run(input, |_| ControlFlow::Continue(())).unwrap();
        let lane = &doc.runs[0];
        let tree = BeamTree::build(&lane.steps, &lane.sequences).expect("beam steps");
        assert_eq!(tree.steps, lane.steps.len(), "{name}");
        let want: Vec<Vec<u32>> = run["sequences"]
            .as_array()
            .unwrap()
            .iter()
            .map(common::ids)
            .collect();
        let scores = run.get("sequences_scores").map(common::floats);
        for (k, ids) in want.iter().enumerate() {
            let end = (0..tree.nodes.len() as u32)
                .find(|&i| tree.nodes[i as usize].returned == Some(k))
                .unwrap_or_else(|| panic!("{name}: sequence {k} is not marked"));
            assert_eq!(&tree.path_ids(end), ids, "{name}: sequence {k}'s path");
            let node = &tree.nodes[end as usize];
            // Diverse and constrained search end by adding the beams still
            // running to the hypotheses (HF's `finalize`).
            let last = node.step as usize + 1 == tree.steps;
            assert!(
                node.fate == BeamFate::Finished || (last && node.fate == BeamFate::Kept),
                "{name}: sequence {k} ends {:?} at step {}",
                node.fate,
                node.step
            );
            if let Some(scores) = &scores {
                let len = (node.step + 1) as f64;
                let got = (node.score as f64 / len.powf(penalty)) as f32;
                let w = scores[k];
                assert!(
                    (got - w).abs() <= 1e-4 * w.abs().max(1.0),
                    "{name}: sequence {k} scores {got} in the tree, {w} in HF"
                );
            }
        }
        // Every step but the last keeps as many beams as the search runs
        // (groups that finished carry padding, which the tree leaves out);
        // every continuation hangs under a beam kept the step before.
        for s in 0..tree.steps as u32 {
            let kept: Vec<&_> = tree
                .nodes
                .iter()
                .filter(|n| n.step == s && n.fate == BeamFate::Kept)
                .collect();
            if cfg.num_beam_groups <= 1 && (s as usize) + 1 < tree.steps {
                assert_eq!(kept.len() as i64, cfg.num_beams, "{name}: step {s}");
            }
            for n in tree.nodes.iter().filter(|n| n.step == s) {
                match n.parent {
                    None => assert_eq!(s, 0, "{name}"),
                    Some(p) => {
                        let p = &tree.nodes[p as usize];
                        assert_eq!((p.step + 1, p.fate), (s, BeamFate::Kept), "{name}");
                    }
                }
            }
        }
        let answer: Vec<u32> = tree
            .nodes
            .iter()
            .filter(|n| n.on_answer)
            .map(|n| n.token_id)
            .collect();
        assert_eq!(answer, lane.token_ids, "{name}: the answer's path");
        groups += usize::from(cfg.num_beam_groups > 1);
        constrained += usize::from(
            lane.steps[0].beams.as_ref().unwrap()[0]
                .constraints
                .is_some(),
        );
        checked += 1;
    }
    assert!(
        checked == 50 && groups == 16 && constrained == 20,
        "{checked} runs, {groups} diverse, {constrained} constrained"
    );
}
