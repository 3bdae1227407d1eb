//! `decode --config '{"model": "DIR", …}'`: a lane on a model of its own.
//! Lanes on two models reproduce each model's single-model run exactly;
//! a lane on another model says which and how its tokenizer read the
//! prompt; one model named two ways loads once; a model that cannot load
//! is named with its lane.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn decode(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_decode"))
        .args(args)
        .output()
        .expect("decode runs")
}

fn doc(args: &[&str]) -> serde_json::Value {
    let out = decode(args);
    assert!(
        out.status.success(),
        "decode {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn path(p: &str) -> String {
    root().join(p).to_str().unwrap().to_string()
}

/// `config` with `"model": model` added.
fn on(model: &str, config: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(config).unwrap();
    v["model"] = model.into();
    v.to_string()
}

/// Runs `configs` on `model` alone, as JSON.
fn alone(model: &str, prompt: &str, configs: &[&str]) -> serde_json::Value {
    let mut args = vec!["--model", model, "--prompt", prompt, "--json"];
    for c in configs {
        args.extend(["--config", c]);
    }
    doc(&args)
}

const GREEDY: &str = r#"{"max_new_tokens": 6}"#;
const SAMPLING: &str = r#"{"do_sample": true, "temperature": 0.9, "seed": 5, "max_new_tokens": 6}"#;
const BEAMS: &str = r#"{"num_beams": 2, "max_new_tokens": 6}"#;

#[test]
fn lanes_on_two_models_are_each_models_own_run_exactly() {
    let (a, b) = (
        path("tests/fixtures/models/tiny"),
        path("tests/fixtures/models/tiny-llama"),
    );
    let prompt = "In the beginning";
    let mixed = doc(&[
        "--model",
        &a,
        "--prompt",
        prompt,
        "--json",
        "--config",
        GREEDY,
        "--config",
        &on(&b, SAMPLING),
        "--config",
        BEAMS,
        "--config",
        &on(&b, GREEDY),
    ]);
    let on_a = alone(&a, prompt, &[GREEDY, BEAMS]);
    let on_b = alone(&b, prompt, &[SAMPLING, GREEDY]);
    let runs = mixed["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4);
    assert_eq!(
        mixed["prompt_ids"], on_a["prompt_ids"],
        "the first lane's model heads the document"
    );
    assert_eq!(runs[0], on_a["runs"][0]);
    assert_eq!(runs[2], on_a["runs"][1]);
    for (lane, k) in [(1, 0), (3, 1)] {
        let mut run = runs[lane].clone();
        let model = run
            .as_object_mut()
            .unwrap()
            .remove("model")
            .expect("names its model");
        assert_eq!(model["name"], b.as_str());
        assert_eq!(model["prompt_ids"], on_b["prompt_ids"]);
        assert_eq!(
            run,
            on_b["runs"][k],
            "lane {}: as tiny-llama runs it alone",
            lane + 1
        );
    }
}

#[test]
fn a_lane_on_a_model_with_another_tokenizer_carries_its_own_prompt_ids() {
    let (kjv, minigpt) = (
        path("www/models/kjv-gpt2"),
        path("www/models/tutorial-minigpt"),
    );
    let prompt = "And God said";
    let mixed = doc(&[
        "--model",
        &kjv,
        "--prompt",
        prompt,
        "--json",
        "--config",
        GREEDY,
        "--config",
        &on(&minigpt, GREEDY),
    ]);
    let own = alone(&minigpt, prompt, &[GREEDY]);
    let model = &mixed["runs"][1]["model"];
    assert_eq!(model["prompt_ids"], own["prompt_ids"]);
    assert_ne!(
        model["prompt_ids"], mixed["prompt_ids"],
        "two tokenizers, two readings"
    );
    assert_eq!(mixed["runs"][1]["token_ids"], own["runs"][0]["token_ids"]);
    assert_eq!(mixed["runs"][1]["text"], own["runs"][0]["text"]);
    // The text output says which model a lane ran on.
    let out = decode(&[
        "--model",
        &kjv,
        "--prompt",
        prompt,
        "--config",
        GREEDY,
        "--config",
        &on(&minigpt, GREEDY),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "   on {minigpt} (its tokenizer reads the prompt as"
        )),
        "{text}"
    );
}

#[test]
fn one_model_named_two_ways_is_one_model() {
    let a = path("tests/fixtures/models/tiny");
    let slashed = format!("{a}/");
    let mixed = doc(&[
        "--model",
        &a,
        "--prompt",
        "Hi",
        "--json",
        "--config",
        GREEDY,
        "--config",
        &on(&slashed, GREEDY),
    ]);
    assert!(
        mixed["runs"][1].get("model").is_none(),
        "the document's own model"
    );
    // Every lane naming its model: no --model needed, the first lane's heads the document.
    let named = doc(&["--prompt", "Hi", "--json", "--config", &on(&a, GREEDY)]);
    assert_eq!(named["runs"][0]["token_ids"], mixed["runs"][0]["token_ids"]);
}

#[test]
fn a_lane_whose_model_cannot_load_is_named_with_its_path() {
    let a = path("tests/fixtures/models/tiny");
    let out = decode(&[
        "--model",
        &a,
        "--prompt",
        "Hi",
        "--config",
        GREEDY,
        "--config",
        &on("no/such/model", GREEDY),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("decode: lane 2 runs on no/such/model: cannot read"),
        "{err}"
    );
    let out = decode(&[
        "--model",
        &a,
        "--prompt",
        "Hi",
        "--config",
        r#"{"model": 3}"#,
    ]);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("--config #1: \"model\" is a folder or a .gguf file"));
}

#[test]
fn a_sample_tree_grows_on_its_lanes_model() {
    let (a, b) = (
        path("tests/fixtures/models/tiny"),
        path("tests/fixtures/models/tiny-llama"),
    );
    let config = r#"{"do_sample": true, "seed": 3}"#;
    let named = doc(&[
        "--model",
        &a,
        "--prompt",
        "Hi",
        "--json",
        "--samples",
        "20",
        "--tokens",
        "3",
        "--config",
        &on(&b, config),
    ]);
    let direct = doc(&[
        "--model",
        &b,
        "--prompt",
        "Hi",
        "--json",
        "--samples",
        "20",
        "--tokens",
        "3",
        "--config",
        config,
    ]);
    assert_eq!(named["tree"]["nodes"], direct["tree"]["nodes"]);
}
