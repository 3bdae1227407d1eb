//! The logit lens (`Engine::lens`): its last row is the step's raw
//! distribution, and each earlier row is what the same model cut after that
//! layer predicts — checked by loading the checkpoint with fewer layers, an
//! independent pass through the ordinary loader.

use ntl_engine::{Engine, Precision};
use std::ops::ControlFlow;

macro_rules! model {
    ($dir:literal) => {
        (
            include_bytes!(concat!(
                "../../../tests/fixtures/models/",
                $dir,
                "/config.json"
            ))
            .as_slice(),
            include_bytes!(concat!(
                "../../../tests/fixtures/models/",
                $dir,
                "/model.safetensors"
            ))
            .as_slice(),
            include_bytes!(concat!(
                "../../../tests/fixtures/models/",
                $dir,
                "/tokenizer.json"
            ))
            .as_slice(),
        )
    };
}

type Files = (&'static [u8], &'static [u8], &'static [u8]);

const MODELS: [(&str, Files); 3] = [
    ("gpt2", model!("tiny")),
    ("llama", model!("tiny-llama")),
    ("qwen2", model!("tiny-qwen2")),
];

fn load(config: &[u8], files: Files) -> Engine {
    Engine::load_sharded_as(config, &[&files.1], files.2, Precision::AsStored).unwrap()
}

/// The config with `layers` transformer layers, whatever the family calls them.
fn cut(config: &[u8], layers: usize) -> Vec<u8> {
    let mut c: serde_json::Value = serde_json::from_slice(config).unwrap();
    for key in ["n_layer", "num_hidden_layers", "num_layers"] {
        if c.get(key).is_some() {
            c[key] = layers.into();
        }
    }
    serde_json::to_vec(&c).unwrap()
}

const IDS: [u32; 7] = [464, 3290, 286, 262, 1578, 373, 11];

#[test]
fn each_layers_row_is_the_model_cut_after_that_layer() {
    for (name, files) in MODELS {
        let e = load(files.0, files);
        let ids: Vec<u32> = IDS
            .iter()
            .map(|&i| i % e.info().vocab_size as u32)
            .collect();
        let lens = e.lens(&ids).unwrap();
        assert_eq!(lens.len(), e.info().n_layer, "{name}: one row per layer");
        for (l, row) in lens.iter().enumerate() {
            let shorter = load(&cut(files.0, l + 1), files).logits(&ids).unwrap();
            // The same operations in the same order: equal to the bit.
            assert_eq!(row, &shorter, "{name}: layer {}", l + 1);
        }
    }
}

#[test]
fn a_students_minigpt_has_its_lens_too() {
    let dir = "../../tests/fixtures/minigpt/untied";
    let read =
        |f: &str| std::fs::read(format!("{}/{dir}/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let (pt, config, tokenizer) = (
        read("minigpt.pt"),
        read("config.json"),
        read("tokenizer.json"),
    );
    let folder = ntl_engine::minigpt_import::minigpt_folder(&pt, Some(&config), None).unwrap();
    let files: Files = (
        folder.config.clone().leak(),
        folder.safetensors.clone().leak(),
        tokenizer.leak(),
    );
    let e = load(files.0, files);
    let lens = e.lens(&[5, 17, 3, 99]).unwrap();
    assert_eq!(lens.len(), 3);
    for (l, row) in lens.iter().enumerate() {
        let shorter = load(&cut(files.0, l + 1), files)
            .logits(&[5, 17, 3, 99])
            .unwrap();
        // Measured: ≤ 7.2e-7 (logits ~3): its layer norm sums a row alone here
        // and inside the sequence there, in another order.
        let gap = row
            .iter()
            .zip(&shorter)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(gap <= 1e-5, "layer {}: {gap}", l + 1);
    }
}

#[test]
fn the_last_layers_row_is_the_steps_raw_distribution() {
    let (config, ..) = MODELS[0].1;
    let e = load(config, MODELS[0].1);
    let input = ntl_engine::RunInput {
        prompt: "In the beginning".into(),
        lanes: vec![ntl_decoding::LaneRequest {
            config: ntl_decoding::LaneConfig::from_value(serde_json::json!({"max_new_tokens": 3}))
                .unwrap(),
            forced_ids: None,
        }],
        ..ntl_engine::RunInput::default()
    };
    let doc = e.run(input, |_| ControlFlow::Continue(())).unwrap();
    let run = &doc.runs[0];
    let mut context = doc.prompt_ids.clone();
    for step in &run.steps {
        let last = e.lens(&context).unwrap().pop().unwrap();
        let max = last.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let total: f64 = last.iter().map(|&x| ((x - max) as f64).exp()).sum();
        for c in &step.top {
            assert_eq!(last[c.id as usize], c.logit, "the step's raw logit");
            let p = (((last[c.id as usize] - max) as f64).exp() / total) as f32;
            assert!((p - c.raw_prob).abs() <= 1e-6, "{p} vs {}", c.raw_prob);
        }
        context.push(step.token_id);
    }
}

#[test]
fn a_context_past_the_window_is_cropped_as_a_run_crops_it() {
    let (config, ..) = MODELS[0].1;
    let e = load(config, MODELS[0].1);
    let n = e.info().n_positions;
    let long: Vec<u32> = (0..n as u32 + 5).map(|i| 100 + i).collect();
    assert_eq!(e.lens(&long).unwrap(), e.lens(&long[5..]).unwrap());
    assert!(e.lens(&[]).unwrap().is_empty());
}

fn lanes(configs: &[serde_json::Value]) -> Vec<ntl_decoding::LaneRequest> {
    configs
        .iter()
        .map(|c| ntl_decoding::LaneRequest {
            config: ntl_decoding::LaneConfig::from_value(c.clone()).unwrap(),
            forced_ids: None,
        })
        .collect()
}

fn run(e: &Engine, configs: &[serde_json::Value], lens: bool) -> ntl_decoding::Document {
    let input = ntl_engine::RunInput {
        prompt: "In the beginning".into(),
        lanes: lanes(configs),
        options: ntl_decoding::Options {
            lens,
            ..Default::default()
        },
        ..ntl_engine::RunInput::default()
    };
    e.run(input, |_| ControlFlow::Continue(())).unwrap()
}

#[test]
fn a_run_with_the_lens_records_every_layer_of_its_one_sequence_lanes_steps() {
    use serde_json::json;
    let configs = [
        json!({"max_new_tokens": 6}),
        json!({"do_sample": true, "temperature": 0.8, "seed": 7, "max_new_tokens": 6}),
        json!({"semantics": "llama.cpp", "seed": 3, "n_predict": 6}),
        json!({"dola_layers": "high", "max_new_tokens": 4}),
        json!({"num_beams": 2, "max_new_tokens": 4}),
    ];
    for (name, files) in MODELS {
        let e = load(files.0, files);
        let with = run(&e, &configs, true);
        let without = run(&e, &configs, false);
        for (lane, (a, b)) in with.runs.iter().zip(&without.runs).enumerate() {
            // The lens reads the pass; it never changes what a lane chooses.
            assert_eq!(a.token_ids, b.token_ids, "{name} lane {lane}");
            assert!(b.steps.iter().all(|s| s.lens.is_none()));
        }
        // DoLa's exits (as they are) and the lens's (normed) share the pass.
        for run in &with.runs[..4] {
            let mut context = with.prompt_ids.clone();
            for step in &run.steps {
                let lens = step.lens.as_ref().expect("a lens at every step");
                assert_eq!(lens.len(), e.info().n_layer, "{name}");
                let last = lens.last().unwrap();
                // The last row is the step's raw distribution, to the bit.
                assert_eq!(last.chosen_prob.to_bits(), step.chosen_raw_prob.to_bits());
                assert_eq!(last.chosen_rank, step.rank);
                for t in &last.top {
                    if let Some(c) = step.top.iter().find(|c| c.id == t.id) {
                        assert_eq!(t.prob.to_bits(), c.raw_prob.to_bits(), "{name}");
                    }
                }
                assert_eq!(last.entropy.to_bits(), step.raw_entropy.to_bits());
                // Each earlier row is the lens of the step's context.
                let alone = e.lens(&context).unwrap();
                for (row, logits) in lens.iter().zip(&alone) {
                    let best = logits
                        .iter()
                        .enumerate()
                        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
                        .unwrap()
                        .0;
                    assert_eq!(row.top[0].id as usize, best, "{name} layer {}", row.layer);
                }
                context.push(step.token_id);
            }
        }
        // Beams follow many sequences: no lens row belongs to the step.
        assert!(with.runs[4].steps.iter().all(|s| s.lens.is_none()));
    }
}

#[test]
fn a_tutorial_lane_past_its_window_keeps_its_lens() {
    use serde_json::json;
    let (config, ..) = MODELS[0].1;
    let e = load(config, MODELS[0].1);
    let n = e.info().n_positions;
    let lane = json!({"semantics": "tutorial", "max_new_tokens": n + 4, "block_size": 8});
    let doc = run(&e, &[lane], true);
    let steps = &doc.runs[0].steps;
    assert!(steps.len() > 8);
    for step in steps {
        let last = step.lens.as_ref().unwrap().last().unwrap();
        assert_eq!(last.chosen_prob.to_bits(), step.chosen_raw_prob.to_bits());
    }
}
