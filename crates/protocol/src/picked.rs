//! Which of the files a user picks (or drops: often a whole downloaded repo
//! folder) make the model, laid out as the hub's repos are: `config.json`;
//! `tokenizer.json` or `vocab.json` + `merges.txt`; `model.safetensors` or its
//! shards; `generation_config.json` and `tokenizer_config.json` if they are
//! there. Or llama.cpp's way: one `.gguf` file, which carries its own config,
//! beside the tokenizer. Or a student's MiniGPT (seed 004): its `minigpt.pt`
//! state dict beside its `tokenizer.json` (and a `config.json` with its head
//! count, if there is one). Other files of a repo are passed over; a
//! pickle-only folder is told what to do. The page picks the files with it
//! and the worker reads them.

#[derive(Debug, Clone, PartialEq)]
pub enum PickedTokenizer {
    Json(usize),
    VocabMerges {
        vocab: usize,
        merges: usize,
    },
    /// A `.gguf` file picked alone: the tokenizer its metadata describes.
    InGguf,
}

/// The weights, and the config they need.
#[derive(Debug, Clone, PartialEq)]
pub enum PickedWeights {
    /// `config.json`, and one `model.safetensors` or the shards in name order.
    Safetensors { config: usize, files: Vec<usize> },
    /// One `.gguf` file: its metadata is its config.
    Gguf(usize),
    /// One PyTorch state dict (`minigpt.pt`), and `config.json` when picked.
    Torch { pt: usize, config: Option<usize> },
}

/// Indices into the picked names.
#[derive(Debug, Clone, PartialEq)]
pub struct PickedLayout {
    pub weights: PickedWeights,
    pub tokenizer: PickedTokenizer,
    /// The model's own generation defaults, when picked.
    pub generation_config: Option<usize>,
    /// The tokenizer's settings (an Instruct model's chat template), when picked.
    pub tokenizer_config: Option<usize>,
}

impl PickedLayout {
    /// The files to read, in the order the worker expects them.
    pub fn order(&self) -> Vec<usize> {
        let mut out = match &self.weights {
            PickedWeights::Safetensors { config, .. } => vec![*config],
            PickedWeights::Gguf(_) => vec![],
            PickedWeights::Torch { config, .. } => config.iter().copied().collect(),
        };
        match self.tokenizer {
            PickedTokenizer::Json(t) => out.push(t),
            PickedTokenizer::VocabMerges { vocab, merges } => out.extend([vocab, merges]),
            PickedTokenizer::InGguf => {}
        }
        match &self.weights {
            PickedWeights::Safetensors { files, .. } => out.extend(files),
            PickedWeights::Gguf(g) => out.push(*g),
            PickedWeights::Torch { pt, .. } => out.push(*pt),
        }
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
    #[error("pick model.safetensors too (or all its shards, or one llama.cpp .gguf file)")]
    NoWeights,
    #[error("pick either model.safetensors or its shards, not both")]
    WholeAndShards,
    #[error("pick one .gguf file, not several ({})", .0.join(", "))]
    SeveralGguf(Vec<String>),
    #[error("pick either the .gguf file or the safetensors weights, not both")]
    GgufAndSafetensors,
    #[error("pick one .pt file, not several ({})", .0.join(", "))]
    SeveralPt(Vec<String>),
}

/// A PyTorch state dict's file name (`minigpt.pt`, `model.pth`): its stem,
/// which names the folder it can be saved as.
pub fn state_dict_stem(name: &str) -> Option<&str> {
    name.strip_suffix(".pt")
        .or_else(|| name.strip_suffix(".pth"))
}

pub fn picked_layout(names: &[String]) -> Result<PickedLayout, PickError> {
    let find = |want: &str| names.iter().position(|n| n == want);
    let tokenizer = match (
        find("tokenizer.json"),
        find("vocab.json"),
        find("merges.txt"),
    ) {
        (Some(t), _, _) => Some(PickedTokenizer::Json(t)),
        (None, Some(vocab), Some(merges)) => Some(PickedTokenizer::VocabMerges { vocab, merges }),
        _ => None,
    };
    let mut weights: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].ends_with(".safetensors"))
        .collect();
    weights.sort_by(|&a, &b| names[a].cmp(&names[b]));
    let gguf: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].ends_with(".gguf"))
        .collect();
    let weights = match (&gguf[..], weights.is_empty()) {
        ([], _) => weights,
        ([g], true) => {
            return Ok(PickedLayout {
                weights: PickedWeights::Gguf(*g),
                tokenizer: tokenizer.unwrap_or(PickedTokenizer::InGguf),
                generation_config: find("generation_config.json"),
                tokenizer_config: find("tokenizer_config.json"),
            })
        }
        ([_], false) => return Err(PickError::GgufAndSafetensors),
        (several, _) => {
            return Err(PickError::SeveralGguf(
                several.iter().map(|&i| names[i].clone()).collect(),
            ))
        }
    };
    // A student's MiniGPT: its state dict, when no other weights are picked.
    let pt: Vec<usize> = (0..names.len())
        .filter(|&i| state_dict_stem(&names[i]).is_some())
        .collect();
    if weights.is_empty() && !pt.is_empty() {
        let [pt] = pt[..] else {
            return Err(PickError::SeveralPt(
                pt.iter().map(|&i| names[i].clone()).collect(),
            ));
        };
        return Ok(PickedLayout {
            weights: PickedWeights::Torch {
                pt,
                config: find("config.json"),
            },
            tokenizer: tokenizer.ok_or(PickError::NoTokenizer)?,
            generation_config: find("generation_config.json"),
            tokenizer_config: None,
        });
    }
    let tokenizer = tokenizer.ok_or(PickError::NoTokenizer)?;
    let config = find("config.json").ok_or(PickError::NoConfig)?;
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
        weights: PickedWeights::Safetensors {
            config,
            files: weights,
        },
        tokenizer,
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
    fn a_students_minigpt_is_its_pt_beside_its_tokenizer() {
        let n = names(&["tokenizer.json", "minigpt.pt", "notes.txt"]);
        let l = picked_layout(&n).unwrap();
        assert_eq!(
            l.weights,
            PickedWeights::Torch {
                pt: 1,
                config: None
            }
        );
        assert_eq!(l.order(), [0, 1]);
        let with = names(&["minigpt.pt", "config.json", "tokenizer.json"]);
        assert_eq!(picked_layout(&with).unwrap().order(), [1, 2, 0]);
        assert_eq!(
            picked_layout(&names(&["minigpt.pt"])),
            Err(PickError::NoTokenizer)
        );
        assert!(matches!(
            picked_layout(&names(&["a.pt", "b.pt", "tokenizer.json"])),
            Err(PickError::SeveralPt(_))
        ));
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
    fn a_gguf_file_needs_no_config_and_comes_after_the_tokenizer() {
        let n = names(&[
            "README.md",
            "SmolLM2-135M-Q4_K_M.gguf",
            "config.json",
            "tokenizer.json",
        ]);
        let l = picked_layout(&n).unwrap();
        assert_eq!(l.weights, PickedWeights::Gguf(1));
        assert_eq!(
            l.order(),
            [3, 1],
            "config.json is passed over: the file carries its own"
        );
    }

    #[test]
    fn a_gguf_file_alone_brings_its_own_tokenizer() {
        let l = picked_layout(&names(&["SmolLM2-135M-Q8_0.gguf", "notes.txt"])).unwrap();
        assert_eq!(
            (l.weights.clone(), l.tokenizer.clone()),
            (PickedWeights::Gguf(0), PickedTokenizer::InGguf)
        );
        assert_eq!(l.order(), [0]);
    }

    #[test]
    fn missing_or_unusable_files_say_what_to_pick() {
        for (picked, why) in [
            (
                &["model.safetensors", "tokenizer.json"][..],
                "pick config.json",
            ),
            (
                &["a-Q4_K_M.gguf", "b-Q8_0.gguf", "tokenizer.json"],
                "not several (a-Q4_K_M.gguf, b-Q8_0.gguf)",
            ),
            (
                &[
                    "m.gguf",
                    "model.safetensors",
                    "config.json",
                    "tokenizer.json",
                ],
                "not both",
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
