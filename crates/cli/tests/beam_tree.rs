//! The beam tree of `decode --json`'s steps on the bundled model, kept as
//! `tests/fixtures/native-beam-tree.json`: the browser suites check the
//! page draws this same tree (Chromium and Firefox). `NTL_BLESS=1` rewrites
//! the file after a deliberate change.

use ntl_decoding::beam_tree::{BeamFate, BeamTree};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const PROMPT: &str = "In the beginning";
const CONFIG: &str = r#"{"num_beams": 3, "num_return_sequences": 2, "max_new_tokens": 8}"#;

#[test]
fn the_bundled_models_beam_tree_is_the_one_the_browsers_are_checked_against() {
    let model = root().join("www/models/kjv-gpt2");
    let out = Command::new(env!("CARGO_BIN_EXE_decode"))
        .args(["--model", model.to_str().unwrap(), "--prompt", PROMPT])
        .args(["--config", CONFIG, "--json"])
        .output()
        .expect("decode runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: ntl_decoding::Document = serde_json::from_slice(&out.stdout).unwrap();
    let run = &doc.runs[0];
    let tree = BeamTree::build(&run.steps, &run.sequences).expect("beam steps");
    // What the lesson built on it says: beam search's answer begins with a
    // token only third at the first step, and greedy's first token is dropped.
    let first: Vec<(&str, BeamFate)> = tree
        .nodes
        .iter()
        .filter(|n| n.step == 0)
        .map(|n| (n.token.as_str(), n.fate))
        .collect();
    assert_eq!(first[2].0, ".");
    let answer_first = tree.nodes.iter().position(|n| n.on_answer).unwrap();
    assert_eq!(
        answer_first, 2,
        "the answer begins with the third continuation"
    );
    assert_eq!(
        tree.nodes.iter().filter(|n| n.returned.is_some()).count(),
        2
    );
    let fixture = serde_json::json!({
        "model": "www/models/kjv-gpt2",
        "prompt": PROMPT,
        "config": serde_json::from_str::<serde_json::Value>(CONFIG).unwrap(),
        "text": run.text,
        "tree": tree,
    });
    let path = root().join("tests/fixtures/native-beam-tree.json");
    if std::env::var_os("NTL_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&fixture).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
    }
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(
        kept, fixture,
        "the fixture is this tree (NTL_BLESS=1 rewrites it)"
    );
}
