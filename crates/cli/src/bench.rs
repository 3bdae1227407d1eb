//! ntl-bench: the speed benchmark's native side.
//!
//!   ntl-bench make-checkpoint OUT_DIR TOKENIZER_JSON [--smollm2|--qwen2.5]
//!       a random checkpoint with distilgpt2's exact shapes (F32, ~330 MB),
//!       or with SmolLM2-135M's (Llama: 30 layers, 576 wide, 9 query and 3
//!       key/value heads, SwiGLU 1536, tied head; BF16 as the hub has it, ~270 MB)
//!       over GPT-2's 50,257-token vocabulary (SmolLM2's has 49,152), or with
//!       Qwen2.5-0.5B's (Qwen2: 24 layers, 896 wide, 14 query and 2 key/value
//!       heads, q/k/v biases, SwiGLU 4864, 151,936 embedding rows; BF16, ~990 MB)
//!   ntl-bench run MODEL_DIR [--runs N]
//!       the workload below, N times; prints one JSON object of medians
//!
//! Workload (issue #5): prompt "The best way to learn programming is", the
//! page's four default lanes, 64 new tokens each (`min_new_tokens` = 64).

use ntl_decoding::{Event, LaneConfig, LaneRequest};
use ntl_engine::{Engine, ModelFiles, RunInput};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

pub const PROMPT: &str = "The best way to learn programming is";
pub const NEW_TOKENS: usize = 64;
/// The page's default lanes (lesson "four runs, one prompt"), lengthened to 64 tokens.
pub const LANES: [&str; 4] = [
    r#"{}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "seed": 0}"#,
    r#"{"do_sample": true, "temperature": 1.5, "seed": 0}"#,
    r#"{"no_repeat_ngram_size": 3}"#,
];

fn lane(json: &str) -> LaneRequest {
    let mut v: serde_json::Value = serde_json::from_str(json).expect("lane json");
    v["max_new_tokens"] = NEW_TOKENS.into();
    v["min_new_tokens"] = NEW_TOKENS.into();
    LaneRequest {
        config: LaneConfig::from_value(v).expect("lane config"),
        forced_ids: None,
    }
}

/// Splitmix64: reproducible weights without pulling an RNG crate in.
struct Mix(u64);
impl Mix {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((z >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.04
    }
}

/// distilgpt2's tensors and config.
fn gpt2_shapes() -> (Vec<(String, Vec<usize>)>, serde_json::Value) {
    let (v, p, d, layers) = (50257usize, 1024usize, 768usize, 6usize);
    let mut shapes: Vec<(String, Vec<usize>)> = vec![
        ("wte.weight".into(), vec![v, d]),
        ("wpe.weight".into(), vec![p, d]),
    ];
    for l in 0..layers {
        for (name, shape) in [
            ("ln_1.weight", vec![d]),
            ("ln_1.bias", vec![d]),
            ("attn.c_attn.weight", vec![d, 3 * d]),
            ("attn.c_attn.bias", vec![3 * d]),
            ("attn.c_proj.weight", vec![d, d]),
            ("attn.c_proj.bias", vec![d]),
            ("ln_2.weight", vec![d]),
            ("ln_2.bias", vec![d]),
            ("mlp.c_fc.weight", vec![d, 4 * d]),
            ("mlp.c_fc.bias", vec![4 * d]),
            ("mlp.c_proj.weight", vec![4 * d, d]),
            ("mlp.c_proj.bias", vec![d]),
        ] {
            shapes.push((format!("h.{l}.{name}"), shape));
        }
    }
    shapes.push(("ln_f.weight".into(), vec![d]));
    shapes.push(("ln_f.bias".into(), vec![d]));
    let config = serde_json::json!({
        "model_type": "gpt2", "architectures": ["GPT2LMHeadModel"],
        "vocab_size": v, "n_positions": p, "n_ctx": p, "n_embd": d, "n_layer": layers, "n_head": 12,
        "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new",
        "bos_token_id": 50256, "eos_token_id": 50256, "tie_word_embeddings": true,
        "_comment": "random weights with distilgpt2's exact shapes, for speed measurements only"
    });
    (shapes, config)
}

/// The sizes a Llama-family shape is made of.
struct LlamaShape {
    vocab: usize,
    width: usize,
    inter: usize,
    layers: usize,
    heads: usize,
    kv_heads: usize,
    head_dim: usize,
    /// Biases on the query, key and value projections (Qwen2's).
    qkv_bias: bool,
}

fn llama_tensors(s: &LlamaShape) -> Vec<(String, Vec<usize>)> {
    let (d, q, kv) = (s.width, s.heads * s.head_dim, s.kv_heads * s.head_dim);
    let mut shapes: Vec<(String, Vec<usize>)> =
        vec![("model.embed_tokens.weight".into(), vec![s.vocab, d])];
    for l in 0..s.layers {
        let mut layer = vec![
            ("input_layernorm.weight", vec![d]),
            ("self_attn.q_proj.weight", vec![q, d]),
            ("self_attn.k_proj.weight", vec![kv, d]),
            ("self_attn.v_proj.weight", vec![kv, d]),
            ("self_attn.o_proj.weight", vec![d, q]),
            ("post_attention_layernorm.weight", vec![d]),
            ("mlp.gate_proj.weight", vec![s.inter, d]),
            ("mlp.up_proj.weight", vec![s.inter, d]),
            ("mlp.down_proj.weight", vec![d, s.inter]),
        ];
        if s.qkv_bias {
            layer.extend([
                ("self_attn.q_proj.bias", vec![q]),
                ("self_attn.k_proj.bias", vec![kv]),
                ("self_attn.v_proj.bias", vec![kv]),
            ]);
        }
        for (name, shape) in layer {
            shapes.push((format!("model.layers.{l}.{name}"), shape));
        }
    }
    shapes.push(("model.norm.weight".into(), vec![d]));
    shapes
}

/// SmolLM2-135M's tensors and config (its hub config.json but the vocabulary).
fn smollm2_shapes() -> (Vec<(String, Vec<usize>)>, serde_json::Value) {
    let shape = LlamaShape {
        vocab: 50257,
        width: 576,
        inter: 1536,
        layers: 30,
        heads: 9,
        kv_heads: 3,
        head_dim: 64,
        qkv_bias: false,
    };
    let config = serde_json::json!({
        "model_type": "llama", "architectures": ["LlamaForCausalLM"],
        "vocab_size": shape.vocab, "hidden_size": shape.width, "intermediate_size": shape.inter,
        "num_hidden_layers": shape.layers, "num_attention_heads": shape.heads,
        "num_key_value_heads": shape.kv_heads, "head_dim": shape.head_dim,
        "max_position_embeddings": 8192, "rms_norm_eps": 1e-5, "rope_theta": 100000.0,
        "hidden_act": "silu", "tie_word_embeddings": true, "attention_bias": false, "mlp_bias": false,
        "bos_token_id": 50256, "eos_token_id": 50256, "torch_dtype": "bfloat16",
        "_comment": "random weights with SmolLM2-135M's shapes (GPT-2's vocabulary), for speed measurements only"
    });
    (llama_tensors(&shape), config)
}

/// Qwen2.5-0.5B's tensors and config (its hub config.json; its 151,936
/// embedding rows over GPT-2's 50,257 tokens, the rest padding as in the
/// hub's own table): the model the issue's memory goal names.
fn qwen25_shapes() -> (Vec<(String, Vec<usize>)>, serde_json::Value) {
    let shape = LlamaShape {
        vocab: 151936,
        width: 896,
        inter: 4864,
        layers: 24,
        heads: 14,
        kv_heads: 2,
        head_dim: 64,
        qkv_bias: true,
    };
    let config = serde_json::json!({
        "model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"],
        "vocab_size": shape.vocab, "hidden_size": shape.width, "intermediate_size": shape.inter,
        "num_hidden_layers": shape.layers, "num_attention_heads": shape.heads,
        "num_key_value_heads": shape.kv_heads, "max_position_embeddings": 32768,
        "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "hidden_act": "silu",
        "tie_word_embeddings": true, "use_sliding_window": false,
        "bos_token_id": 50256, "eos_token_id": 50256, "torch_dtype": "bfloat16",
        "_comment": "random weights with Qwen2.5-0.5B's shapes (GPT-2's tokens), for speed and memory measurements only"
    });
    (llama_tensors(&shape), config)
}

/// Which model's shapes a random checkpoint takes.
#[derive(Clone, Copy)]
enum Shapes {
    Distilgpt2,
    Smollm2,
    Qwen25,
}

/// What stops `ntl-bench`, as one line.
#[derive(Debug, thiserror::Error)]
enum BenchError {
    #[error("{BENCH_USAGE}")]
    Usage,
    #[error("--runs takes a number")]
    Runs,
    #[error("{}: {source}", .path.display())]
    Io {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Safetensors(#[from] safetensors::SafeTensorError),
    #[error(transparent)]
    Load(#[from] ntl_engine::LoadError),
}

/// An I/O error with the path it happened on.
fn at(path: &Path) -> impl FnOnce(std::io::Error) -> BenchError + '_ {
    move |source| BenchError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn make_checkpoint(out: &Path, tokenizer: &Path, which: Shapes) -> Result<(), BenchError> {
    // Each as its hub repo stores it: distilgpt2 in F32, the others in BF16.
    let ((shapes, config), dtype) = match which {
        Shapes::Distilgpt2 => (gpt2_shapes(), safetensors::Dtype::F32),
        Shapes::Smollm2 => (smollm2_shapes(), safetensors::Dtype::BF16),
        Shapes::Qwen25 => (qwen25_shapes(), safetensors::Dtype::BF16),
    };
    let mut rng = Mix(5);
    let data: Vec<Vec<u8>> = shapes
        .iter()
        .map(|(name, shape)| {
            let n: usize = shape.iter().product();
            // Norm gains of 1 keep activations in a sane range.
            let ones = (name.contains("ln_") || name.contains("norm")) && name.ends_with("weight");
            let values = (0..n).map(|_| if ones { 1.0f32 } else { rng.next() });
            match dtype {
                // BF16 is F32's top half; rounding does not matter for random weights.
                safetensors::Dtype::BF16 => values
                    .flat_map(|x| ((x.to_bits() >> 16) as u16).to_le_bytes())
                    .collect(),
                _ => values.flat_map(f32::to_le_bytes).collect(),
            }
        })
        .collect();
    let views: Vec<(String, safetensors::tensor::TensorView)> = shapes
        .iter()
        .zip(&data)
        .map(|((n, s), bytes)| {
            (
                n.clone(),
                safetensors::tensor::TensorView::new(dtype, s.clone(), bytes).expect("view"),
            )
        })
        .collect();
    std::fs::create_dir_all(out).map_err(at(out))?;
    safetensors::serialize_to_file(views, None, &out.join("model.safetensors"))?;
    let config_path = out.join("config.json");
    std::fs::write(
        &config_path,
        serde_json::to_vec_pretty(&config).expect("json"),
    )
    .map_err(at(&config_path))?;
    std::fs::copy(tokenizer, out.join("tokenizer.json")).map_err(at(tokenizer))?;
    if matches!(which, Shapes::Qwen25) {
        // GPT-2's tokens read as GPT-2's: without this, transformers' Qwen2
        // tokenizer class wraps them and llama.cpp's converter no longer
        // recognises the pre-tokenizer.
        let path = out.join("tokenizer_config.json");
        std::fs::write(&path, br#"{"tokenizer_class": "GPT2Tokenizer"}"#).map_err(at(&path))?;
    }
    Ok(())
}

/// Peak resident memory of this process, from the kernel (Linux).
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

struct Timing {
    first_token_ms: f64,
    total_ms: f64,
    tokens: usize,
}

fn timed(engine: &Engine, lanes: Vec<LaneRequest>) -> Timing {
    let input = RunInput {
        prompt: PROMPT.into(),
        lanes,
        ..Default::default()
    };
    let start = Instant::now();
    let mut first = None;
    let doc = engine
        .run(input, |ev| {
            if let (Event::Step { .. }, None) = (&ev, first) {
                first = Some(start.elapsed().as_secs_f64() * 1e3);
            }
            ControlFlow::Continue(())
        })
        .expect("benchmark run");
    Timing {
        first_token_ms: first.unwrap_or(0.0),
        total_ms: start.elapsed().as_secs_f64() * 1e3,
        tokens: doc.runs.iter().map(|r| r.token_ids.len()).sum(),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn run(dir: &Path, runs: usize) -> Result<serde_json::Value, BenchError> {
    let read = |n: &str| {
        let path = dir.join(n);
        std::fs::read(&path).map_err(at(&path))
    };
    let (config, weights, tokenizer) = (
        read("config.json")?,
        read("model.safetensors")?,
        read("tokenizer.json")?,
    );
    let weight_bytes = weights.len() as u64;
    let mut load = vec![];
    let mut engine = None;
    for _ in 0..runs.min(3) {
        drop(engine.take());
        let t = Instant::now();
        engine = Some(Engine::load(ModelFiles {
            config: &config,
            weights: &weights,
            tokenizer: &tokenizer,
        })?);
        load.push(t.elapsed().as_secs_f64() * 1e3);
    }
    drop((config, weights, tokenizer));
    let engine = engine.expect("loaded");
    let four: Vec<LaneRequest> = LANES.iter().map(|l| lane(l)).collect();
    let _warm = timed(&engine, vec![lane(LANES[0])]);
    let (mut one_total, mut one_first, mut four_total, mut four_first, mut four_tokens) =
        (vec![], vec![], vec![], vec![], 0);
    for _ in 0..runs {
        let t1 = timed(&engine, vec![lane(LANES[0])]);
        one_total.push(t1.total_ms);
        one_first.push(t1.first_token_ms);
        let t4 = timed(&engine, four.clone());
        four_total.push(t4.total_ms);
        four_first.push(t4.first_token_ms);
        four_tokens = t4.tokens;
    }
    let (one, four_ms) = (median(one_total), median(four_total));
    Ok(serde_json::json!({
        "engine": "native",
        "runs": runs,
        "load_ms": median(load),
        "weight_bytes": weight_bytes,
        "peak_memory_bytes": peak_rss_bytes(),
        "four_lanes": figures(four_tokens, four_ms, median(four_first)),
        "one_lane": figures(NEW_TOKENS, one, median(one_first)),
    }))
}

/// One workload's figures as the report reads them.
fn figures(tokens: usize, total_ms: f64, first_token_ms: f64) -> serde_json::Value {
    serde_json::json!({
        "tokens": tokens,
        "total_ms": total_ms,
        "first_token_ms": first_token_ms,
        "tokens_per_s": tokens as f64 * 1e3 / total_ms,
        "step_ms": total_ms / NEW_TOKENS as f64,
    })
}

const BENCH_USAGE: &str =
    "usage: ntl-bench make-checkpoint OUT_DIR TOKENIZER_JSON [--smollm2|--qwen2.5] | ntl-bench run MODEL_DIR [--runs N]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["make-checkpoint", out, tok, rest @ ..] => match rest {
            [] => Ok(Shapes::Distilgpt2),
            ["--smollm2"] => Ok(Shapes::Smollm2),
            ["--qwen2.5"] => Ok(Shapes::Qwen25),
            _ => Err(BenchError::Usage),
        }
        .and_then(|which| make_checkpoint(Path::new(out), Path::new(tok), which))
        .map(|_| println!("wrote {out}")),
        ["run", dir] => run(Path::new(dir), 3).map(|v| println!("{v}")),
        ["run", dir, "--runs", n] => n
            .parse()
            .map_err(|_| BenchError::Runs)
            .and_then(|n: usize| run(Path::new(dir), n.max(1)))
            .map(|v| println!("{v}")),
        _ => Err(BenchError::Usage),
    };
    if let Err(e) = result {
        eprintln!("ntl-bench: {e}");
        std::process::exit(2);
    }
}
