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
fn a_llama_config_is_refused_by_name() {
    let f = Files {
        config: br#"{"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32}"#
            .to_vec(),
        ..files("tiny")
    };
    let e = load_err(&f);
    assert_eq!(e.file(), "config.json");
    assert!(e.to_string().contains("llama"), "{e}");
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
