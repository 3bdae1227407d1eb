//! A `torch.save(model.state_dict(), path)` file as named tensors: the zip
//! torch ≥ 1.6 writes (`<name>/data.pkl`, one `<name>/data/<key>` entry per
//! storage, `<name>/byteorder`), its pickle read as data by `torch_pickle`.
//! Tensors that share a storage at the same place (a tied head saved under
//! two names) are reported as such.

use crate::torch_pickle::{self, TensorRef, Value};
pub use crate::torch_pickle::{PickleError, StorageType};
use std::collections::HashMap;
use std::io::{Cursor, Read};
use std::rc::Rc;

/// The pickle of a state dict is a few kB per hundred tensors; more than
/// this is not one.
const MAX_PICKLE: u64 = 16 << 20;

#[derive(Debug, thiserror::Error)]
pub enum TorchError {
    #[error("it is not a PyTorch zip file ({0}); save it with torch.save from torch 1.6 or later")]
    NotZip(#[source] zip::result::ZipError),
    #[error("it has no data.pkl; it is not a file torch.save wrote")]
    NoPickle,
    #[error("its entry `{entry}` could not be read: {source}")]
    Entry {
        entry: String,
        #[source]
        source: std::io::Error,
    },
    #[error("its entry `{entry}` could not be opened: {source}")]
    Zip {
        entry: String,
        #[source]
        source: zip::result::ZipError,
    },
    #[error("its data.pkl is {0} bytes; a state dict's is a few kB")]
    PickleTooLarge(u64),
    #[error("it was saved on a big-endian machine; save it again on a PC or Mac")]
    BigEndian,
    #[error("{0}")]
    Pickle(#[from] PickleError),
    #[error("it holds {0}, not a state dict (`torch.save(model.state_dict(), path)` saves one)")]
    NotStateDict(&'static str),
    #[error("its entry `{key}` is {found}, not a tensor; a state dict maps names to tensors")]
    NotTensor { key: String, found: &'static str },
    #[error("tensor `{name}` reads past the end of its storage ({needed} elements of {numel})")]
    OutOfStorage {
        name: String,
        needed: usize,
        numel: usize,
    },
    #[error("tensor `{name}`'s storage `{key}` is missing or shorter than it says")]
    MissingStorage { name: String, key: String },
    #[error("tensor `{name}` has {0} elements, more than a model this page can hold", .count)]
    TooLarge { name: String, count: u128 },
}

/// One tensor of the state dict, its elements gathered in row-major order
/// and kept in the storage's type (little-endian bytes).
#[derive(Debug, Clone)]
pub struct NamedTensor {
    pub name: String,
    pub dtype: StorageType,
    pub shape: Vec<usize>,
    pub bytes: Vec<u8>,
    /// The name of an earlier tensor that is this very tensor (same storage,
    /// offset, shape and stride): a tied weight saved under both names.
    pub same_as: Option<String>,
}

impl NamedTensor {
    /// The elements in f32 (F64 rounded, F16/BF16 widened exactly).
    pub fn to_f32(&self) -> Vec<f32> {
        match self.dtype {
            StorageType::F32 => self
                .bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            StorageType::F64 => self
                .bytes
                .chunks_exact(8)
                .map(|b| {
                    let mut a = [0u8; 8];
                    a.copy_from_slice(b);
                    f64::from_le_bytes(a) as f32
                })
                .collect(),
            StorageType::F16 => self
                .bytes
                .chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            StorageType::BF16 => self
                .bytes
                .chunks_exact(2)
                .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
        }
    }
}

/// The state dict in `bytes`, in the file's order. A checkpoint dict that
/// holds one under `state_dict`, `model_state_dict` or `model` (as training
/// scripts often save) gives that one.
pub fn read_state_dict(bytes: &[u8]) -> Result<Vec<NamedTensor>, TorchError> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(TorchError::NotZip)?;
    let pickle_name = zip
        .file_names()
        .filter_map(|n| n.ok())
        .filter(|n| n.ends_with("data.pkl"))
        .min_by_key(|n| n.len())
        .ok_or(TorchError::NoPickle)?
        .to_string();
    let prefix = pickle_name.trim_end_matches("data.pkl").to_string();
    if let Ok(order) = read_entry(&mut zip, &format!("{prefix}byteorder"), 16) {
        if order.trim_ascii() == b"big" {
            return Err(TorchError::BigEndian);
        }
    }
    let pickle = read_entry(&mut zip, &pickle_name, MAX_PICKLE)?;
    let root = torch_pickle::load(&pickle)?;
    let dict = state_dict_of(root.root())?;
    let mut storages: HashMap<String, Vec<u8>> = HashMap::new();
    let mut seen: Vec<(Rc<TensorRef>, String)> = Vec::new();
    let mut out = Vec::with_capacity(dict.len());
    for (key, value) in dict {
        let Value::Tensor(t) = &value else {
            return Err(TorchError::NotTensor {
                key,
                found: kind(&value),
            });
        };
        let same_as = seen
            .iter()
            .find(|(other, _)| {
                Rc::ptr_eq(&other.storage, &t.storage)
                    && other.offset == t.offset
                    && other.shape == t.shape
                    && other.stride == t.stride
            })
            .map(|(_, n)| n.clone());
        let storage = match storages.get(&t.storage.key) {
            Some(s) => s,
            None => {
                let entry = format!("{prefix}data/{}", t.storage.key);
                let want = (t.storage.numel as u64).saturating_mul(t.storage.dtype.size() as u64);
                let data = read_entry(&mut zip, &entry, want)
                    .ok()
                    .filter(|d| d.len() as u64 >= want)
                    .ok_or_else(|| TorchError::MissingStorage {
                        name: key.clone(),
                        key: t.storage.key.clone(),
                    })?;
                storages.entry(t.storage.key.clone()).or_insert(data)
            }
        };
        let bytes = gather(&key, t, storage)?;
        seen.push((t.clone(), key.clone()));
        out.push(NamedTensor {
            name: key,
            dtype: t.storage.dtype,
            shape: t.shape.clone(),
            bytes,
            same_as,
        });
    }
    Ok(out)
}

/// An entry's bytes, at most `limit` of them (a larger entry is an error).
fn read_entry(
    zip: &mut zip::ZipArchive<Cursor<&[u8]>>,
    entry: &str,
    limit: u64,
) -> Result<Vec<u8>, TorchError> {
    let file = zip.by_name(entry).map_err(|source| TorchError::Zip {
        entry: entry.into(),
        source,
    })?;
    if file.size() > limit && entry.ends_with("data.pkl") {
        return Err(TorchError::PickleTooLarge(file.size()));
    }
    let mut out = Vec::with_capacity(file.size().min(limit) as usize);
    file.take(limit)
        .read_to_end(&mut out)
        .map_err(|source| TorchError::Entry {
            entry: entry.into(),
            source,
        })?;
    Ok(out)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::None => "None",
        Value::Bool => "a bool",
        Value::Int(_) => "an integer",
        Value::Float => "a float",
        Value::Str(_) => "a string",
        Value::Tuple(_) => "a tuple",
        Value::List(_) => "a list",
        Value::Dict(_) => "a dict",
        Value::Global(_) => "a class",
        Value::Storage(_) => "a storage",
        Value::Tensor(_) => "a tensor",
        Value::Mark => "a pickle mark",
    }
}

/// The string-keyed entries of the state dict `root` is or holds.
fn state_dict_of(root: &Value) -> Result<Vec<(String, Value)>, TorchError> {
    let Value::Dict(d) = root else {
        return Err(TorchError::NotStateDict(kind(root)));
    };
    let d = d.borrow();
    let nested = ["state_dict", "model_state_dict", "model"]
        .iter()
        .find_map(|want| {
            d.iter().find_map(|(k, v)| match (k, v) {
                (Value::Str(k), Value::Dict(_)) if &**k == *want => Some(v.clone()),
                _ => None,
            })
        });
    if let Some(inner) = nested {
        if !d.iter().all(|(_, v)| matches!(v, Value::Tensor(_))) {
            return state_dict_of(&inner);
        }
    }
    let mut out = Vec::with_capacity(d.len());
    for (k, v) in d.iter() {
        let Value::Str(k) = k else {
            return Err(TorchError::NotStateDict("a dict whose keys are not names"));
        };
        out.push((k.to_string(), v.clone()));
    }
    if out.is_empty() {
        return Err(TorchError::NotStateDict("an empty dict"));
    }
    Ok(out)
}

/// The tensor's elements in row-major order, read through its strides.
fn gather(name: &str, t: &TensorRef, storage: &[u8]) -> Result<Vec<u8>, TorchError> {
    let size = t.storage.dtype.size();
    let count: u128 = t.shape.iter().map(|&s| s as u128).product();
    if count > (1u128 << 31) {
        return Err(TorchError::TooLarge {
            name: name.into(),
            count,
        });
    }
    let count = count as usize;
    // The last element read: offset + Σ (size_i − 1)·stride_i (none if empty).
    let last = if count == 0 {
        0
    } else {
        t.shape
            .iter()
            .zip(&t.stride)
            .try_fold(t.offset as u128, |acc, (&s, &st)| {
                Some(acc + (s as u128 - 1) * st as u128)
            })
            .unwrap_or(u128::MAX)
    };
    let numel = t.storage.numel.min(storage.len() / size);
    if count > 0 && last >= numel as u128 {
        return Err(TorchError::OutOfStorage {
            name: name.into(),
            needed: last.saturating_add(1).min(usize::MAX as u128) as usize,
            numel,
        });
    }
    let contiguous = {
        let mut expect = 1usize;
        let mut ok = true;
        for (&s, &st) in t.shape.iter().zip(&t.stride).rev() {
            if s > 1 && st != expect {
                ok = false;
            }
            expect = expect.saturating_mul(s);
        }
        ok
    };
    if contiguous {
        let start = t.offset * size;
        return Ok(storage[start..start + count * size].to_vec());
    }
    let mut out = Vec::with_capacity(count * size);
    let mut index = vec![0usize; t.shape.len()];
    for _ in 0..count {
        let at = t.offset
            + index
                .iter()
                .zip(&t.stride)
                .map(|(&i, &st)| i * st)
                .sum::<usize>();
        out.extend_from_slice(&storage[at * size..(at + 1) * size]);
        for d in (0..index.len()).rev() {
            index[d] += 1;
            if index[d] < t.shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
    Ok(out)
}
