//! `decode --quantize q8_0` and `--kl-against DIR`: a safetensors model kept
//! as Q8_0 blocks runs what llama.cpp's Q8_0 file of the same checkpoint
//! runs, and a run says how far each step's distribution is from the same
//! checkpoint at full precision.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn decode(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_decode"))
        .args(args)
        .output()
        .expect("decode runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let (ok, out, err) = decode(args);
    assert!(ok, "decode {args:?}: {err}");
    serde_json::from_str(&out).expect("--json writes one document")
}

const PROMPT: &str = "The best way to learn programming is";
const LANES: [&str; 2] = [
    r#"{"max_new_tokens": 12}"#,
    r#"{"max_new_tokens": 12, "do_sample": true, "seed": 7, "top_k": 0}"#,
];

fn lane_args<'a>(model: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--model", model, "--prompt", PROMPT, "--json"];
    for lane in LANES {
        args.extend(["--config", lane]);
    }
    args.extend(extra);
    args
}

#[test]
fn eight_bits_at_load_write_what_llama_cpp_s_q8_0_file_of_the_checkpoint_writes() {
    let tiny = fixtures().join("models/tiny");
    let file = fixtures().join("gguf/gpt2-q8_0.gguf");
    let at_load = json(&lane_args(tiny.to_str().unwrap(), &["--quantize", "q8_0"]));
    let from_file = json(&lane_args(file.to_str().unwrap(), &[]));
    for lane in 0..LANES.len() {
        let ids = |doc: &serde_json::Value| doc["runs"][lane]["token_ids"].clone();
        assert_eq!(ids(&at_load), ids(&from_file), "lane {lane}");
        assert_eq!(ids(&at_load).as_array().unwrap().len(), 12);
    }
}

#[test]
fn a_run_measured_against_full_precision_gives_each_lane_s_kl_per_step() {
    let tiny = fixtures().join("models/tiny");
    let tiny = tiny.to_str().unwrap();
    let doc = json(&lane_args(
        tiny,
        &["--quantize", "q8_0", "--kl-against", tiny],
    ));
    let drift = doc["drift"].as_array().expect("a drift per lane");
    assert_eq!(drift.len(), LANES.len());
    for d in drift {
        let kl: Vec<f64> = d["kl"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!((kl.len(), d["steps"].as_u64()), (12, Some(12)));
        // Eight bits on the tiny random model (wider weights than a trained
        // model's): measured 1e-3 to 1.2e-2 nats a step, never nothing.
        assert!(kl.iter().all(|&k| k > 0.0 && k < 5e-2), "{kl:?}");
        let max = kl.iter().copied().fold(0.0, f64::max);
        assert_eq!(d["max_kl"].as_f64(), Some(max));
        assert!(d["top_agrees"].as_u64().unwrap() <= 12);
    }
    // The same weights against themselves part nowhere.
    let same = json(&lane_args(tiny, &["--kl-against", tiny]));
    for d in same["drift"].as_array().unwrap() {
        assert_eq!(d["max_kl"].as_f64(), Some(0.0));
        assert_eq!(d["top_agrees"], d["steps"]);
    }
}

#[test]
fn text_output_ends_with_a_line_per_lane_against_full_precision() {
    let tiny = fixtures().join("models/tiny");
    let tiny = tiny.to_str().unwrap();
    let (ok, out, err) = decode(&[
        "--model",
        tiny,
        "--prompt",
        PROMPT,
        "--config",
        LANES[0],
        "--quantize",
        "q8_0",
        "--kl-against",
        tiny,
    ]);
    assert!(ok, "{err}");
    let tail = out
        .split("against full precision")
        .nth(1)
        .expect("the drift section");
    assert!(
        tail.contains("lane 1: KL mean") && tail.contains("over 12 steps; top token the same at"),
        "{tail}"
    );
}

#[test]
fn what_cannot_be_quantized_or_compared_is_refused_with_what_to_do() {
    let tiny = fixtures().join("models/tiny");
    let tiny = tiny.to_str().unwrap();
    let file = fixtures().join("gguf/gpt2-q8_0.gguf");
    for (args, says) in [
        (
            vec!["--model", file.to_str().unwrap(), "--quantize", "q8_0"],
            "already in the types it was quantized to",
        ),
        (vec!["--model", tiny, "--quantize", "q4_k"], "give q8_0"),
        (
            vec!["--model", tiny, "--kl-against", "/nonexistent/model"],
            "--kl-against: cannot read",
        ),
    ] {
        let mut args = args.clone();
        args.extend(["--prompt", PROMPT]);
        let (ok, _, err) = decode(&args);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
    }
}
