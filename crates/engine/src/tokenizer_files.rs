//! A GPT-2 `tokenizer.json` made from the older pair of files, `vocab.json`
//! and `merges.txt`, that many fine-tuned GPT-2 repos ship instead: the same
//! tokenizer `transformers` builds from them (its GPT-2 slow-to-fast
//! converter): byte-level BPE, the byte-level pre-tokenizer without a prefix
//! space, `<|endoftext|>` as the special token.

use crate::error::LoadError;
use serde_json::{json, Map, Value};

const ENDOFTEXT: &str = "<|endoftext|>";

fn err(m: impl Into<String>) -> LoadError {
    LoadError::tokenizer(format!(
        "(made from vocab.json and merges.txt) {}",
        m.into()
    ))
}

/// `tokenizer.json`'s bytes for `vocab.json` and `merges.txt`.
pub fn gpt2_tokenizer_json(vocab: &[u8], merges: &[u8]) -> Result<Vec<u8>, LoadError> {
    let vocab: Map<String, Value> = serde_json::from_slice(vocab).map_err(|e| {
        err(format!(
            "vocab.json is not a JSON object of token → id ({e})"
        ))
    })?;
    if let Some((token, _)) = vocab.iter().find(|(_, id)| !id.is_u64()) {
        return Err(err(format!(
            "vocab.json gives `{token}` an id that is not a whole number"
        )));
    }
    let merges = std::str::from_utf8(merges).map_err(|_| err("merges.txt is not UTF-8 text"))?;
    let mut pairs = Vec::new();
    for (n, line) in merges.lines().enumerate() {
        // The first line is the format's version ("#version: 0.2").
        if line.trim().is_empty() || (n == 0 && line.starts_with("#version")) {
            continue;
        }
        let parts: Vec<&str> = line.split(' ').collect();
        let [a, b] = parts[..] else {
            return Err(err(format!(
                "merges.txt line {} is `{line}`; each merge is two tokens and one space",
                n + 1
            )));
        };
        pairs.push(json!([a, b]));
    }
    let byte_level = |prefix: bool, trim: bool| json!({"type": "ByteLevel", "add_prefix_space": prefix, "trim_offsets": trim, "use_regex": true});
    let added: Vec<Value> = vocab
        .get(ENDOFTEXT)
        .map(|id| {
            json!({"id": id, "content": ENDOFTEXT, "single_word": false, "lstrip": false,
                   "rstrip": false, "normalized": true, "special": true})
        })
        .into_iter()
        .collect();
    let doc = json!({
        "version": "1.0",
        "truncation": null,
        "padding": null,
        "added_tokens": added,
        "normalizer": null,
        "pre_tokenizer": byte_level(false, true),
        "post_processor": byte_level(true, false),
        "decoder": byte_level(true, true),
        "model": {
            "type": "BPE", "dropout": null, "unk_token": null,
            "continuing_subword_prefix": null, "end_of_word_suffix": null,
            "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
            "vocab": vocab, "merges": pairs,
        },
    });
    Ok(serde_json::to_vec(&doc).expect("a JSON value always serialises"))
}
