//! A student's `minigpt.pt` as a model folder: the state dict read
//! ([`torch_checkpoint`]), MiniGPT's sizes read off its tensors, every name
//! checked as `load_state_dict(strict=True)` checks them, and the result
//! written as `config.json` (dnnlpy's argument names) and `model.safetensors`
//! (dnnlpy's tensor names, the stored dtype kept) — what the loader reads,
//! and what the page saves so a teacher can host the model.
//!
//! [`torch_checkpoint`]: crate::torch_checkpoint

use crate::error::LoadError;
use crate::model_config::minigpt::MiniGptArgs;
use crate::torch_checkpoint::{read_state_dict, NamedTensor, StorageType};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A MiniGPT as a hosted folder holds it.
pub struct MiniGptFolder {
    pub args: MiniGptArgs,
    /// `config.json`.
    pub config: Vec<u8>,
    /// `model.safetensors` (a tied head stored once, as `token_embed.weight`).
    pub safetensors: Vec<u8>,
}

/// Why a folder could not be zipped (only an allocation or a size past
/// what a zip can hold: the bytes are in memory).
#[derive(Debug, thiserror::Error)]
#[error("could not zip the model folder: {0}")]
pub struct ZipFolderError(#[from] zip::result::ZipError);

impl MiniGptFolder {
    /// The folder, with the `tokenizer.json` the model was loaded with, as
    /// a zip holding `name/config.json`, `name/model.safetensors` and
    /// `name/tokenizer.json` (stored, not deflated: the weights do not
    /// compress) — unzipped into a site's `models/`, a folder the page
    /// loads as `?model=models/name/`.
    pub fn zipped(&self, name: &str, tokenizer: &[u8]) -> Result<Vec<u8>, ZipFolderError> {
        use std::io::Write;
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (file, bytes) in [
            ("config.json", &self.config[..]),
            ("model.safetensors", &self.safetensors[..]),
            ("tokenizer.json", tokenizer),
        ] {
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored)
                .large_file(bytes.len() as u64 >= u32::MAX as u64);
            zip.start_file(format!("{name}/{file}"), options)?;
            zip.write_all(bytes).map_err(zip::result::ZipError::Io)?;
        }
        Ok(zip.finish()?.into_inner())
    }
}

fn err(message: impl Into<String>) -> LoadError {
    LoadError::Torch {
        message: message.into(),
        source: None,
    }
}

/// Where the head count comes from: the page's field (or `--heads`), else
/// `config.json` beside the file, else the tutorial's 4.
pub fn minigpt_folder(
    pt: &[u8],
    config: Option<&[u8]>,
    num_heads: Option<usize>,
) -> Result<MiniGptFolder, LoadError> {
    let tensors = read_state_dict(pt).map_err(|e| LoadError::Torch {
        message: e.to_string(),
        source: Some(e),
    })?;
    let given: Option<serde_json::Value> = config
        .map(|c| {
            serde_json::from_slice(c).map_err(|e| LoadError::Config {
                message: format!("not valid JSON ({e})"),
                source: Some(e),
            })
        })
        .transpose()?;
    let field = |name: &str| given.as_ref().and_then(|g| g.get(name));
    let shapes: BTreeMap<&str, &NamedTensor> =
        tensors.iter().map(|t| (t.name.as_str(), t)).collect();
    let shape_of = |name: &str| -> Result<&[usize], LoadError> {
        shapes.get(name).map(|t| t.shape.as_slice()).ok_or_else(|| {
            err(format!(
                "it has no `{name}`; is it a MiniGPT state dict (seed 004's \
                 `torch.save(model.state_dict(), 'models/minigpt.pt')`)? It holds {}",
                listed(shapes.keys().copied())
            ))
        })
    };
    let [vocab, width] = two(shape_of("token_embed.weight")?, "token_embed.weight")?;
    let [block, pos_width] = two(shape_of("pos_embed.weight")?, "pos_embed.weight")?;
    if pos_width != width {
        return Err(err(format!(
            "`pos_embed.weight` is {block}×{pos_width} but `token_embed.weight` is \
             {vocab}×{width}: the widths must agree"
        )));
    }
    let layers = (0..)
        .take_while(|l| shapes.contains_key(format!("blocks.{l}.norm1.weight").as_str()))
        .count();
    if layers == 0 {
        shape_of("blocks.0.norm1.weight")?;
    }
    let [hidden, _] = two(
        shape_of("blocks.0.mlp.net.0.weight")?,
        "blocks.0.mlp.net.0.weight",
    )?;
    let bias = shapes.contains_key("blocks.0.attn.attn.q_proj.bias");
    let tied = match shapes.get("lm_head.weight") {
        None => true,
        Some(head) => head.same_as.as_deref() == Some("token_embed.weight"),
    };
    let heads = match (num_heads, field("num_heads")) {
        (Some(h), _) => h as i64,
        (None, Some(v)) => v.as_i64().ok_or_else(|| {
            LoadError::config(format!("`num_heads` is {v}; it must be a whole number"))
        })?,
        (None, None) => 4,
    };
    if heads < 1 || width % heads as usize != 0 {
        return Err(LoadError::config(format!(
            "`num_heads` is {heads}, which does not divide the width {width} of this \
             MiniGPT; the tutorial's model (embed_dim=256) has 4"
        )));
    }
    let eos_token_id = field("eos_token_id").and_then(|v| v.as_i64());
    let args = MiniGptArgs {
        vocab_size: vocab as i64,
        block_size: block as i64,
        embed_dim: width as i64,
        num_layers: layers as i64,
        num_heads: heads,
        hidden_dim: hidden as i64,
        bias,
        weight_tying: tied,
        eos_token_id,
    };
    // Every name and shape as dnnlpy's MiniGPT(args) has them.
    let expected = expected_shapes(&args);
    let missing: Vec<&str> = expected
        .keys()
        .filter(|k| !shapes.contains_key(k.as_str()))
        .map(|k| k.as_str())
        .collect();
    let unexpected: Vec<&str> = shapes
        .keys()
        .filter(|k| !(expected.contains_key(**k) || tied && **k == "lm_head.weight"))
        .copied()
        .collect();
    if !missing.is_empty() || !unexpected.is_empty() {
        return Err(err(format!(
            "it is not the MiniGPT its tensors describe ({layers} blocks, width {width}, \
             {} biases): missing {}; unexpected {}",
            if bias { "with" } else { "without" },
            listed(missing.iter().copied()),
            listed(unexpected.iter().copied())
        )));
    }
    for (name, want) in &expected {
        let got = &shapes[name.as_str()].shape;
        if got != want {
            return Err(err(format!(
                "`{name}` is {} but this MiniGPT (vocab {vocab}, width {width}, MLP \
                 {hidden}, context {block}) needs {}",
                dims(got),
                dims(want)
            )));
        }
    }
    // F64 (a model saved after `.double()`) is stored as F32; others as they are.
    let kept: Vec<(&NamedTensor, safetensors::Dtype, Cow<[u8]>)> = tensors
        .iter()
        .filter(|t| expected.contains_key(&t.name))
        .map(|t| match t.dtype {
            StorageType::F32 => (t, safetensors::Dtype::F32, Cow::Borrowed(&t.bytes[..])),
            StorageType::F16 => (t, safetensors::Dtype::F16, Cow::Borrowed(&t.bytes[..])),
            StorageType::BF16 => (t, safetensors::Dtype::BF16, Cow::Borrowed(&t.bytes[..])),
            StorageType::F64 => (
                t,
                safetensors::Dtype::F32,
                Cow::Owned(t.to_f32().iter().flat_map(|v| v.to_le_bytes()).collect()),
            ),
        })
        .collect();
    let views: Vec<(String, safetensors::tensor::TensorView)> = kept
        .iter()
        .map(|(t, dtype, bytes)| {
            safetensors::tensor::TensorView::new(*dtype, t.shape.clone(), bytes)
                .map(|v| (t.name.clone(), v))
                .map_err(|e| {
                    err(format!(
                        "could not lay `{}` out as safetensors: {e}",
                        t.name
                    ))
                })
        })
        .collect::<Result<_, _>>()?;
    let meta = std::collections::HashMap::from([("format".to_string(), "pt".to_string())]);
    let safetensors = safetensors::serialize(views, Some(meta))
        .map_err(|e| err(format!("could not write it as safetensors: {e}")))?;
    let mut config = serde_json::json!({"model_type": "minigpt", "architectures": ["MiniGPT"]});
    if let (Some(obj), serde_json::Value::Object(a)) = (
        config.as_object_mut(),
        serde_json::to_value(&args).map_err(|e| err(e.to_string()))?,
    ) {
        obj.extend(a);
    }
    Ok(MiniGptFolder {
        args,
        config: serde_json::to_vec_pretty(&config).map_err(|e| err(e.to_string()))?,
        safetensors,
    })
}

fn two(shape: &[usize], name: &str) -> Result<[usize; 2], LoadError> {
    match shape {
        [a, b] => Ok([*a, *b]),
        other => Err(err(format!("`{name}` is {}, not a matrix", dims(other)))),
    }
}

fn dims(shape: &[usize]) -> String {
    match shape.len() {
        0 => "a scalar".into(),
        _ => shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("×"),
    }
}

/// At most eight names, then how many more.
fn listed<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    if names.is_empty() {
        return "none".into();
    }
    let mut s = names
        .iter()
        .take(8)
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 8 {
        s.push_str(&format!(" and {} more", names.len() - 8));
    }
    s
}

/// dnnlpy's `MiniGPT(**args).state_dict()` names and shapes.
pub(crate) fn expected_shapes(a: &MiniGptArgs) -> BTreeMap<String, Vec<usize>> {
    let (v, b, d, h) = (
        a.vocab_size as usize,
        a.block_size as usize,
        a.embed_dim as usize,
        a.hidden_dim as usize,
    );
    let mut m = BTreeMap::new();
    m.insert("token_embed.weight".into(), vec![v, d]);
    m.insert("pos_embed.weight".into(), vec![b, d]);
    let norm = |m: &mut BTreeMap<String, Vec<usize>>, p: &str| {
        m.insert(format!("{p}.weight"), vec![d]);
        if a.bias {
            m.insert(format!("{p}.bias"), vec![d]);
        }
    };
    for l in 0..a.num_layers {
        let p = format!("blocks.{l}");
        norm(&mut m, &format!("{p}.norm1"));
        norm(&mut m, &format!("{p}.norm2"));
        let lin = |m: &mut BTreeMap<String, Vec<usize>>, key: String, o: usize, i: usize| {
            m.insert(format!("{key}.weight"), vec![o, i]);
            if a.bias {
                m.insert(format!("{key}.bias"), vec![o]);
            }
        };
        for proj in ["q_proj", "k_proj", "v_proj", "out_proj"] {
            lin(&mut m, format!("{p}.attn.attn.{proj}"), d, d);
        }
        lin(&mut m, format!("{p}.mlp.net.0"), h, d);
        lin(&mut m, format!("{p}.mlp.net.2"), d, h);
    }
    norm(&mut m, "final_norm");
    if !a.weight_tying {
        m.insert("lm_head.weight".into(), vec![v, d]);
    }
    m
}
