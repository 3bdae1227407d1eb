//! `decode --model` takes llama.cpp's files: a `.gguf` file named itself, or
//! alone in its folder, with the `tokenizer.json` beside it.

use ntl_cli::model_dir::{self, ModelDirError};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn a_gguf_file_named_itself_loads_and_says_its_type() {
    let engine = model_dir::load(&fixtures().join("gguf/gpt2-q8_0.gguf")).unwrap();
    assert_eq!(engine.info().storage_dtype, "GGUF Q8_0");
    assert_eq!(engine.info().architecture, "GPT2LMHeadModel");
}

#[test]
fn a_folder_holding_one_gguf_file_loads_it() {
    let dir = std::env::temp_dir().join(format!("ntl-gguf-one-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["llama-q4_0.gguf", "tokenizer.json"] {
        std::fs::copy(fixtures().join("gguf").join(name), dir.join(name)).unwrap();
    }
    let engine = model_dir::load(&dir).unwrap();
    assert_eq!(engine.info().storage_dtype, "GGUF Q4_0");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_of_several_gguf_files_asks_which() {
    let e = match model_dir::load(&fixtures().join("gguf")) {
        Err(e @ ModelDirError::SeveralGguf { .. }) => e.to_string(),
        other => panic!("expected a question, got {:?}", other.map(|_| ())),
    };
    assert!(
        e.contains("gpt2-q8_0.gguf, llama-q4_0.gguf, qwen2-q4_k_m.gguf") && e.contains("--model"),
        "{e}"
    );
}
