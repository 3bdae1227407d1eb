//! Which of the files a user picks (or drops: often a whole downloaded repo
//! folder) make the model, laid out as the hub's repos are: `config.json`;
//! `tokenizer.json` or `vocab.json` + `merges.txt`; `model.safetensors` or its
//! shards; `generation_config.json` and `tokenizer_config.json` if they are there. Other files of a repo are passed over; a pickle-only folder is told
//! what to do. The page picks the files with it and the worker reads them.

#[derive(Debug, Clone, PartialEq)]
pub enum PickedTokenizer {
    Json(usize),
    VocabMerges { vocab: usize, merges: usize },
}

/// Indices into the picked names.
#[derive(Debug, Clone, PartialEq)]
pub struct PickedLayout {
    pub config: usize,
    pub tokenizer: PickedTokenizer,
    /// One file, or the shards in name order.
    pub weights: Vec<usize>,
    /// The model's own generation defaults, when picked.
    pub generation_config: Option<usize>,
    /// The tokenizer's settings (an Instruct model's chat template), when picked.
    pub tokenizer_config: Option<usize>,
}

impl PickedLayout {
    /// The files to read, in the order the worker expects them.
    pub fn order(&self) -> Vec<usize> {
        let mut out = vec![self.config];
        match self.tokenizer {
            PickedTokenizer::Json(t) => out.push(t),
            PickedTokenizer::VocabMerges { vocab, merges } => out.extend([vocab, merges]),
        }
        out.extend(&self.weights);
        out.extend(self.generation_config);
        out.extend(self.tokenizer_config);
        out
    }
}

/// What is missing from a set of picked files, said as what to pick.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PickError {
    #[error(
        "pick config.json with the model's other files (config.json, model.safetensors, \
         tokenizer.json)"
    )]
    NoConfig,
    #[error("pick tokenizer.json too (or vocab.json with merges.txt)")]
    NoTokenizer,
    #[error(
        "pytorch_model.bin is a PyTorch pickle a browser cannot read; convert it with \
         transformers (save_pretrained(..., safe_serialization=True)) and pick the \
         model.safetensors it writes"
    )]
    PickleOnly,
    #[error("pick model.safetensors too (or all its shards)")]
    NoWeights,
    #[error("pick either model.safetensors or its shards, not both")]
    WholeAndShards,
}

pub fn picked_layout(names: &[String]) -> Result<PickedLayout, PickError> {
    let find = |want: &str| names.iter().position(|n| n == want);
    let config = find("config.json").ok_or(PickError::NoConfig)?;
    let tokenizer = match (
        find("tokenizer.json"),
        find("vocab.json"),
        find("merges.txt"),
    ) {
        (Some(t), _, _) => PickedTokenizer::Json(t),
        (None, Some(vocab), Some(merges)) => PickedTokenizer::VocabMerges { vocab, merges },
        _ => return Err(PickError::NoTokenizer),
    };
    let mut weights: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].ends_with(".safetensors"))
        .collect();
    weights.sort_by(|&a, &b| names[a].cmp(&names[b]));
    if weights.is_empty() {
        return Err(if names.iter().any(|n| n.ends_with(".bin")) {
            PickError::PickleOnly
        } else {
            PickError::NoWeights
        });
    }
    if weights.len() > 1 && weights.iter().any(|&i| names[i] == "model.safetensors") {
        return Err(PickError::WholeAndShards);
    }
    Ok(PickedLayout {
        config,
        tokenizer,
        weights,
        generation_config: find("generation_config.json"),
        tokenizer_config: find("tokenizer_config.json"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_whole_repo_folder_picks_its_files_and_passes_over_the_rest() {
        let n = names(&[
            "README.md",
            "tokenizer.json",
            "generation_config.json",
            "model.safetensors",
            "config.json",
            "vocab.json",
            "merges.txt",
        ]);
        let l = picked_layout(&n).unwrap();
        assert_eq!(
            l.order(),
            [4, 1, 3, 2],
            "tokenizer.json wins over vocab + merges; the model's generation defaults come last"
        );
        let without = names(&["config.json", "tokenizer.json", "model.safetensors"]);
        assert_eq!(picked_layout(&without).unwrap().generation_config, None);
        let instruct = names(&[
            "tokenizer_config.json",
            "config.json",
            "tokenizer.json",
            "model.safetensors",
        ]);
        assert_eq!(
            picked_layout(&instruct).unwrap().order(),
            [1, 2, 3, 0],
            "an Instruct folder's chat template travels with it, last"
        );
    }

    #[test]
    fn older_and_sharded_layouts_are_taken_in_order() {
        let n = names(&[
            "model-00002-of-00002.safetensors",
            "merges.txt",
            "config.json",
            "model.safetensors.index.json",
            "vocab.json",
            "model-00001-of-00002.safetensors",
        ]);
        let l = picked_layout(&n).unwrap();
        assert_eq!(
            l.tokenizer,
            PickedTokenizer::VocabMerges {
                vocab: 4,
                merges: 1
            }
        );
        assert_eq!(l.order(), [2, 4, 1, 5, 0]);
    }

    #[test]
    fn missing_or_unusable_files_say_what_to_pick() {
        for (picked, why) in [
            (
                &["model.safetensors", "tokenizer.json"][..],
                "pick config.json",
            ),
            (
                &["config.json", "model.safetensors", "vocab.json"],
                "pick tokenizer.json",
            ),
            (&["config.json", "tokenizer.json"], "pick model.safetensors"),
            (
                &["config.json", "tokenizer.json", "pytorch_model.bin"],
                "PyTorch pickle",
            ),
            (
                &[
                    "config.json",
                    "tokenizer.json",
                    "model.safetensors",
                    "model-00001-of-00002.safetensors",
                ],
                "not both",
            ),
        ] {
            let e = picked_layout(&names(picked)).unwrap_err().to_string();
            assert!(e.contains(why), "{picked:?}: {e}");
        }
    }
}
