//! Sample trees on real checkpoints: the prompt's keys and values kept once
//! change no logit, and every branch's probabilities are those a lane
//! following that branch records.

mod common;

use ntl_decoding::{LaneConfig, LaneRequest, LanguageModel};
use ntl_engine::{RunInput, TreeInput};
use std::ops::ControlFlow;

const MODELS: [&str; 3] = ["tiny", "tiny-llama", "tiny-qwen2"];

#[test]
fn a_prompt_kept_once_for_every_row_gives_the_logits_of_a_prompt_copied_per_row() {
    for name in MODELS {
        let e = common::engine(name);
        let pre = e.prefill(&[464, 3290, 286, 262]).unwrap();
        let shared = e.shared(pre.cache.clone()).unwrap();
        let grow = |cache| {
            let a = e
                .step(&e.select(&cache, &[0, 0, 0]).unwrap(), &[11, 12, 13])
                .unwrap();
            let b = e
                .step(&e.select(&a.cache, &[2, 0, 0, 1]).unwrap(), &[5, 6, 7, 8])
                .unwrap();
            (a.logits, b.logits)
        };
        assert_eq!(grow(pre.cache), grow(shared), "{name}: to the bit");
    }
}

fn lane(json: serde_json::Value) -> LaneRequest {
    LaneRequest {
        config: LaneConfig::from_value(json).unwrap(),
        forced_ids: None,
    }
}

#[test]
fn each_branchs_probabilities_are_those_a_lane_following_it_records() {
    let config = serde_json::json!({"do_sample": true, "temperature": 0.7, "top_k": 40, "seed": 5});
    let mut worst = 0f32;
    for name in MODELS {
        let e = common::engine(name);
        let doc = e
            .tree(
                TreeInput {
                    prompt: "In the beginning".into(),
                    prompt_ids: None,
                    lane: lane(config.clone()),
                    samples: 200,
                    tokens: 4,
                },
                |_| ControlFlow::Continue(()),
            )
            .unwrap();
        let tree = &doc.tree;
        assert!(tree.complete);
        assert_eq!(tree.leaves.len(), 200);
        let first: u32 = tree
            .nodes
            .iter()
            .filter(|n| n.parent.is_none())
            .map(|n| n.count)
            .sum();
        assert_eq!(first, 200, "{name}");
        // The five most-drawn leaves, each followed by a forced lane.
        let mut leaves: Vec<u32> = tree.leaves.clone();
        leaves.sort_by_key(|&l| std::cmp::Reverse(tree.nodes[l as usize].count));
        leaves.dedup();
        for &leaf in leaves.iter().take(5) {
            let mut path = vec![];
            let mut at = Some(leaf);
            while let Some(n) = at {
                path.push(&tree.nodes[n as usize]);
                at = tree.nodes[n as usize].parent;
            }
            path.reverse();
            let forced = LaneRequest {
                forced_ids: Some(path.iter().map(|n| n.token_id).collect()),
                ..lane(config.clone())
            };
            let run = e
                .run(
                    RunInput {
                        prompt: "In the beginning".into(),
                        lanes: vec![forced],
                        ..RunInput::default()
                    },
                    |_| ControlFlow::Continue(()),
                )
                .unwrap();
            for (node, step) in path.iter().zip(&run.runs[0].steps) {
                assert_eq!(node.token_id, step.token_id);
                // One row there, a batch of rows here: the matrix kernels sum
                // in another order. Measured: at most 5.6e-6 relative.
                for (tree, lane) in [
                    (node.prob, step.chosen_prob),
                    (node.raw_prob, step.chosen_raw_prob),
                ] {
                    let gap = ((tree - lane) / lane).abs();
                    worst = worst.max(gap);
                    assert!(gap <= 2e-5, "{name}: {} {tree} vs {lane}", node.token);
                }
            }
        }
    }
    eprintln!("largest relative gap: {worst:e}");
}

#[test]
fn a_tree_too_big_for_the_model_is_refused_before_any_pass_with_its_figure() {
    let e = common::engine("tiny");
    let err = e
        .prepare_tree(TreeInput {
            prompt: "x".into(),
            prompt_ids: None,
            lane: lane(serde_json::json!({"do_sample": true})),
            samples: 1000,
            tokens: 17,
        })
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "sample tree: a tree follows each sample for 17 tokens; it may follow 1 to 16"
    );
    let err = e
        .prepare_tree(TreeInput {
            prompt: "x".into(),
            prompt_ids: None,
            lane: lane(serde_json::json!({"num_beams": 2})),
            samples: 10,
            tokens: 4,
        })
        .err()
        .unwrap();
    assert!(err.to_string().contains("needs a sampling lane"), "{err}");
}
