//! Shared by the engine's integration tests: the committed checkpoints and HF fixtures.

#![allow(dead_code)]

use ntl_engine::{Engine, ModelFiles};

// Fixtures are compiled in, so the same tests run natively and in the browser.
macro_rules! fixture {
    ($path:literal) => {
        include_bytes!(concat!("../../../../tests/fixtures/", $path))
    };
}

pub struct Files {
    pub config: Vec<u8>,
    pub weights: Vec<u8>,
    pub tokenizer: Vec<u8>,
}

pub fn files(model: &str) -> Files {
    let tokenizer = fixture!("models/tokenizer.json").to_vec();
    match model {
        "tiny" => Files {
            config: fixture!("models/tiny/config.json").to_vec(),
            weights: fixture!("models/tiny/model.safetensors").to_vec(),
            tokenizer,
        },
        "tiny-bf16" => Files {
            config: fixture!("models/tiny-bf16/config.json").to_vec(),
            weights: fixture!("models/tiny-bf16/model.safetensors").to_vec(),
            tokenizer,
        },
        "tiny-llama" => Files {
            config: fixture!("models/tiny-llama/config.json").to_vec(),
            weights: fixture!("models/tiny-llama/model.safetensors").to_vec(),
            tokenizer,
        },
        "tiny-qwen2" => Files {
            config: fixture!("models/tiny-qwen2/config.json").to_vec(),
            weights: fixture!("models/tiny-qwen2/model.safetensors").to_vec(),
            tokenizer,
        },
        other => panic!("no fixture model {other}"),
    }
}

impl Files {
    pub fn load(&self) -> Result<Engine, ntl_engine::LoadError> {
        Engine::load(ModelFiles {
            config: &self.config,
            weights: &self.weights,
            tokenizer: &self.tokenizer,
        })
    }
}

pub fn engine(model: &str) -> Engine {
    files(model).load().expect("fixture model loads")
}

pub fn hf(name: &str) -> serde_json::Value {
    let bytes: &[u8] = match name {
        "tiny.json" => fixture!("hf/tiny.json"),
        "tiny-bf16.json" => fixture!("hf/tiny-bf16.json"),
        "tiny-contrastive.json" => fixture!("hf/tiny-contrastive.json"),
        "tiny-knobs.json" => fixture!("hf/tiny-knobs.json"),
        "tiny-strategies.json" => fixture!("hf/tiny-strategies.json"),
        "tiny-beam-sample.json" => fixture!("hf/tiny-beam-sample.json"),
        "tiny-llama.json" => fixture!("hf/tiny-llama.json"),
        "tiny-qwen2.json" => fixture!("hf/tiny-qwen2.json"),
        "native-sampling.json" => fixture!("native-sampling.json"),
        "native-trees.json" => fixture!("native-trees.json"),
        "llama/samplers.json" => fixture!("llama/samplers.json"),
        "llama/generate.json" => fixture!("llama/generate.json"),
        other => panic!("no fixture {other}"),
    };
    serde_json::from_slice(bytes).expect("fixture JSON")
}

pub fn prompt_text(run_name: &str) -> &'static str {
    match run_name.split('/').next().unwrap() {
        "programming" => "The best way to learn programming is",
        "history" => "The history of computers is",
        "empty" => "",
        other => panic!("unknown fixture prompt {other}"),
    }
}

pub fn ids(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .expect("id array")
        .iter()
        .map(|x| x.as_u64().expect("id") as u32)
        .collect()
}

pub fn floats(v: &serde_json::Value) -> Vec<f32> {
    v.as_array()
        .expect("float array")
        .iter()
        .map(|x| x.as_f64().expect("float") as f32)
        .collect()
}

/// Re-serialises a safetensors file: `rename` maps (or drops) each key, `extra` adds tensors.
pub fn rewrite_safetensors(
    bytes: &[u8],
    rename: impl Fn(&str) -> Option<String>,
    extra: Vec<(String, safetensors::Dtype, Vec<usize>, Vec<u8>)>,
) -> Vec<u8> {
    let st = safetensors::SafeTensors::deserialize(bytes).unwrap();
    let mut owned: Vec<(String, safetensors::Dtype, Vec<usize>, Vec<u8>)> = st
        .tensors()
        .into_iter()
        .filter_map(|(name, v)| {
            rename(&name).map(|n| (n, v.dtype(), v.shape().to_vec(), v.data().to_vec()))
        })
        .collect();
    owned.extend(extra);
    let views: Vec<(String, safetensors::tensor::TensorView)> = owned
        .iter()
        .map(|(n, d, s, data)| {
            (
                n.clone(),
                safetensors::tensor::TensorView::new(*d, s.clone(), data).unwrap(),
            )
        })
        .collect();
    safetensors::serialize(views, None).unwrap()
}

/// The logit rows llama.cpp's samplers were given.
pub fn llama_rows() -> Vec<Vec<f32>> {
    let bytes: &[u8] = fixture!("llama/logits.f32");
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect::<Vec<f32>>()
        .chunks(50257)
        .map(<[f32]>::to_vec)
        .collect()
}
