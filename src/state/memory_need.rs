//! How much memory a model needs to run on this page, estimated before its
//! download: the weights as the worker holds them (a 32-bit file stays 32-bit,
//! a 16-bit one 16-bit), the key/value cache of four lanes over a run's
//! context, the activations of a step and of a long prompt's first pass, the
//! program itself, and — outside WebAssembly's memory but in the same tab —
//! the downloaded file, held by the browser until the weights are read out
//! of it.

use ntl_protocol::ModelShape;

/// Rows the cache is sized for: the page's four lanes, one row each.
pub const LANES: u64 = 4;

/// Tokens each lane's cache is sized for: the model's context, at most this
/// (a run of a long prompt and a few hundred new tokens; Qwen2's 32,768
/// positions are never reached on this page).
pub const CACHE_TOKENS: usize = 1024;

/// A prompt's first pass is computed for this many tokens at once, at most.
const PREFILL_TOKENS: u64 = 512;

/// The program, the tokenizer and the allocator's slack. Measured
/// (BENCHMARKS.md): the bench checkpoint's worker peaks 43 MB above its
/// 312 MB of weights on four lanes of 64 tokens, where cache and activations
/// are a few MB.
const RUNTIME_BYTES: u64 = 40_000_000;

/// With no `config.json` to size the cache from, the cache and activations
/// are taken as an eighth of the weights: the measured peaks of short runs
/// (1.14 × an F32 file, 1.29 × a BF16 one, the runtime included).
const UNSHAPED_DIVISOR: u64 = 8;

const F32: u64 = 4;

/// One model's memory, in bytes, by what holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryNeed {
    /// The weights as the worker keeps them (the file's own size).
    pub weights: u64,
    /// Keys and values of every layer for [`LANES`] lanes of `cache_tokens`.
    pub cache: u64,
    /// A step's logits and tables, a long prompt's first pass, the program.
    pub working: u64,
    /// The downloaded file, held by the browser while the weights load.
    pub download: u64,
    /// The tokens per lane the cache was sized for (`None`: no shape known,
    /// the cache estimated from the weights).
    pub cache_tokens: Option<usize>,
}

impl MemoryNeed {
    /// The estimate for weights of `weight_bytes`, with the model's `shape`
    /// when its `config.json` was read.
    pub fn estimate(weight_bytes: u64, shape: Option<&ModelShape>) -> MemoryNeed {
        let Some(s) = shape else {
            return MemoryNeed {
                weights: weight_bytes,
                cache: 0,
                working: weight_bytes / UNSHAPED_DIVISOR + RUNTIME_BYTES,
                download: weight_bytes,
                cache_tokens: None,
            };
        };
        let tokens = s.n_positions.min(CACHE_TOKENS);
        let per_token = 2 * s.n_layer as u64 * s.n_kv_head as u64 * s.head_dim as u64 * F32;
        let cache = LANES * tokens as u64 * per_token;
        // Logits, processed scores, probabilities and a sort's copy per lane.
        let tables = LANES * s.vocab_size as u64 * F32 * 4;
        // A first pass: the residual stream and its projections (about twelve
        // widths per token, the MLP's four included) and one layer's scores.
        let prefill_tokens = PREFILL_TOKENS.min(s.n_positions as u64);
        let prefill = prefill_tokens * 12 * s.n_embd as u64 * F32
            + s.n_head as u64 * prefill_tokens * prefill_tokens * F32 * 2;
        MemoryNeed {
            weights: weight_bytes,
            cache,
            working: tables + prefill + RUNTIME_BYTES,
            download: weight_bytes,
            cache_tokens: Some(tokens),
        }
    }

    /// The same model with its matrices kept as Q8_0 blocks: at most 34
    /// bytes per 32 weights of a 16-bit file (an f32 file's half of that).
    pub fn quantized_to_q8_0(self) -> MemoryNeed {
        let weights = self.weights / 32 * 17 + self.weights % 32 * 17 / 32;
        self.with_weights(weights)
    }

    /// The same need with the weights kept in `bytes`.
    pub fn with_weights(self, bytes: u64) -> MemoryNeed {
        MemoryNeed {
            weights: bytes,
            ..self
        }
    }

    /// What WebAssembly's memory must hold (its 4 GiB of addresses bound it).
    pub fn in_wasm(&self) -> u64 {
        self.weights
            .saturating_add(self.cache)
            .saturating_add(self.working)
    }

    /// What the tab needs at its peak, while the file is still held.
    pub fn in_tab(&self) -> u64 {
        self.in_wasm().saturating_add(self.download)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// distilgpt2's config.json.
    fn distilgpt2() -> ModelShape {
        ModelShape {
            n_layer: 6,
            n_head: 12,
            n_kv_head: 12,
            head_dim: 64,
            n_embd: 768,
            vocab_size: 50257,
            n_positions: 1024,
        }
    }

    /// Qwen2.5-0.5B's: grouped-query attention, two key/value heads.
    fn qwen2_5_0_5b() -> ModelShape {
        ModelShape {
            n_layer: 24,
            n_head: 14,
            n_kv_head: 2,
            head_dim: 64,
            n_embd: 896,
            vocab_size: 151_936,
            n_positions: 32768,
        }
    }

    #[test]
    fn distilgpt2s_cache_is_four_lanes_of_its_whole_context() {
        let need = MemoryNeed::estimate(352_000_000, Some(&distilgpt2()));
        // 2 (keys, values) × 6 layers × 768 × 4 bytes × 1024 tokens × 4 lanes.
        assert_eq!(need.cache, 150_994_944);
        assert_eq!(need.cache_tokens, Some(1024));
        assert_eq!(need.weights, 352_000_000);
        // Tables 3.2 MB, a 512-token first pass 19 + 25 MB, the program 40 MB.
        assert_eq!(
            need.working,
            3_216_448 + 18_874_368 + 25_165_824 + 40_000_000
        );
        assert_eq!(need.in_tab(), need.in_wasm() + 352_000_000);
        // Above what short runs measured (1.14 × the file), as a full context must be.
        assert!(need.in_wasm() > 352_000_000 / 100 * 114);
    }

    #[test]
    fn grouped_query_attention_keeps_a_long_context_model_s_cache_small() {
        let need = MemoryNeed::estimate(988_097_824, Some(&qwen2_5_0_5b()));
        assert_eq!(
            need.cache_tokens,
            Some(CACHE_TOKENS),
            "not its 32,768 positions"
        );
        // 2 × 24 layers × 2 heads × 64 × 4 bytes × 1024 tokens × 4 lanes.
        assert_eq!(need.cache, 100_663_296);
        assert!(need.in_wasm() < 1_300_000_000);
    }

    #[test]
    fn without_a_config_the_cache_follows_the_measured_short_run_peaks() {
        let need = MemoryNeed::estimate(800_000_000, None);
        assert_eq!(need.cache_tokens, None);
        assert_eq!(need.in_wasm(), 800_000_000 + 100_000_000 + RUNTIME_BYTES);
        assert_eq!(need.in_tab(), need.in_wasm() + 800_000_000);
    }

    #[test]
    fn a_claimed_size_near_u64s_end_saturates_instead_of_wrapping() {
        let need = MemoryNeed::estimate(u64::MAX - 1, Some(&distilgpt2()));
        assert_eq!(need.in_tab(), u64::MAX);
    }
}
