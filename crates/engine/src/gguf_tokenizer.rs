//! The tokenizer a `.gguf` file carries in its metadata (`tokenizer.ggml.*`),
//! built as the `tokenizer.json` that gives llama.cpp's ids would build it:
//! used when no `tokenizer.json` sits beside the file, as llama.cpp itself
//! needs none.
//!
//! llama.cpp names the pre-tokenizer (`tokenizer.ggml.pre`) and keeps a list
//! of regular expressions for each name (`llm_tokenizer_bpe` in
//! `llama-vocab.cpp`); each expression splits the pieces the previous one
//! left, keeping what it matched and what lies between. That is the
//! `tokenizers` crate's `Split` with the `Isolated` behaviour, so a name
//! becomes a sequence of splits followed by the byte-level mapping.

use crate::error::LoadError;

use candle_core::quantized::gguf_file::{Content, Value};
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{AddedToken, PreTokenizerWrapper, SplitDelimiterBehavior, Tokenizer};

/// GPT-2's expression: ByteLevel's own when it runs alone.
const GPT2: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)";
const QWEN2: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const LLAMA3: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// llama.cpp's token types (`llama_token_type`).
const CONTROL: i32 = 3;
const USER_DEFINED: i32 = 4;

/// How a named pre-tokenizer splits text before the byte-level mapping.
struct PreSplit {
    regexes: &'static [&'static str],
    /// A pre-tokenized piece found whole in the vocabulary is taken as it is.
    ignore_merges: bool,
}

/// The `tokenizer.ggml.pre` names this reader knows, as llama.cpp groups
/// them (those whose files this page runs: GPT-2, SmolLM, Qwen2, Llama 3).
fn pre_split(name: &str) -> Option<PreSplit> {
    let split = |regexes, ignore_merges| {
        Some(PreSplit {
            regexes,
            ignore_merges,
        })
    };
    match name {
        // A file written without a name: llama.cpp warns and splits so.
        "" | "default" => split(
            &[r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", "[0-9][0-9][0-9]"],
            false,
        ),
        "gpt-2" | "phi-2" | "mpt" | "olmo" | "jina-es" | "jina-de" | "jina-v2-es"
        | "jina-v2-de" | "roberta-bpe" => split(&[GPT2], false),
        // SmolLM2 and the starcoder family: every digit alone.
        "smollm" | "starcoder" | "refact" | "command-r" | "codeshell" | "exaone" | "minerva-7b" => {
            split(&[r"\p{N}", GPT2], false)
        }
        "qwen2" | "deepseek-r1-qwen" | "stablelm2" => split(&[QWEN2], false),
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "pixtral" => split(&[LLAMA3], true),
        _ => None,
    }
}

const KNOWN: &str = "gpt-2, smollm, qwen2, llama-bpe, default";

fn err(m: impl Into<String>) -> LoadError {
    LoadError::tokenizer(format!(
        "(read from the .gguf file's metadata) {}",
        m.into()
    ))
}

fn strings<'c>(content: &'c Content, key: &str) -> Result<Vec<&'c str>, LoadError> {
    let Some(value) = content.metadata.get(key) else {
        return Err(err(format!("has no `{key}`")));
    };
    let items = value
        .to_vec()
        .map_err(|_| err(format!("`{key}` is not a list")))?;
    items
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::String(s) => Ok(s.as_str()),
            _ => Err(err(format!("`{key}` item {i} is not text"))),
        })
        .collect()
}

/// The tokenizer a `.gguf` file describes, or a message saying why the
/// file's own tokenizer cannot be used here (and that a `tokenizer.json`
/// beside the file would be). Built directly, not written as JSON and read
/// back: that round trip held the text and a second parse's tables at once.
pub fn tokenizer(content: &Content) -> Result<Tokenizer, LoadError> {
    let model = match content.metadata.get("tokenizer.ggml.model") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(err("`tokenizer.ggml.model` is not text")),
        None => return Err(err(
            "is missing (`tokenizer.ggml.model`): put the model's tokenizer.json beside the file",
        )),
    };
    if model != "gpt2" {
        return Err(err(format!(
            "is of llama.cpp's kind `{model}`; this engine reads byte-level BPE tokenizers \
             (`gpt2` in a GGUF file: GPT-2's, SmolLM2's, Qwen2's, Llama 3's) — put the model's \
             tokenizer.json beside the file"
        )));
    }
    let pre_name = match content.metadata.get("tokenizer.ggml.pre") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(err("`tokenizer.ggml.pre` is not text")),
        None => "",
    };
    let Some(pre) = pre_split(pre_name) else {
        return Err(err(format!(
            "splits text with llama.cpp's pre-tokenizer `{pre_name}`, which this page does not \
             know (it knows {KNOWN}); put the model's tokenizer.json beside the file"
        )));
    };
    let tokens = strings(content, "tokenizer.ggml.tokens")?;
    let merges = strings(content, "tokenizer.ggml.merges")?;
    let types: Vec<i32> = match content.metadata.get("tokenizer.ggml.token_type") {
        None => vec![1; tokens.len()],
        Some(v) => v
            .to_vec()
            .map_err(|_| err("`tokenizer.ggml.token_type` is not a list"))?
            .iter()
            .map(|t| t.to_i32())
            .collect::<Result<_, _>>()
            .map_err(|_| err("`tokenizer.ggml.token_type` holds something other than numbers"))?,
    };
    if types.len() != tokens.len() {
        return Err(err(format!(
            "names {} tokens but {} token types",
            tokens.len(),
            types.len()
        )));
    }
    // A string listed twice keeps its last id, as llama.cpp's lookup does.
    let vocab: Vocab = tokens
        .iter()
        .enumerate()
        .map(|(id, t)| (t.to_string(), id as u32))
        .collect();
    let mut pairs = Vec::with_capacity(merges.len());
    for (n, m) in merges.iter().enumerate() {
        let Some((a, b)) = m.split_once(' ') else {
            return Err(err(format!(
                "merge {n} is `{m}`; each merge is two tokens and one space"
            )));
        };
        pairs.push((a.to_string(), b.to_string()));
    }
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, pairs)
        .ignore_merges(pre.ignore_merges)
        .build()
        .map_err(|e| err(format!("its merges do not fit its vocabulary ({e})")))?;
    let mut tokenizer = Tokenizer::new(bpe);
    tokenizer
        .with_pre_tokenizer(Some(pre_tokenizer(&pre)?))
        .with_decoder(Some(ByteLevel::new(true, true, true)));
    // Control tokens are special (and matched in a prompt, as the page's
    // HF tokenizers do); user-defined ones are always whole.
    let added = |kind: i32| -> Vec<AddedToken> {
        tokens
            .iter()
            .zip(&types)
            .filter(|(_, &t)| t == kind)
            .map(|(tok, _)| AddedToken::from(tok.to_string(), kind == CONTROL))
            .collect()
    };
    tokenizer
        .add_special_tokens(added(CONTROL))
        .map_err(|e| err(format!("its control tokens cannot be special tokens ({e})")))?;
    tokenizer
        .add_tokens(added(USER_DEFINED))
        .map_err(|e| err(format!("its user-defined tokens cannot be added ({e})")))?;
    Ok(tokenizer)
}

fn pre_tokenizer(pre: &PreSplit) -> Result<PreTokenizerWrapper, LoadError> {
    // GPT-2's expression alone is ByteLevel's own: the plain form HF writes.
    if pre.regexes == [GPT2] {
        return Ok(ByteLevel::new(false, true, true).into());
    }
    let mut steps = Vec::with_capacity(pre.regexes.len() + 1);
    for r in pre.regexes {
        let split = Split::new(
            SplitPattern::Regex(r.to_string()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
        .map_err(|e| {
            err(format!(
                "its pre-tokenizer's expression does not compile ({e})"
            ))
        })?;
        steps.push(split.into());
    }
    steps.push(ByteLevel::new(false, true, false).into());
    Ok(Sequence::new(steps).into())
}
