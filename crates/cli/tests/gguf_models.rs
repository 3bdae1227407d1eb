//! `decode --model` takes llama.cpp's files: a `.gguf` file named itself, or
//! alone in its folder, with the `tokenizer.json` beside it or, without
//! one, the tokenizer in the file's metadata (as llama.cpp needs no other).

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
        e.contains("gpt2-q8_0.gguf, llama-q4_0.gguf, llama-q5_k_m.gguf, qwen2-q4_k_m.gguf")
            && e.contains("--model"),
        "{e}"
    );
}

#[test]
fn a_folder_holding_only_a_gguf_file_tokenizes_with_the_files_own_tokenizer() {
    let dir = std::env::temp_dir().join(format!("ntl-gguf-alone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        fixtures().join("gguf/qwen2-q4_k_m.gguf"),
        dir.join("qwen2-q4_k_m.gguf"),
    )
    .unwrap();
    let alone = model_dir::load(&dir).unwrap();
    let beside = model_dir::load(&fixtures().join("gguf/qwen2-q4_k_m.gguf")).unwrap();
    let text = "The quick brown fox jumps over the lazy dog. 1234";
    assert_eq!(alone.encode(text).unwrap(), beside.encode(text).unwrap());
    assert_eq!(alone.encode(text).unwrap().len(), 12, "llama.cpp's 12 ids");
    std::fs::remove_dir_all(&dir).unwrap();
}
