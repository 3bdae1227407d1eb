//! The engine: a GPT-2 checkpoint loaded from bytes, driven by `ntl-decoding`.
//! Builds natively (CLI, tests, benchmarks) and for wasm32 (the page's worker).

mod checkpoint;
pub use checkpoint::WeightSource;
pub mod error;
mod gelu;
mod gpt2;
// Natively only its tests use it (candle's threaded gemm is faster there).
mod kv_cache;
pub mod model_config;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod skinny_matmul;
pub mod tokenizer;

pub use error::{LoadError, RunError};
pub use kv_cache::KvCache;
pub use model_config::ModelConfig;

use gpt2::Gpt2;
pub use ntl_protocol::{LaneRequest, ModelInfo, RunRequest};

use ntl_decoding::{
    generate, prepare_prompt, Document, Event, Forward, LaneSpec, LanguageModel, ModelError,
    Options, Prompt, Vocab,
};
use std::ops::ControlFlow;
use tokenizer::TextTokenizer;

/// The three files of an HF GPT-2 checkpoint, as bytes.
pub struct ModelFiles<'a> {
    pub config: &'a [u8],
    pub weights: &'a [u8],
    pub tokenizer: &'a [u8],
}

pub struct Engine {
    model: Gpt2,
    tokenizer: TextTokenizer,
    info: ModelInfo,
}

/// A validated run, ready for [`Generation::start`].
pub struct Prepared {
    pub prompt: Prompt,
    pub lanes: Vec<LaneSpec>,
    pub options: Options,
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
        let cfg = ModelConfig::from_json(config)?;
        let tokenizer = TextTokenizer::from_bytes(tokenizer, cfg.vocab_size)?;
        let (model, storage_dtype) = load_model(&cfg, weights)?;
        let info = ModelInfo {
            parameters: model.parameter_count(),
            n_layer: cfg.n_layer,
            n_head: cfg.n_head,
            n_embd: cfg.n_embd,
            vocab_size: cfg.vocab_size,
            n_positions: cfg.n_positions,
            storage_dtype,
            weight_bytes: weights.len(),
        };
        Ok(Engine {
            model,
            tokenizer,
            info,
        })
    }

    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    pub fn vocab(&self) -> &Vocab {
        self.tokenizer.vocab()
    }

    pub fn tokenizer_vocab(&self) -> std::sync::Arc<Vocab> {
        self.tokenizer.vocab_arc()
    }

    pub fn encode(&self, text: &str) -> Result<Vec<u32>, String> {
        self.tokenizer.encode(text)
    }

    /// Validates every lane (once, here) and prepares the prompt.
    pub fn prepare(&self, req: &RunRequest) -> Result<Prepared, RunError> {
        let cfg = &self.model.cfg;
        let scored = match &req.forced_text {
            Some(text) => Some(self.encode(text).map_err(RunError::Prompt)?),
            None => None,
        };
        let mut specs = Vec::with_capacity(req.lanes.len());
        let mut longest = 1;
        for (lane, l) in req.lanes.iter().enumerate() {
            let valid = l
                .config
                .validate()
                .map_err(|e| RunError::Config {
                    lane,
                    field: e.field,
                    message: e.message,
                })?
                .with_model_eos(cfg.eos_token_id);
            if let Some(bad) = outside_vocab(&valid.eos_token_ids, cfg.vocab_size) {
                return Err(RunError::Config {
                    lane,
                    field: Some("eos_token_id".into()),
                    message: format!(
                        "`eos_token_id` {bad} is outside the vocabulary of {}",
                        cfg.vocab_size
                    ),
                });
            }
            let forced = l.forced_ids.as_ref().or(scored.as_ref());
            if let Some(f) = forced {
                if f.is_empty() || outside_vocab(f, cfg.vocab_size).is_some() {
                    return Err(RunError::Config {
                        lane,
                        field: None,
                        message:
                            "the text to score must hold at least one token of this vocabulary"
                                .into(),
                    });
                }
                longest = longest.max(f.len());
            }
            longest = longest.max(valid.new_token_budget(0).min(cfg.n_positions));
            specs.push(LaneSpec {
                config: valid,
                forced: forced.cloned(),
            });
        }
        if specs.is_empty() {
            return Err(RunError::Prompt("no lanes to run".into()));
        }
        let ids = match &req.prompt_ids {
            Some(ids) => {
                if let Some(bad) = outside_vocab(ids, cfg.vocab_size) {
                    return Err(RunError::Prompt(format!(
                        "prompt token id {bad} is outside the vocabulary of {}",
                        cfg.vocab_size
                    )));
                }
                ids.clone()
            }
            None => self.encode(&req.prompt).map_err(RunError::Prompt)?,
        };
        let prompt = prepare_prompt(&ids, cfg.bos_token_id, cfg.n_positions, longest);
        let options = Options {
            top_n: req.top_n.clamp(1, 200),
            shared_seed: req.shared_seed,
        };
        Ok(Prepared {
            prompt,
            lanes: specs,
            options,
        })
    }

    /// Runs all lanes batched to their end (or until `on_event` breaks).
    pub fn run(
        &self,
        req: &RunRequest,
        on_event: impl FnMut(Event) -> ControlFlow<()>,
    ) -> Result<Document, RunError> {
        let p = self.prepare(req)?;
        let runs = generate(
            self,
            self.tokenizer.vocab_arc(),
            &p.prompt.ids,
            p.lanes,
            &p.options,
            on_event,
        )
        .map_err(|e| RunError::Model(e.0))?;
        Ok(Document {
            prompt_ids: p.prompt.ids,
            prompt: req.prompt.clone(),
            prompt_cropped: p.prompt.cropped,
            runs,
        })
    }

    /// Raw last-position logits after `ids` (for parity tests and tools).
    pub fn logits(&self, ids: &[u32]) -> Result<Vec<f32>, ModelError> {
        self.prefill(ids).map(|f| f.logits)
    }
}

/// The first id that is not a token of a vocabulary of `vocab_size`.
fn outside_vocab(ids: &[u32], vocab_size: usize) -> Option<u32> {
    ids.iter().copied().find(|&id| id as usize >= vocab_size)
}

fn load_model(cfg: &ModelConfig, weights: &dyn WeightSource) -> Result<(Gpt2, String), LoadError> {
    let ck = checkpoint::Checkpoint::parse(weights)?;
    let storage_dtype = ck.storage_dtype.clone();
    Ok((Gpt2::load(cfg.clone(), ck)?, storage_dtype))
}

/// Loads a config and its weights without a tokenizer and returns the
/// parameter count: the checkpoint loader alone, for fuzzing and tools.
pub fn check_weights(config: &[u8], weights: &[u8]) -> Result<usize, LoadError> {
    let cfg = ModelConfig::from_json(config)?;
    load_model(&cfg, &weights).map(|(m, _)| m.parameter_count())
}

fn model_err(e: candle_core::Error) -> ModelError {
    ModelError(e.to_string())
}

impl LanguageModel for Engine {
    type Cache = KvCache;

    fn vocab_size(&self) -> usize {
        self.model.cfg.vocab_size
    }
    fn hidden_size(&self) -> usize {
        self.model.cfg.n_embd
    }
    fn n_positions(&self) -> usize {
        self.model.cfg.n_positions
    }

    fn prefill(&self, ids: &[u32]) -> Result<Forward<KvCache>, ModelError> {
        let out = self.model.forward(ids, 1, None).map_err(model_err)?;
        Ok(Forward {
            logits: out
                .logits
                .flatten_all()
                .and_then(|t| t.to_vec1())
                .map_err(model_err)?,
            hidden: out
                .hidden
                .flatten_all()
                .and_then(|t| t.to_vec1())
                .map_err(model_err)?,
            cache: out.cache,
        })
    }

    fn step(&self, cache: &KvCache, tokens: &[u32]) -> Result<Forward<KvCache>, ModelError> {
        let out = self
            .model
            .forward(tokens, tokens.len(), Some(cache))
            .map_err(model_err)?;
        Ok(Forward {
            logits: out
                .logits
                .flatten_all()
                .and_then(|t| t.to_vec1())
                .map_err(model_err)?,
            hidden: out
                .hidden
                .flatten_all()
                .and_then(|t| t.to_vec1())
                .map_err(model_err)?,
            cache: out.cache,
        })
    }

    fn select(&self, cache: &KvCache, rows: &[usize]) -> Result<KvCache, ModelError> {
        cache.select(rows).map_err(model_err)
    }
}
