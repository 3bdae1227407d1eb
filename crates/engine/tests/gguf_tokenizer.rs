//! The tokenizer a `.gguf` file carries, read from its metadata when no
//! `tokenizer.json` sits beside it, against llama.cpp's own ids on the same
//! file (fixtures by tests/reference/make_gguf_fixtures.py: the committed
//! GPT-2 file with `tokenizer.ggml.pre` set to each name the engine maps,
//! tokenized by llama-cpp-python 0.3.36 with special tokens parsed, as the
//! page parses a prompt).

mod common;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use candle_core::quantized::gguf_file::{Content, Value};
use common::*;
use ntl_engine::gguf_tokenizer::tokenizer;
use ntl_engine::tokenizer::TextTokenizer;
use ntl_engine::Engine;

const GPT2: &[u8] = include_bytes!("../../../tests/fixtures/gguf/gpt2-q8_0.gguf");
const QWEN2: &[u8] = include_bytes!("../../../tests/fixtures/gguf/qwen2-q4_k_m.gguf");
const LLAMA: &[u8] = include_bytes!("../../../tests/fixtures/gguf/llama-q4_0.gguf");
const VOCAB: usize = 50257;

fn content(bytes: &[u8]) -> Content {
    Content::read(&mut std::io::Cursor::new(bytes)).expect("the fixture's header reads")
}

fn with_pre(pre: &str) -> Content {
    let mut c = content(GPT2);
    c.metadata
        .insert("tokenizer.ggml.pre".into(), Value::String(pre.into()));
    c
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn each_pre_tokenizer_name_splits_text_into_llama_cpps_ids() {
    let fixture: serde_json::Value = serde_json::from_slice(include_bytes!(
        "../../../tests/fixtures/gguf/pre_tokenizers.json"
    ))
    .expect("pre_tokenizers.json parses");
    let texts: Vec<&str> = fixture["texts"]
        .as_array()
        .expect("texts")
        .iter()
        .map(|t| t.as_str().expect("a text"))
        .collect();
    let by_name = fixture["ids"].as_object().expect("ids by name");
    assert_eq!(by_name.len(), 5, "gpt-2, default, smollm, qwen2, llama-bpe");
    let mut wrong = Vec::new();
    for (pre, want) in by_name {
        let own = tokenizer(&with_pre(pre)).unwrap_or_else(|e| panic!("{pre}: {e}"));
        let tokenizer = TextTokenizer::from_tokenizer(own, VOCAB).expect("a tokenizer");
        for (text, want) in texts.iter().zip(want.as_array().expect("ids per text")) {
            let got = tokenizer.encode(text).expect("encodes");
            if got != ids(want) {
                wrong.push(format!("{pre} {text:?}: {got:?} ≠ llama.cpp {want}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn names_that_split_alike_in_llama_cpp_give_the_same_ids() {
    // Distinct names llama.cpp groups with the ones measured above.
    let text = "I'M 12345678 x+=y\n\n  tabs\t";
    let encode = |pre: &str| {
        let own = tokenizer(&with_pre(pre)).unwrap_or_else(|e| panic!("{pre}: {e}"));
        TextTokenizer::from_tokenizer(own, VOCAB)
            .map(|t| t.encode(text).expect("encodes"))
            .expect("a tokenizer")
    };
    for (name, like) in [
        ("llama3", "llama-bpe"),
        ("deepseek-r1-qwen", "qwen2"),
        ("starcoder", "smollm"),
        ("phi-2", "gpt-2"),
    ] {
        assert_eq!(encode(name), encode(like), "{name} splits as {like}");
    }
    assert_ne!(encode("smollm"), encode("gpt-2"), "the text parts them");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_gguf_file_alone_runs_with_its_own_tokenizer_as_with_the_json_beside_it() {
    let beside = files("tiny").tokenizer;
    let text = "The quick brown fox jumps over the lazy dog. 1234<|endoftext|>";
    for gguf in [GPT2, LLAMA, QWEN2] {
        let own = Engine::load_gguf(&gguf, None).expect("loads without tokenizer.json");
        let json = Engine::load_gguf(&gguf, Some(&beside)).expect("loads with it");
        assert_eq!(own.encode(text).unwrap(), json.encode(text).unwrap());
        assert_eq!(
            own.encode(text).unwrap().last(),
            Some(&50256),
            "the control token typed is the special token"
        );
        let (a, b) = (own.tokenizer_vocab(), json.tokenizer_vocab());
        assert_eq!(a.len(), b.len());
        for id in 0..a.len() as u32 {
            assert_eq!(a.bytes(id), b.bytes(id), "token {id}'s bytes");
        }
        let prompt = own.encode("In the beginning").unwrap();
        assert_eq!(own.logits(&prompt).unwrap(), json.logits(&prompt).unwrap());
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_tokenizer_the_engine_cannot_read_is_named_with_what_to_do() {
    let refused = |c: Content| tokenizer(&c).expect_err("refused").to_string();
    let e = refused(with_pre("chatglm-bpe"));
    assert!(
        e.contains("`chatglm-bpe`") && e.contains("tokenizer.json beside"),
        "{e}"
    );
    let mut spm = content(GPT2);
    spm.metadata
        .insert("tokenizer.ggml.model".into(), Value::String("llama".into()));
    let e = refused(spm);
    assert!(e.contains("`llama`") && e.contains("byte-level BPE"), "{e}");
    let mut bare = content(GPT2);
    bare.metadata.retain(|k, _| !k.starts_with("tokenizer."));
    let e = refused(bare);
    assert!(
        e.contains("is missing") && e.contains("tokenizer.json"),
        "{e}"
    );
    let mut odd = content(GPT2);
    odd.metadata.insert(
        "tokenizer.ggml.token_type".into(),
        Value::Array(vec![Value::I32(1); 3]),
    );
    let e = refused(odd);
    assert!(e.contains("50257 tokens but 3 token types"), "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_fuzzed_check_reads_the_files_own_tokenizer_too() {
    for gguf in [GPT2, LLAMA, QWEN2] {
        assert!(ntl_engine::check_gguf(gguf).expect("checks") > 0);
    }
}
