//! `model.safetensors.index.json`: which files a sharded checkpoint is split
//! into (as the hub's larger GPT-2s ship), checked so a hostile index cannot
//! send the page anywhere but beside it.

/// What is wrong with a `model.safetensors.index.json`, worded to follow its
/// file name ("model.safetensors.index.json has no weight_map").
#[derive(Debug, thiserror::Error)]
pub enum ShardIndexError {
    #[error("is not JSON ({0})")]
    NotJson(#[source] serde_json::Error),
    #[error("has no weight_map")]
    NoWeightMap,
    #[error("names a shard that is not a string")]
    NotAString,
    #[error("names `{0}`, which is not a safetensors file beside it")]
    Elsewhere(String),
    #[error("lists no shards")]
    Empty,
}

/// The shard names of `model.safetensors.index.json`, in order, and the
/// weights' total size it states.
pub fn shard_names(index: &[u8]) -> Result<(Vec<String>, Option<u64>), ShardIndexError> {
    let v: serde_json::Value = serde_json::from_slice(index).map_err(ShardIndexError::NotJson)?;
    let map = v
        .get("weight_map")
        .and_then(|m| m.as_object())
        .ok_or(ShardIndexError::NoWeightMap)?;
    let mut names: Vec<String> = map
        .values()
        .map(|f| {
            f.as_str()
                .map(str::to_string)
                .ok_or(ShardIndexError::NotAString)
        })
        .collect::<Result<_, _>>()?;
    names.sort();
    names.dedup();
    // A file name beside the index, nothing that walks elsewhere.
    if let Some(bad) = names.iter().find(|n| {
        !n.ends_with(".safetensors") || n.contains('/') || n.contains('\\') || n.starts_with('.')
    }) {
        return Err(ShardIndexError::Elsewhere(bad.clone()));
    }
    if names.is_empty() {
        return Err(ShardIndexError::Empty);
    }
    let total = v.pointer("/metadata/total_size").and_then(|t| t.as_u64());
    Ok((names, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_listed_once_in_order_with_the_total() {
        let index = br#"{"metadata": {"total_size": 1234},
            "weight_map": {"wte.weight": "model-00002-of-00002.safetensors",
                           "h.0.ln_1.weight": "model-00001-of-00002.safetensors",
                           "h.0.ln_1.bias": "model-00001-of-00002.safetensors"}}"#;
        let (names, total) = shard_names(index).unwrap();
        assert_eq!(
            names,
            [
                "model-00001-of-00002.safetensors",
                "model-00002-of-00002.safetensors"
            ]
        );
        assert_eq!(total, Some(1234));
    }

    #[test]
    fn an_index_naming_files_elsewhere_or_nothing_is_refused() {
        for (index, why) in [
            (
                &br#"{"weight_map": {"a": "../../evil.safetensors"}}"#[..],
                "not a safetensors file beside it",
            ),
            (
                br#"{"weight_map": {"a": "https://evil.example/x.safetensors"}}"#,
                "not a safetensors file beside it",
            ),
            (
                br#"{"weight_map": {"a": "pytorch_model-00001.bin"}}"#,
                "not a safetensors file beside it",
            ),
            (br#"{"weight_map": {}}"#, "lists no shards"),
            (br#"{"metadata": {}}"#, "has no weight_map"),
            (br#"{"weight_map": {"a": 3}}"#, "not a string"),
            (b"<html>", "is not JSON"),
        ] {
            let e = shard_names(index).unwrap_err().to_string();
            assert!(e.contains(why), "{e}");
        }
    }
}
