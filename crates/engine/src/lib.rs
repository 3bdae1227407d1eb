//! The engine: a GPT-2 or Llama-family checkpoint loaded from bytes, driven
//! by `ntl-decoding`.
//! Builds natively (CLI, tests, benchmarks) and for wasm32 (the page's worker).

mod attention;
mod block_storage;
pub mod chat_template;
mod checkpoint;
pub mod error;
mod gelu;
mod gguf_config;
pub mod gguf_tokenizer;
mod gguf_weights;
mod gpt2;
mod kv_cache;
mod llama_family;
mod logit_lens;
mod matmul;
mod minigpt;
pub mod minigpt_import;
mod model;
pub mod model_config;
mod output;
// Public for its tests, which run natively and in wasm (`tests/kernel.rs`).
pub mod per_model;
pub mod q4_0_kernel;
pub mod q4_k_kernel;
pub mod q5_0_kernel;
pub mod q5_1_kernel;
pub mod q5_k_kernel;
pub mod q8_0_kernel;
mod q8_activation;
mod quantize_at_load;
mod quantized_matrix;
mod row_groups;
mod run;
pub mod shard_index;
// Public for its tests, which run natively and in wasm (`tests/kernel.rs`);
// natively the model uses candle's threaded gemm instead, which is faster there.
pub mod skinny_matmul;
pub mod tokenizer;
pub mod tokenizer_files;
pub mod torch_checkpoint;
mod torch_pickle;
mod tree_run;
mod weights;

pub use checkpoint::WeightSource;
pub use error::{LoadError, PromptError, RunError};
pub use kv_cache::KvCache;
pub use model_config::{Architecture, ModelConfig};
pub use quantize_at_load::Precision;
pub use run::{Prepared, RunInput};
pub use tree_run::{PreparedTree, TreeInput};

use candle_core::quantized::gguf_file::Content;
use model::Model;
use ntl_decoding::inspect::{predict, Prediction};
use ntl_decoding::{Exit, Forward, LanguageModel, ModelError, ModelInfo, Vocab};
use tokenizer::TextTokenizer;

/// The three files of an HF checkpoint, as bytes.
pub struct ModelFiles<'a> {
    pub config: &'a [u8],
    pub weights: &'a [u8],
    pub tokenizer: &'a [u8],
}

pub struct Engine {
    model: Model,
    tokenizer: TextTokenizer,
    info: ModelInfo,
    /// The repo's chat template, for an Instruct model.
    chat: Option<chat_template::ChatTemplate>,
}

impl Engine {
    pub fn load(files: ModelFiles) -> Result<Engine, LoadError> {
        Engine::load_from(files.config, &files.weights, files.tokenizer)
    }

    /// Loads with the weights read tensor by tensor from `weights` (the worker
    /// reads them from a JS buffer without copying the whole file into wasm).
    pub fn load_from(
        config: &[u8],
        weights: &dyn WeightSource,
        tokenizer: &[u8],
    ) -> Result<Engine, LoadError> {
        Engine::load_sharded(config, &[weights], tokenizer)
    }

    /// Loads weights split over several safetensors files (a sharded repo).
    pub fn load_sharded(
        config: &[u8],
        shards: &[&dyn WeightSource],
        tokenizer: &[u8],
    ) -> Result<Engine, LoadError> {
        Engine::load_sharded_as(config, shards, tokenizer, Precision::AsStored)
    }

    /// Loads a safetensors checkpoint with its matrices kept as `precision`
    /// says (8-bit at load: smaller, faster, slightly different probabilities).
    pub fn load_sharded_as(
        config: &[u8],
        shards: &[&dyn WeightSource],
        tokenizer: &[u8],
        precision: Precision,
    ) -> Result<Engine, LoadError> {
        let cfg = ModelConfig::from_json(config)?;
        // Weights first: after a model switch they take the holes the old
        // weights left, tensor for tensor. Built after the tokenizer, whose
        // tables landed in those holes first, the largest tensor no longer
        // fit and wasm memory (which never shrinks) grew by a model.
        // A tokenizer at odds with the config is still the error named
        // when the weights fail too: it says which file does not belong.
        let loaded = load_model(&cfg, shards, precision);
        let weight_bytes = shards.iter().map(|w| w.len()).sum();
        let tokenizer = TextTokenizer::from_bytes(tokenizer, cfg.vocab_size);
        Engine::assemble(cfg, loaded, weight_bytes, tokenizer)
    }

    /// Loads a `.gguf` file (llama.cpp's format): the config from its
    /// metadata, quantized matrices kept in their block format, with the
    /// repo's `tokenizer.json`, or without one the tokenizer the file's own
    /// metadata describes (as llama.cpp reads it).
    pub fn load_gguf(
        gguf: &dyn WeightSource,
        tokenizer: Option<&[u8]>,
    ) -> Result<Engine, LoadError> {
        let (cfg, tokenizer, loaded) = gguf_model(
            gguf,
            |content| match tokenizer {
                Some(bytes) => Ok(GgufTokenizer::Json(bytes)),
                None => gguf_tokenizer::tokenizer(content).map(|t| GgufTokenizer::Own(Box::new(t))),
            },
            |read, vocab| match read {
                GgufTokenizer::Json(bytes) => TextTokenizer::from_bytes(bytes, vocab),
                GgufTokenizer::Own(own) => TextTokenizer::from_tokenizer(*own, vocab),
            },
        )?;
        Engine::assemble(cfg, loaded, gguf.len(), Ok(tokenizer))
    }

    /// Loads a student's MiniGPT from its `torch.save` state dict
    /// (`minigpt.pt`), with the `config.json` beside it if any and the head
    /// count the page or the CLI was given (see [`minigpt_import`]).
    pub fn load_torch(
        pt: &[u8],
        config: Option<&[u8]>,
        num_heads: Option<usize>,
        tokenizer: &[u8],
        precision: Precision,
    ) -> Result<Engine, LoadError> {
        let folder = minigpt_import::minigpt_folder(pt, config, num_heads)?;
        Engine::load_minigpt_folder(&folder, tokenizer, precision)
    }

    /// A MiniGPT already laid out as a folder (see [`Engine::load_torch`]).
    pub fn load_minigpt_folder(
        folder: &minigpt_import::MiniGptFolder,
        tokenizer: &[u8],
        precision: Precision,
    ) -> Result<Engine, LoadError> {
        Engine::load_sharded_as(
            &folder.config,
            &[&folder.safetensors.as_slice()],
            tokenizer,
            precision,
        )
    }

    /// The engine for a loaded model (or the error that stopped it) and its
    /// tokenizer; a tokenizer at odds with the model is the error named
    /// first, even when the weights fail too: it says which file does not
    /// belong.
    fn assemble(
        cfg: ModelConfig,
        loaded: Result<(Model, String), LoadError>,
        weight_bytes: usize,
        tokenizer: Result<TextTokenizer, LoadError>,
    ) -> Result<Engine, LoadError> {
        let tokenizer = tokenizer?;
        let (model, storage_dtype) = loaded?;
        // A MiniGPT's vocabulary is its tokenizer's: a tokenizer of another
        // size (even a smaller one) is not the one it was trained with.
        let tokens = tokenizer.token_count();
        if cfg.architecture == Architecture::MiniGpt && tokens != cfg.vocab_size {
            return Err(LoadError::tokenizer(format!(
                "has {tokens} tokens but the MiniGPT's embedding has {} rows: it is not the \
                 tokenizer this model was trained with",
                cfg.vocab_size
            )));
        }
        let info = ModelInfo {
            parameters: model.parameter_count(),
            architecture: cfg.architecture.class_name().into(),
            n_layer: cfg.n_layer,
            n_head: cfg.n_head,
            n_kv_head: match &cfg.family {
                model_config::Family::Llama(s) if s.n_kv_head < cfg.n_head => Some(s.n_kv_head),
                _ => None,
            },
            n_embd: cfg.n_embd,
            vocab_size: cfg.vocab_size,
            n_positions: cfg.n_positions,
            storage_dtype,
            weight_bytes,
            generation_defaults: None,
            chat_template: false,
        };
        Ok(Engine {
            model,
            tokenizer,
            info,
            chat: None,
        })
    }

    /// The repo's `generation_config.json`: the model's own defaults, which
    /// lanes start from as HF's `generate()` does (see `ModelDefaults`).
    /// Runs take lanes already merged; this only checks and reports them.
    pub fn with_generation_config(mut self, bytes: &[u8]) -> Result<Engine, LoadError> {
        let defaults = ntl_decoding::ModelDefaults::from_json(bytes)
            .map_err(|source| LoadError::GenerationConfig { source })?;
        self.info.generation_defaults = Some(defaults);
        Ok(self)
    }

    /// The repo's `tokenizer_config.json`: its chat template, if it has one
    /// (a base model's has none), checked here so a broken one is named at load.
    pub fn with_tokenizer_config(mut self, bytes: &[u8]) -> Result<Engine, LoadError> {
        self.read_tokenizer_config(bytes)?;
        Ok(self)
    }

    /// As `with_tokenizer_config`, keeping the model when the file is at
    /// fault: the model runs on plain prompts without a template it cannot read.
    pub fn read_tokenizer_config(&mut self, bytes: &[u8]) -> Result<(), LoadError> {
        let chat = chat_template::ChatTemplate::from_tokenizer_config(bytes);
        self.chat = chat.as_ref().ok().cloned().flatten();
        self.info.chat_template = self.chat.is_some();
        chat.map(drop)
    }

    /// A conversation as this model reads it, through its chat template.
    pub fn render_chat(
        &self,
        messages: &[ntl_decoding::chat::ChatMessage],
        add_generation_prompt: bool,
    ) -> Result<String, chat_template::ChatError> {
        match &self.chat {
            Some(t) => t.render(messages, add_generation_prompt),
            None => Err(chat_template::ChatError::NoTemplate),
        }
    }

    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// The model's end-of-text ids, which a lane naming none stops at.
    pub fn eos_token_ids(&self) -> &[u32] {
        &self.model.cfg().eos_token_ids
    }

    pub fn tokenizer_vocab(&self) -> std::sync::Arc<Vocab> {
        self.tokenizer.vocab_arc()
    }

    pub fn encode(&self, text: &str) -> Result<Vec<u32>, PromptError> {
        self.tokenizer.encode(text)
    }

    /// The prompt's tokens and, after each of them, the model's `top_n`
    /// guesses and the rank of the token that really follows: one forward
    /// pass, the head applied a few positions at a time so a long prompt
    /// never holds every position's row at once. `ids` longer than the
    /// context are cropped from the left, as a run crops them.
    pub fn inspect(&self, ids: &[u32], top_n: usize) -> Result<Vec<Prediction>, ModelError> {
        let ids = &ids[ids.len().saturating_sub(self.model.cfg().n_positions)..];
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let out = self.model.forward(ids, 1, None, &[]).map_err(model_err)?;
        let d = self.model.cfg().n_embd;
        let hidden = out.hidden.reshape((ids.len(), d)).map_err(model_err)?;
        let vocab = self.tokenizer.vocab_arc();
        let mut predictions = Vec::with_capacity(ids.len());
        const CHUNK: usize = 16;
        for start in (0..ids.len()).step_by(CHUNK) {
            let n = CHUNK.min(ids.len() - start);
            let rows = hidden.narrow(0, start, n).map_err(model_err)?;
            let logits = self.model.head_rows(&rows).map_err(model_err)?;
            let logits: Vec<Vec<f32>> = logits.to_vec2().map_err(model_err)?;
            for (i, row) in logits.iter().enumerate() {
                let next = ids.get(start + i + 1).copied();
                predictions.push(predict(row, next, top_n, &vocab));
            }
        }
        Ok(predictions)
    }

    /// Raw last-position logits after `ids` (for parity tests and tools).
    pub fn logits(&self, ids: &[u32]) -> Result<Vec<f32>, ModelError> {
        self.prefill(ids).map(|f| f.logits)
    }
}

fn load_model(
    cfg: &ModelConfig,
    shards: &[&dyn WeightSource],
    precision: Precision,
) -> Result<(Model, String), LoadError> {
    let mut ck = checkpoint::Checkpoint::parse_shards(shards)?;
    let described = precision.describe(&ck.storage_dtype);
    let model = match precision {
        Precision::AsStored => Model::load(cfg.clone(), &mut ck)?,
        Precision::Q8_0 => Model::load(
            cfg.clone(),
            &mut quantize_at_load::QuantizedAtLoad { ck: &mut ck },
        )?,
    };
    Ok((model, described))
}

/// Loads a config and its weights without a tokenizer and returns the
/// parameter count: the checkpoint loader alone, for fuzzing and tools.
pub fn check_weights(config: &[u8], weights: &[u8]) -> Result<usize, LoadError> {
    let cfg = ModelConfig::from_json(config)?;
    load_model(&cfg, &[&weights], Precision::AsStored).map(|(m, _)| m.parameter_count())
}

/// The tokenizer of a GGUF load: the repo's `tokenizer.json`, or the one
/// the file's own metadata describes.
enum GgufTokenizer<'a> {
    Json(&'a [u8]),
    Own(Box<tokenizers::Tokenizer>),
}

/// A GGUF file's config, its tokenizer as `check` made it, and its model
/// with what the model line says of its weights, or why they do not load.
type GgufModel<T> = (ModelConfig, T, Result<(Model, String), LoadError>);

/// `read` takes what it needs of the metadata's vocabulary lists (dropped
/// after it), `check` makes the tokenizer of that and the model's
/// vocabulary size, before any weight is read.
fn gguf_model<R, T>(
    gguf: &dyn WeightSource,
    read: impl FnOnce(&Content) -> Result<R, LoadError>,
    check: impl FnOnce(R, usize) -> Result<T, LoadError>,
) -> Result<GgufModel<T>, LoadError> {
    let mut weights = gguf_weights::GgufWeights::parse(gguf)?;
    let read = read(&weights.content)?;
    // The vocabulary's strings in the metadata are not read again.
    weights.forget_tokenizer_lists();
    let vocab = weights.vocab_rows()?;
    let config = gguf_config::hf_config(&weights.content, weights.arch, vocab)?;
    let cfg = ModelConfig::from_value(config).map_err(|e| match e {
        LoadError::Config { message, source } => LoadError::Gguf {
            message: format!("its metadata {message}"),
            source: source.map(candle_core::Error::wrap),
        },
        e => e,
    })?;
    // The tokenizer before the weights (a safetensors load builds it after):
    // in wasm, whose memory never shrinks, the tables it builds and drops
    // while it reads are then reused by the weights instead of landing
    // above them (ARCHITECTURE.md, step 4, gives what it saved). A tokenizer
    // at odds with the file is named before any weight is read.
    let tokenizer = check(read, cfg.vocab_size)?;
    let n_kv_head = match &cfg.family {
        model_config::Family::Llama(s) => s.n_kv_head,
        model_config::Family::Gpt2 { .. } | model_config::Family::MiniGpt { .. } => cfg.n_head,
    };
    weights.set_heads(cfg.n_head, n_kv_head);
    let described = weights.describe();
    let loaded = Model::load(cfg.clone(), &mut weights).map(|m| (m, described));
    Ok((cfg, tokenizer, loaded))
}

/// Loads a `.gguf` file's model, and the tokenizer in its metadata when it
/// has one, and returns the parameter count: the GGUF readers alone, for
/// fuzzing and tools. Errors come in the order [`Engine::load_gguf`] names
/// them for a file without a `tokenizer.json` beside it.
pub fn check_gguf(gguf: &[u8]) -> Result<usize, LoadError> {
    let (_, (), loaded) = gguf_model(
        &gguf,
        |content| {
            let own = content.metadata.contains_key("tokenizer.ggml.model");
            own.then(|| gguf_tokenizer::tokenizer(content)).transpose()
        },
        |own, vocab| match own {
            Some(own) => TextTokenizer::from_tokenizer(own, vocab).map(drop),
            None => Ok(()),
        },
    )?;
    loaded.map(|(m, _)| m.parameter_count())
}

fn model_err(e: candle_core::Error) -> ModelError {
    ModelError::Compute(Box::new(e))
}

impl Engine {
    /// Early exits as the model takes them, each layer checked.
    fn exit_layers(&self, exits: &[Exit]) -> Result<Vec<(usize, usize)>, ModelError> {
        let n_layers = self.model.cfg().n_layer;
        exits
            .iter()
            .map(|e| {
                if e.layer < n_layers {
                    Ok((e.row, e.layer))
                } else {
                    Err(ModelError::NoSuchLayer {
                        layer: e.layer,
                        n_layers,
                    })
                }
            })
            .collect()
    }
}

/// The logits and hidden states of a forward pass as plain rows, its early
/// exits through the head: as they are for DoLa, through the final norm
/// first for the logit lens.
fn rows(
    model: &Model,
    out: output::Output,
    exits: &[Exit],
) -> Result<Forward<KvCache>, ModelError> {
    let flat =
        |t: candle_core::Tensor| t.flatten_all().and_then(|t| t.to_vec1()).map_err(model_err);
    Ok(Forward {
        logits: flat(out.logits)?,
        hidden: flat(out.hidden)?,
        exits: match out.taps {
            Some(t) => flat(exit_logits(model, t, exits).map_err(model_err)?)?,
            None => vec![],
        },
        cache: out.cache,
    })
}

/// The head over each exit's hidden state, normed where the exit asks.
fn exit_logits(
    model: &Model,
    taps: candle_core::Tensor,
    exits: &[Exit],
) -> candle_core::Result<candle_core::Tensor> {
    let normed = exits.iter().filter(|e| e.normed).count();
    let rows = if normed == 0 {
        taps
    } else if normed == exits.len() {
        model.final_norm_rows(&taps)?
    } else {
        // Mixed (DoLa and lens lanes in one pass): each row from its side.
        let n = exits.len();
        let both = candle_core::Tensor::cat(&[&taps, &model.final_norm_rows(&taps)?], 0)?;
        let pick: Vec<u32> = exits
            .iter()
            .enumerate()
            .map(|(i, e)| (if e.normed { n + i } else { i }) as u32)
            .collect();
        let pick = candle_core::Tensor::from_vec(pick, n, both.device())?;
        both.index_select(&pick, 0)?
    };
    model.head_rows(&rows)
}

impl LanguageModel for Engine {
    type Cache = KvCache;

    fn vocab_size(&self) -> usize {
        self.model.cfg().vocab_size
    }
    fn hidden_size(&self) -> usize {
        self.model.cfg().n_embd
    }
    fn n_positions(&self) -> usize {
        self.model.cfg().n_positions
    }

    fn n_layers(&self) -> usize {
        self.model.cfg().n_layer
    }
    fn tied_head(&self) -> bool {
        self.model.tied_head()
    }

    fn prefill_with_exits(
        &self,
        ids: &[u32],
        exits: &[Exit],
    ) -> Result<Forward<KvCache>, ModelError> {
        let layers = self.exit_layers(exits)?;
        rows(
            &self.model,
            self.model
                .forward(ids, 1, None, &layers)
                .map_err(model_err)?,
            exits,
        )
    }

    fn step_with_exits(
        &self,
        cache: &KvCache,
        tokens: &[u32],
        exits: &[Exit],
    ) -> Result<Forward<KvCache>, ModelError> {
        let layers = self.exit_layers(exits)?;
        rows(
            &self.model,
            self.model
                .forward(tokens, tokens.len(), Some(cache), &layers)
                .map_err(model_err)?,
            exits,
        )
    }

    fn select(&self, cache: &KvCache, rows: &[usize]) -> Result<KvCache, ModelError> {
        cache.select(rows).map_err(model_err)
    }

    fn shared(&self, cache: KvCache) -> Result<KvCache, ModelError> {
        cache.into_shared().map_err(model_err)
    }

    fn with_room(&self, cache: KvCache, positions: usize) -> Result<KvCache, ModelError> {
        cache.with_room(positions).map_err(model_err)
    }

    fn cache_bytes_per_position(&self) -> usize {
        let cfg = self.model.cfg();
        2 * cfg.n_layer * cfg.kv_width() * std::mem::size_of::<f32>()
    }
}
