//! Checkpoints as they come: both HF key layouts, old buffers, every storage
//! dtype — and broken files, each refused with a message naming the problem.

mod common;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use common::*;
use ntl_engine::LoadError;

const PROMPT: &[u32] = &[464, 1266, 835, 284, 2193, 8300, 318];

fn load_err(f: &Files) -> LoadError {
    match f.load() {
        Ok(_) => panic!("expected the checkpoint to be refused"),
        Err(e) => e,
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn keys_without_prefix_and_attn_bias_buffers_load_to_the_same_logits() {
    let base = files("tiny");
    let want = base.load().unwrap().logits(PROMPT).unwrap();
    let cfg: serde_json::Value = serde_json::from_slice(&base.config).unwrap();
    let p = cfg["n_positions"].as_u64().unwrap() as usize;
    let mask: Vec<u8> = (0..p * p)
        .flat_map(|i| if i % p <= i / p { 1.0f32 } else { 0.0 }.to_le_bytes())
        .collect();
    let mut extra = vec![];
    for l in 0..2 {
        extra.push((
            format!("h.{l}.attn.bias"),
            safetensors::Dtype::F32,
            vec![1, 1, p, p],
            mask.clone(),
        ));
        extra.push((
            format!("h.{l}.attn.masked_bias"),
            safetensors::Dtype::F32,
            vec![],
            (-1e4f32).to_le_bytes().to_vec(),
        ));
    }
    let gpt2_layout = Files {
        weights: rewrite_safetensors(
            &base.weights,
            |k| Some(k.strip_prefix("transformer.").unwrap_or(k).to_string()),
            extra,
        ),
        ..files("tiny")
    };
    let got = gpt2_layout
        .load()
        .expect("original GPT-2 layout loads")
        .logits(PROMPT)
        .unwrap();
    assert_eq!(got, want);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn truncated_download_is_named_as_such() {
    let mut f = files("tiny");
    f.weights.truncate(f.weights.len() / 2);
    let e = load_err(&f);
    assert_eq!(e.file(), "model.safetensors");
    assert!(e.to_string().contains("truncated"), "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_file_that_is_not_safetensors_is_refused() {
    for junk in [
        b"<html>Not Found</html>".to_vec(),
        vec![0u8; 3],
        b"\xff\xff\xff\xff\xff\xff\xff\xffjunk".to_vec(),
    ] {
        let f = Files {
            weights: junk,
            ..files("tiny")
        };
        assert_eq!(load_err(&f).file(), "model.safetensors");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_header_that_lies_about_offsets_is_refused() {
    let mut f = files("tiny");
    let n = u64::from_le_bytes(f.weights[..8].try_into().unwrap()) as usize;
    let header = String::from_utf8(f.weights[8..8 + n].to_vec()).unwrap();
    // Point the first tensor's data past the end of the file.
    let lie = header.replacen("\"data_offsets\":[0,", "\"data_offsets\":[999999999,", 1);
    assert_ne!(lie, header);
    let mut bytes = (lie.len() as u64).to_le_bytes().to_vec();
    bytes.extend(lie.as_bytes());
    bytes.extend(&f.weights[8 + n..]);
    f.weights = bytes;
    let e = load_err(&f);
    assert_eq!(e.file(), "model.safetensors", "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_missing_tensor_is_named() {
    let base = files("tiny");
    let f = Files {
        weights: rewrite_safetensors(
            &base.weights,
            |k| (k != "transformer.h.1.mlp.c_fc.weight").then(|| k.to_string()),
            vec![],
        ),
        ..files("tiny")
    };
    let e = load_err(&f);
    assert!(e.to_string().contains("h.1.mlp.c_fc.weight"), "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn weights_that_do_not_match_the_config_say_which_tensor_and_why() {
    let mut f = files("tiny");
    let mut cfg: serde_json::Value = serde_json::from_slice(&f.config).unwrap();
    cfg["n_embd"] = 64.into();
    f.config = serde_json::to_vec(&cfg).unwrap();
    let e = load_err(&f);
    assert!(
        e.to_string().contains("has shape") && e.to_string().contains("n_embd=64"),
        "{e}"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_family_this_engine_does_not_run_is_refused_by_name() {
    let f = Files {
        config: br#"{"model_type": "mistral", "hidden_size": 4096, "num_hidden_layers": 32}"#
            .to_vec(),
        ..files("tiny")
    };
    let e = load_err(&f);
    assert_eq!(e.file(), "config.json");
    assert!(e.to_string().contains("`mistral` model"), "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn gpt2_weights_under_a_llama_config_name_the_tensor_they_lack() {
    let f = Files {
        config: files("tiny-llama").config,
        ..files("tiny")
    };
    let e = load_err(&f);
    assert_eq!(e.file(), "model.safetensors");
    assert!(
        e.to_string()
            .contains("has no tensor `model.embed_tokens.weight`; does this checkpoint belong"),
        "{e}"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn an_untied_head_missing_from_the_file_is_named() {
    let mut f = files("tiny-llama");
    let mut cfg: serde_json::Value = serde_json::from_slice(&f.config).unwrap();
    cfg["tie_word_embeddings"] = false.into();
    f.config = serde_json::to_vec(&cfg).unwrap();
    let e = load_err(&f);
    assert!(
        e.to_string().contains("has no tensor `lm_head.weight`"),
        "{e}"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_sentencepiece_tokenizer_is_refused_with_what_is_read() {
    let mut f = files("tiny-llama");
    let mut tok: serde_json::Value = serde_json::from_slice(&f.tokenizer).unwrap();
    tok["decoder"] = serde_json::json!({"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"String": "\u{2581}"}, "content": " "},
        {"type": "ByteFallback"}, {"type": "Fuse"}]});
    f.tokenizer = serde_json::to_vec(&tok).unwrap();
    let e = load_err(&f);
    assert_eq!(e.file(), "tokenizer.json");
    assert!(e.to_string().contains("SentencePiece-style"), "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn tokenizer_larger_than_the_model_vocabulary_is_refused() {
    let mut f = files("tiny");
    let mut cfg: serde_json::Value = serde_json::from_slice(&f.config).unwrap();
    cfg["vocab_size"] = 1000.into();
    cfg["bos_token_id"] = 0.into();
    cfg["eos_token_id"] = 0.into();
    f.config = serde_json::to_vec(&cfg).unwrap();
    let e = load_err(&f);
    assert_eq!(e.file(), "tokenizer.json");
    assert!(e.to_string().contains("do not belong together"), "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn malformed_and_non_bpe_tokenizers_are_refused() {
    let f = Files {
        tokenizer: b"{ not json".to_vec(),
        ..files("tiny")
    };
    assert_eq!(load_err(&f).file(), "tokenizer.json");
    let wordpiece = br###"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],"normalizer":null,"pre_tokenizer":null,"post_processor":null,"decoder":null,"model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":100,"vocab":{"[UNK]":0,"a":1}}}"###;
    let f = Files {
        tokenizer: wordpiece.to_vec(),
        ..files("tiny")
    };
    let e = load_err(&f);
    assert!(e.to_string().contains("WordPiece"), "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn model_info_reports_shapes_and_storage() {
    let e = engine("tiny");
    let info = e.info();
    assert_eq!(
        (
            info.n_layer,
            info.n_head,
            info.n_embd,
            info.vocab_size,
            info.n_positions
        ),
        (2, 4, 32, 50257, 64)
    );
    assert_eq!(info.storage_dtype, "F16");
    assert_eq!(engine("tiny-bf16").info().storage_dtype, "BF16");
    assert!(info.parameters > 50257 * 32);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_huge_header_is_refused_without_allocating_it() {
    let mut f = files("tiny");
    f.weights[..8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let e = load_err(&f);
    assert_eq!(e.file(), "model.safetensors");
    assert!(e.to_string().contains("header"), "{e}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_missing_or_malformed_config_is_named() {
    for bad in [
        &b""[..],
        b"{ \"n_layer\": ",
        b"[]",
        br#"{"model_type": "gpt2", "n_layer": "six"}"#,
        br#"{"model_type": "gpt2", "n_embd": 100, "n_head": 3}"#,
    ] {
        let f = Files {
            config: bad.to_vec(),
            ..files("tiny")
        };
        let e = load_err(&f);
        assert_eq!(e.file(), "config.json", "{}", String::from_utf8_lossy(bad));
        assert!(!e.to_string().is_empty());
    }
}

/// The fixture's `tokenizer.json` written out as the older pair of files.
fn vocab_and_merges(tokenizer_json: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let t: serde_json::Value = serde_json::from_slice(tokenizer_json).unwrap();
    let vocab = serde_json::to_vec(&t["model"]["vocab"]).unwrap();
    let mut merges = String::from("#version: 0.2\n");
    for m in t["model"]["merges"].as_array().unwrap() {
        match m {
            serde_json::Value::String(s) => merges += s,
            pair => {
                merges += &format!(
                    "{} {}",
                    pair[0].as_str().unwrap(),
                    pair[1].as_str().unwrap()
                )
            }
        }
        merges.push('\n');
    }
    (vocab, merges.into_bytes())
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn vocab_json_and_merges_txt_make_the_same_tokenizer_as_tokenizer_json() {
    use ntl_engine::tokenizer::TextTokenizer;
    let base = files("tiny");
    let (vocab, merges) = vocab_and_merges(&base.tokenizer);
    let made = ntl_engine::tokenizer_files::gpt2_tokenizer_json(&vocab, &merges).unwrap();
    let want = TextTokenizer::from_bytes(&base.tokenizer, 50257).unwrap();
    let got = TextTokenizer::from_bytes(&made, 50257).unwrap();
    for text in [
        "The best way to learn programming is",
        "  leading spaces, tabs\tand\nnew lines\n\n",
        "Emoji 🤗 and CJK 漢字 split into bytes; ünïcödé",
        "<|endoftext|>typed in is the special token<|endoftext|>",
        "numbers 1234567 and 3.14159, punctuation!?… it's we'll they're",
    ] {
        assert_eq!(
            got.encode(text).unwrap(),
            want.encode(text).unwrap(),
            "{text:?}"
        );
    }
    let (g, w) = (got.vocab_arc(), want.vocab_arc());
    assert_eq!(g.len(), w.len());
    for id in 0..w.len() as u32 {
        assert_eq!(
            (g.bytes(id), g.display(id)),
            (w.bytes(id), w.display(id)),
            "token {id}"
        );
    }
    // And a model loads with it.
    let engine = Files {
        tokenizer: made,
        ..files("tiny")
    }
    .load()
    .unwrap();
    assert_eq!(
        engine.encode("In the beginning").unwrap(),
        want.encode("In the beginning").unwrap()
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn broken_vocab_json_or_merges_txt_are_named() {
    let base = files("tiny");
    let (vocab, merges) = vocab_and_merges(&base.tokenizer);
    let make = ntl_engine::tokenizer_files::gpt2_tokenizer_json;
    let e = make(b"[1, 2]", &merges).unwrap_err().to_string();
    assert!(e.contains("vocab.json is not a JSON object"), "{e}");
    let e = make(&vocab, b"#version: 0.2\n\xc4\xa0 t extra\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("merges.txt line 2"), "{e}");
    // A merge of tokens the vocabulary lacks: the tokenizer library refuses it.
    let e = make(&vocab, b"#version: 0.2\nqqqzz xyzzy\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("merges do not fit its vocabulary"), "{e}");
}

/// The fixture's weights split in two files: the embeddings and first block
/// in one, the rest in the other (as `model-0000i-of-00002.safetensors`).
fn two_shards(weights: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let first = |k: &str| k.contains("wte") || k.contains("wpe") || k.contains("h.0.");
    let a = rewrite_safetensors(weights, |k| first(k).then(|| k.to_string()), vec![]);
    let b = rewrite_safetensors(weights, |k| (!first(k)).then(|| k.to_string()), vec![]);
    (a, b)
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_sharded_checkpoint_loads_to_the_same_logits() {
    let base = files("tiny");
    let want = base.load().unwrap().logits(PROMPT).unwrap();
    let (a, b) = two_shards(&base.weights);
    assert!(a.len() < base.weights.len() && b.len() < base.weights.len());
    let engine = ntl_engine::Engine::load_sharded(
        &base.config,
        &[&a.as_slice(), &b.as_slice()],
        &base.tokenizer,
    )
    .unwrap();
    assert_eq!(engine.logits(PROMPT).unwrap(), want);
    assert_eq!(engine.info().weight_bytes, a.len() + b.len());
    // The order of the shards does not matter.
    let swapped = ntl_engine::Engine::load_sharded(
        &base.config,
        &[&b.as_slice(), &a.as_slice()],
        &base.tokenizer,
    )
    .unwrap();
    assert_eq!(swapped.logits(PROMPT).unwrap(), want);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn broken_shards_are_named_by_number() {
    let base = files("tiny");
    let (a, b) = two_shards(&base.weights);
    let load = |shards: &[&dyn ntl_engine::WeightSource]| {
        ntl_engine::Engine::load_sharded(&base.config, shards, &base.tokenizer)
            .err()
            .expect("refused")
            .to_string()
    };
    let cut = &b[..b.len() / 2];
    let e = load(&[&a.as_slice(), &cut]);
    assert!(
        e.starts_with("model.safetensors: shard 2 of 2 is truncated"),
        "{e}"
    );
    let e = load(&[&a.as_slice(), &a.as_slice()]);
    assert!(e.contains("is in two shards"), "{e}");
    let e = load(&[&a.as_slice()]);
    assert!(e.contains("has no tensor `h.1."), "{e}");
}
