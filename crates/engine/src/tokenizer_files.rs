//! A GPT-2 `tokenizer.json` made from the older pair of files, `vocab.json`
//! and `merges.txt`, that many fine-tuned GPT-2 repos ship instead: the same
//! tokenizer `transformers` builds from them (its GPT-2 slow-to-fast
//! converter): byte-level BPE, the byte-level pre-tokenizer without a prefix
//! space, `<|endoftext|>` as the special token.

use crate::error::LoadError;

use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::{AddedToken, Tokenizer};

const ENDOFTEXT: &str = "<|endoftext|>";

fn err(m: impl Into<String>) -> LoadError {
    LoadError::tokenizer(format!(
        "(made from vocab.json and merges.txt) {}",
        m.into()
    ))
}

/// `tokenizer.json`'s bytes for `vocab.json` and `merges.txt`, built with the
/// `tokenizers` crate's BPE builder as `transformers`' converter builds it.
pub fn gpt2_tokenizer_json(vocab: &[u8], merges: &[u8]) -> Result<Vec<u8>, LoadError> {
    let vocab: Vocab = serde_json::from_slice(vocab).map_err(|e| {
        err(format!(
            "vocab.json is not a JSON object of token → id, each id a whole number ({e})"
        ))
    })?;
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
        pairs.push((a.to_string(), b.to_string()));
    }
    let endoftext = vocab.contains_key(ENDOFTEXT);
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, pairs)
        .build()
        .map_err(|e| err(format!("its merges do not fit its vocabulary ({e})")))?;
    let mut tokenizer = Tokenizer::new(bpe);
    tokenizer
        .with_pre_tokenizer(Some(ByteLevel::new(false, true, true)))
        .with_post_processor(Some(ByteLevel::new(true, false, true)))
        .with_decoder(Some(ByteLevel::new(true, true, true)));
    if endoftext {
        let special = AddedToken::from(ENDOFTEXT, true).normalized(true);
        tokenizer
            .add_special_tokens([special])
            .map_err(|e| err(format!("{ENDOFTEXT} cannot be its special token ({e})")))?;
    }
    let json = tokenizer
        .to_string(false)
        .map_err(|e| err(format!("could not be written as tokenizer.json ({e})")))?;
    Ok(json.into_bytes())
}
