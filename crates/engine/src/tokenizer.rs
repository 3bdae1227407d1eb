//! `tokenizer.json` through the `tokenizers` crate, plus every token's bytes
//! for tables, streaming and stop strings.

use crate::error::{LoadError, PromptError};
use ntl_decoding::Vocab;
use std::sync::Arc;
use tokenizers::models::ModelWrapper;
use tokenizers::DecoderWrapper;
use tokenizers::Tokenizer;

pub struct TextTokenizer {
    inner: Tokenizer,
    vocab: Arc<Vocab>,
}

fn err(m: impl Into<String>) -> LoadError {
    LoadError::tokenizer(m)
}

impl TextTokenizer {
    pub fn from_bytes(bytes: &[u8], model_vocab: usize) -> Result<TextTokenizer, LoadError> {
        let inner = Tokenizer::from_bytes(bytes).map_err(|e| LoadError::Tokenizer {
            message: format!("is not a valid tokenizer.json ({e})"),
            source: Some(e),
        })?;
        TextTokenizer::from_tokenizer(inner, model_vocab)
    }

    /// A tokenizer already built (a GGUF file's own), checked as a
    /// `tokenizer.json` is: byte-level BPE, no more tokens than the model's.
    pub fn from_tokenizer(
        inner: Tokenizer,
        model_vocab: usize,
    ) -> Result<TextTokenizer, LoadError> {
        let kind = match inner.get_model() {
            ModelWrapper::BPE(_) => None,
            ModelWrapper::WordPiece(_) => Some("WordPiece"),
            ModelWrapper::WordLevel(_) => Some("WordLevel"),
            ModelWrapper::Unigram(_) => Some("Unigram"),
        };
        if let Some(kind) = kind {
            return Err(err(format!(
                "uses a {kind} model; this engine reads byte-level BPE tokenizers \
                 (GPT-2's, SmolLM2's, Qwen2's)"
            )));
        }
        if inner.get_decoder().is_some_and(|d| !byte_level(d)) {
            return Err(err(
                "is a SentencePiece-style BPE (its decoder is not byte-level); this engine \
                 reads byte-level BPE tokenizers (GPT-2's, SmolLM2's, Qwen2's)",
            ));
        }
        // Each token's text is asked for by id, one at a time, instead of a
        // copy of the whole vocabulary (`get_vocab`) and a list of its
        // strings alive at once under the weights: with the flat token bytes,
        // 3.8 MB less worker memory after loading a 91 MB GPT-2 GGUF file.
        let special: std::collections::HashSet<u32> = inner
            .get_added_tokens_decoder()
            .into_iter()
            .filter(|(_, t)| t.special)
            .map(|(id, _)| id)
            .collect();
        let mut found = 0;
        let vocab = Vocab::from_byte_level_fn(model_vocab, |id| {
            let id = id as u32;
            let text = inner.id_to_token(id)?;
            found += 1;
            Some((text.into(), special.contains(&id)))
        });
        if found < inner.get_vocab_size(true) {
            // Some token's id is past the model's (or two tokens share an
            // id): the whole vocabulary decides which, off the usual path.
            let size = inner
                .get_vocab(true)
                .values()
                .map(|&id| id as usize + 1)
                .max()
                .unwrap_or(0);
            if size > model_vocab {
                return Err(err(format!(
                    "has {size} tokens but the model's vocabulary has {model_vocab}: \
                     they do not belong together"
                )));
            }
        }
        if found == 0 {
            return Err(err("has an empty vocabulary"));
        }
        Ok(TextTokenizer {
            inner,
            vocab: Arc::new(vocab),
        })
    }

    /// Token ids of a text; `<|endoftext|>` typed in the text is the special token, as in HF.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, PromptError> {
        self.inner
            .encode(text, false)
            .map(|e| e.get_ids().to_vec())
            .map_err(PromptError::Tokenize)
    }

    /// Tokens the tokenizer knows, added ones included.
    pub fn token_count(&self) -> usize {
        self.inner.get_vocab_size(true)
    }

    pub fn vocab_arc(&self) -> Arc<Vocab> {
        self.vocab.clone()
    }
}

/// Whether tokens decode as byte-level BPE does (each token's characters
/// standing for bytes), which is what the step tables' bytes assume.
fn byte_level(d: &DecoderWrapper) -> bool {
    match d {
        DecoderWrapper::ByteLevel(_) => true,
        DecoderWrapper::Sequence(s) => s.get_decoders().iter().any(byte_level),
        _ => false,
    }
}
