//! A run as the engine takes it, in decoding's terms: the prompt (text, or
//! exact ids), each lane's request, the options. The worker and the CLI build
//! it from what they were given; the engine checks it against this model.

use crate::error::{PromptError, RunError};
use crate::Engine;
use ntl_decoding::config_rule::{LlamaCppRule, Rule};
use ntl_decoding::dola::candidate_layers;
use ntl_decoding::llama_cpp::LlamaCppKnob;
use ntl_decoding::ValidConfig;
use ntl_decoding::{
    prepare_prompt, ConfigError, Document, Event, Generation, Knob, LaneRequest, LaneSpec,
    LanguageModel, Options, Prompt,
};
use std::ops::ControlFlow;
use std::sync::Arc;

#[derive(Debug, Clone, Default)]
pub struct RunInput {
    /// The prompt as typed (the document keeps it).
    pub prompt: String,
    /// Start from these ids instead of encoding `prompt` (a branch: the
    /// prompt, a lane's tokens up to a step and the candidate picked there).
    pub prompt_ids: Option<Vec<u32>>,
    pub lanes: Vec<LaneRequest>,
    /// Scoring a text: every lane without forced ids of its own follows it.
    pub forced_text: Option<String>,
    /// Guidance's negative prompt (HF `negative_prompt_ids`), as text.
    pub negative_prompt: Option<String>,
    pub options: Options,
}

/// A run checked against the model, ready for [`Generation::start`].
pub struct Prepared {
    pub prompt_text: String,
    pub prompt: Prompt,
    pub lanes: Vec<LaneSpec>,
    pub options: Options,
}

impl Prepared {
    /// The document of this run once its lanes have run.
    pub fn document(self, runs: Vec<ntl_decoding::Run>) -> Document {
        Document::new(self.prompt_text, self.prompt, runs)
    }
}

impl Engine {
    /// Validates every lane (once, here, with this model's eos and
    /// vocabulary) and prepares the prompt.
    pub fn prepare(&self, input: RunInput) -> Result<Prepared, RunError> {
        let cfg = self.model.cfg();
        let scored = input
            .forced_text
            .as_deref()
            .map(|t| self.encode(t))
            .transpose()?;
        let mut lanes = Vec::with_capacity(input.lanes.len());
        for (lane, request) in input.lanes.into_iter().enumerate() {
            lanes.push(self.lane_spec(lane, request, scored.as_ref())?);
        }
        if lanes.is_empty() {
            return Err(RunError::NoLanes);
        }
        // Room for the longest lane when an over-long prompt is cropped; a
        // tutorial lane needs none (its window slides over the whole prompt).
        let longest = lanes
            .iter()
            .filter(|l| l.config.mode != ntl_decoding::Mode::Tutorial)
            .map(|l| match &l.forced {
                Some(f) => f.len(),
                None => l.config.new_token_budget(0).min(cfg.n_positions),
            })
            .fold(1, usize::max);
        let ids = match input.prompt_ids {
            Some(ids) => match outside_vocab(&ids, cfg.vocab_size) {
                Some(id) => {
                    let vocab_size = cfg.vocab_size;
                    return Err(PromptError::OutsideVocab { id, vocab_size }.into());
                }
                None => ids,
            },
            None => self.encode(&input.prompt)?,
        };
        let prompt = prepare_prompt(&ids, cfg.bos_token_id, cfg.n_positions, longest);
        let full_prompt = (prompt.cropped > 0).then(|| ids.clone());
        let negative_prompt = match input.negative_prompt.as_deref() {
            Some(text) if !text.is_empty() => Some(self.encode(text)?),
            _ => input.options.negative_prompt.clone(),
        };
        let start_len = negative_prompt.as_ref().map_or(1, Vec::len);
        for (lane, l) in lanes.iter().enumerate() {
            let new_tokens = match &l.forced {
                Some(f) => f.len(),
                None => l.config.new_token_budget(prompt.ids.len()),
            }
            // A lane stops when the conditional context is full.
            .min(cfg.n_positions.saturating_sub(prompt.ids.len()));
            if l.config.guidance_scale().is_some() && start_len + new_tokens >= cfg.n_positions {
                return Err(RunError::NegativePromptTooLong {
                    lane,
                    tokens: start_len,
                    new_tokens,
                    positions: cfg.n_positions,
                });
            }
        }
        Ok(Prepared {
            prompt_text: input.prompt,
            prompt,
            lanes,
            options: Options {
                top_n: input.options.top_n.clamp(1, 200),
                negative_prompt,
                full_prompt,
                ..input.options
            },
        })
    }

    /// One lane's request checked against this model: its config valid, its
    /// eos and forced ids inside the vocabulary.
    pub(crate) fn lane_spec(
        &self,
        lane: usize,
        request: LaneRequest,
        scored: Option<&Vec<u32>>,
    ) -> Result<LaneSpec, RunError> {
        let cfg = self.model.cfg();
        let config = request
            .config
            .validate()
            .map_err(|source| RunError::Config { lane, source })?
            .with_model_eos(&cfg.eos_token_ids);
        let named = config
            .eos_token_ids
            .iter()
            .map(|&id| (Knob::EosTokenId, id))
            .chain(config.rules.named_ids())
            .chain(
                config
                    .force_words
                    .iter()
                    .flat_map(|w| w.ids())
                    .map(|id| (Knob::ForceWordsIds, id)),
            );
        for (knob, id) in named {
            if id as usize >= cfg.vocab_size {
                let source = ConfigError::Invalid {
                    knob,
                    rule: Rule::OutsideVocabulary {
                        id,
                        vocab_size: cfg.vocab_size,
                    },
                };
                return Err(RunError::Config { lane, source });
            }
        }
        if let Some(layers) = &config.dola_layers {
            if let Err(e) = candidate_layers(layers, cfg.n_layer, self.tied_head()) {
                let source = ConfigError::Invalid {
                    knob: Knob::DolaLayers,
                    rule: Rule::NoDolaCandidates(e),
                };
                return Err(RunError::Config { lane, source });
            }
        }
        let config = self.resolve_llama(lane, config)?;
        let forced = request.forced_ids.or_else(|| scored.cloned());
        if let Some(f) = &forced {
            if f.is_empty() || outside_vocab(f, cfg.vocab_size).is_some() {
                return Err(RunError::ForcedIds { lane });
            }
        }
        Ok(LaneSpec { config, forced })
    }

    /// A llama.cpp lane's texts made tokens with this model's tokenizer
    /// (`logit_bias` texts, DRY's sequence breakers), its ids checked
    /// against the vocabulary; other lanes pass through.
    fn resolve_llama(&self, lane: usize, mut config: ValidConfig) -> Result<ValidConfig, RunError> {
        let Some(settings) = &config.llama_cpp else {
            return Ok(config);
        };
        let mut settings = (**settings).clone();
        let vocab = self.tokenizer_vocab();
        settings.resolve(&vocab, &|text: &str| self.encode(text).unwrap_or_default());
        let vocab_size = self.model.cfg().vocab_size;
        if let Some(&(id, _)) = settings
            .bias_ids
            .iter()
            .find(|(id, _)| *id as usize >= vocab_size)
        {
            let source = ConfigError::LlamaCpp {
                knob: LlamaCppKnob::LogitBias,
                rule: LlamaCppRule::OutsideVocabulary { id, vocab_size },
            };
            return Err(RunError::Config { lane, source });
        }
        config.llama_cpp = Some(Arc::new(settings));
        Ok(config)
    }

    /// A prepared run's generation, to advance step by step (the worker).
    pub fn start<'a>(&'a self, p: &Prepared) -> Result<Generation<&'a Engine>, RunError> {
        let lanes = p.lanes.clone();
        Ok(Generation::start(
            self,
            self.tokenizer_vocab(),
            &p.prompt.ids,
            lanes,
            &p.options,
        )?)
    }

    /// Runs all lanes batched to their end (or until `on_event` breaks).
    ///
    /// Two lanes on the bundled model, each from its JSON: greedy, and a
    /// seeded sample. The document holds every step's table; greedy's first
    /// step took the token the model ranked first.
    ///
    /// ```
    /// use ntl_decoding::{LaneConfig, LaneRequest, Options};
    /// use ntl_engine::{Engine, ModelFiles, RunInput};
    /// use std::ops::ControlFlow;
    ///
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/models/kjv-gpt2");
    /// let read = |name: &str| std::fs::read(format!("{dir}/{name}")).unwrap();
    /// let (config, weights, tokenizer) =
    ///     (read("config.json"), read("model.safetensors"), read("tokenizer.json"));
    /// let engine = Engine::load(ModelFiles { config: &config, weights: &weights, tokenizer: &tokenizer })?;
    ///
    /// let lane = |json: &str| LaneRequest { config: LaneConfig::from_json(json).unwrap(), forced_ids: None };
    /// let input = RunInput {
    ///     prompt: "And God said".into(),
    ///     prompt_ids: None,
    ///     lanes: vec![
    ///         lane(r#"{"max_new_tokens": 5}"#),
    ///         lane(r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "seed": 1, "max_new_tokens": 5}"#),
    ///     ],
    ///     forced_text: None,
    ///     negative_prompt: None,
    ///     options: Options::default(),
    /// };
    /// let doc = engine.run(input, |_event| ControlFlow::Continue(()))?;
    ///
    /// let greedy = &doc.runs[0];
    /// assert_eq!(greedy.token_ids.len(), 5);
    /// assert_eq!(greedy.steps[0].rank, 1, "greedy takes the model's favourite");
    /// assert!(doc.runs[1].steps.iter().all(|s| s.chosen_prob > 0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run(
        &self,
        input: RunInput,
        on_event: impl FnMut(Event) -> ControlFlow<()>,
    ) -> Result<Document, RunError> {
        let mut on_event = on_event;
        let p = self.prepare(input)?;
        let mut generation = self.start(&p)?;
        while generation.advance(&mut on_event)? {}
        Ok(p.document(generation.finish()))
    }
}

/// The first id that is not a token of a vocabulary of `vocab_size`.
fn outside_vocab(ids: &[u32], vocab_size: usize) -> Option<u32> {
    ids.iter().copied().find(|&id| id as usize >= vocab_size)
}
