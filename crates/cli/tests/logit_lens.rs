//! `decode --lens`: each step of a one-sequence lane carries what every
//! layer would have predicted, its last row the step's raw distribution —
//! for safetensors folders and llama.cpp's quantized files alike.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn decode(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_decode"))
        .args(args)
        .output()
        .expect("decode runs");
    assert!(
        out.status.success(),
        "decode {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const LANES: [&str; 2] = [
    r#"{"max_new_tokens": 5}"#,
    r#"{"max_new_tokens": 5, "num_beams": 2}"#,
];

fn args<'a>(model: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--model", model, "--prompt", "Once upon a time"];
    for lane in LANES {
        args.extend(["--config", lane]);
    }
    args.extend(extra);
    args
}

#[test]
fn the_json_document_carries_each_steps_lens_when_asked() {
    // Every fixture has two layers (two of them llama.cpp quantized files).
    let n_layer = 2;
    for model in [
        fixtures().join("models/tiny-llama"),
        fixtures().join("gguf/gpt2-q8_0.gguf"),
        fixtures().join("gguf/qwen2-q4_k_m.gguf"),
    ] {
        let model = model.to_str().unwrap();
        let doc: serde_json::Value =
            serde_json::from_str(&decode(&args(model, &["--json", "--lens"]))).unwrap();
        let steps = doc["runs"][0]["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 5);
        for step in steps {
            let lens = step["lens"].as_array().expect("a lens per step");
            assert_eq!(lens.len(), n_layer, "{model}: a row per layer");
            let last = lens.last().unwrap();
            assert_eq!(last["chosen_prob"], step["chosen_raw_prob"], "{model}");
            assert_eq!(last["chosen_rank"], step["rank"], "{model}");
            assert_eq!(last["layer"].as_u64().unwrap() as usize, n_layer);
            assert_eq!(last["top"].as_array().unwrap().len(), 5);
        }
        // A beam lane follows several sequences: no lens.
        let beams = doc["runs"][1]["steps"].as_array().unwrap();
        assert!(beams.iter().all(|s| s.get("lens").is_none()));
        let plain: serde_json::Value =
            serde_json::from_str(&decode(&args(model, &["--json"]))).unwrap();
        let steps = plain["runs"][0]["steps"].as_array().unwrap();
        assert!(steps.iter().all(|s| s.get("lens").is_none()), "{model}");
        assert_eq!(plain["runs"][0]["token_ids"], doc["runs"][0]["token_ids"]);
    }
}

#[test]
fn the_text_output_lists_each_layers_favourites_under_the_step() {
    let model = fixtures().join("models/tiny");
    let text = decode(&args(model.to_str().unwrap(), &["--lens"]));
    let layer_lines = text
        .lines()
        .filter(|l| l.trim_start().starts_with("layer "))
        .count();
    // tiny has 2 layers; 5 greedy steps (the beam lane has none).
    assert_eq!(layer_lines, 2 * 5, "{text}");
    assert!(text.contains("chosen "), "{text}");
}
