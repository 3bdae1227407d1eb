//! `decode --samples N`: one sampling lane run N times, written as a tree
//! whose counts add up, reproducible from the lane's seed, for a
//! safetensors folder and a llama.cpp quantized file alike.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn decode(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_decode"))
        .args(args)
        .output()
        .expect("decode runs")
}

fn tree(model: &Path, config: &str, extra: &[&str]) -> serde_json::Value {
    tree_after(model, "Once upon a time", config, extra)
}

fn tree_after(model: &Path, prompt: &str, config: &str, extra: &[&str]) -> serde_json::Value {
    let model = model.to_str().unwrap();
    let mut args = vec!["--model", model, "--prompt", prompt, "--config", config];
    args.extend(extra);
    let out = decode(&args);
    assert!(
        out.status.success(),
        "decode {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const SAMPLING: &str = r#"{"do_sample": true, "temperature": 0.9, "seed": 11}"#;

#[test]
fn the_tree_counts_every_sample_once_and_the_same_seed_writes_the_same_tree() {
    let model = fixtures().join("models/tiny");
    let doc = tree(
        &model,
        SAMPLING,
        &["--samples", "300", "--tokens", "5", "--json"],
    );
    let t = &doc["tree"];
    assert_eq!(t["samples"], 300);
    assert_eq!(t["tokens"], 5);
    assert_eq!(t["complete"], true);
    assert_eq!(t["config"]["seed"], 11);
    let nodes = t["nodes"].as_array().unwrap();
    let leaves = t["leaves"].as_array().unwrap();
    assert_eq!(leaves.len(), 300);
    let first: u64 = nodes
        .iter()
        .filter(|n| n["parent"].is_null())
        .map(|n| n["count"].as_u64().unwrap())
        .sum();
    assert_eq!(first, 300);
    // A leaf at the tree's depth holds exactly the samples that end there.
    for (i, n) in nodes.iter().enumerate() {
        let ending = leaves
            .iter()
            .filter(|l| l.as_u64() == Some(i as u64))
            .count() as u64;
        let below: u64 = nodes
            .iter()
            .filter(|c| c["parent"].as_u64() == Some(i as u64))
            .map(|c| c["count"].as_u64().unwrap())
            .sum();
        assert_eq!(ending + below, n["count"].as_u64().unwrap());
        let share = n["share"].as_f64().unwrap();
        assert_eq!(share, n["count"].as_f64().unwrap() / 300.0);
        assert!(n["path_prob"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(doc["prompt"], "Once upon a time");
    assert_eq!(
        doc,
        tree(
            &model,
            SAMPLING,
            &["--samples", "300", "--tokens", "5", "--json"]
        )
    );
}

#[test]
fn a_quantized_gguf_grows_its_tree_too() {
    let model = fixtures().join("gguf/qwen2-q4_k_m.gguf");
    let doc = tree(
        &model,
        SAMPLING,
        &["--samples", "50", "--tokens", "3", "--json"],
    );
    assert_eq!(doc["tree"]["leaves"].as_array().unwrap().len(), 50);
}

#[test]
fn the_text_output_shows_the_branches_with_shares() {
    let model = fixtures().join("models/tiny");
    let model = model.to_str().unwrap();
    let out = decode(&[
        "--model",
        model,
        "--prompt",
        "Once",
        "--config",
        SAMPLING,
        "--samples",
        "100",
        "--tokens",
        "2",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("100 samples × 2 tokens after \"Once\""),
        "{text}"
    );
    assert!(text.contains("count  share   p(path)"), "{text}");
}

#[test]
fn a_tree_asked_for_wrongly_says_what_to_give() {
    let model = fixtures().join("models/tiny");
    let model = model.to_str().unwrap();
    let fails = |args: &[&str]| {
        let out = decode(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let base = ["--model", model, "--prompt", "x"];
    let with = |extra: &[&'static str]| [base.as_slice(), extra].concat();
    assert!(fails(&with(&["--samples", "5"])).contains("exactly one --config"));
    assert!(
        fails(&with(&["--config", SAMPLING, "--samples", "5", "--lens"]))
            .contains("--samples cannot be combined with --lens")
    );
    assert!(fails(&with(&["--config", SAMPLING, "--tokens", "3"])).contains("give --samples N too"));
    assert!(fails(&with(&["--config", SAMPLING, "--samples", "5000"]))
        .contains("5000 samples; it may draw 1 to 1000"));
    assert!(fails(&with(&["--config", "{}", "--samples", "5"])).contains("needs a sampling lane"));
}

#[test]
fn decode_still_grows_the_recorded_trees() {
    // tests/reference/make_native_trees.py wrote them with this binary's flags.
    let want: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixtures().join("native-trees.json")).unwrap())
            .unwrap();
    for case in want["trees"].as_array().unwrap() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let model = root.join(case["model"].as_str().unwrap());
        let samples = case["samples"].to_string();
        let tokens = case["tokens"].to_string();
        let doc = tree_after(
            &model,
            case["prompt"].as_str().unwrap(),
            &case["config"].to_string(),
            &["--samples", &samples, "--tokens", &tokens, "--json"],
        );
        let got: Vec<serde_json::Value> = doc["tree"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                serde_json::json!([
                    n["parent"].as_i64().unwrap_or(-1),
                    n["token_id"],
                    n["count"]
                ])
            })
            .collect();
        assert_eq!(got, *case["nodes"].as_array().unwrap(), "{}", case["model"]);
    }
}
