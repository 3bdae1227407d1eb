//! The models the picker offers: the families the engine runs, with what a
//! visitor needs to know before a download starts (its size, the memory it
//! will take, whether it is tuned for chat). Any other hub repo still loads
//! through the repo box.

/// The model the page opens with when nothing else is asked for.
pub const DEFAULT_HUB_REPO: &str = "distilbert/distilgpt2";

/// How the weights are stored in the repo's `model.safetensors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoredAs {
    F32,
    Bf16,
}

impl StoredAs {
    pub fn name(self) -> &'static str {
        match self {
            StoredAs::F32 => "F32",
            StoredAs::Bf16 => "BF16",
        }
    }
}

/// One model on the hub, as the picker lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatalogModel {
    pub repo: &'static str,
    /// The class in its config.json, as the model line names it once loaded.
    pub architecture: &'static str,
    /// As HF's `num_parameters()` counts them (a tied head once).
    pub parameters: u64,
    /// The size of its `model.safetensors` on the hub.
    pub download_bytes: u64,
    pub stored_as: StoredAs,
    /// Tuned to follow a chat template (its generation_config.json samples).
    pub instruct: bool,
}

impl CatalogModel {
    /// Bytes of memory the worker needs to run it, about. Measured in
    /// Chromium (BENCHMARKS.md): a 16-bit file stays 16-bit in memory and
    /// the worker peaks at 1.29 × the file; a 32-bit one peaks at 1.14 ×.
    /// Rounded up, for the caches of four lanes and the page itself.
    pub fn memory_bytes(&self) -> u64 {
        let times_100 = match self.stored_as {
            StoredAs::F32 => 120,
            StoredAs::Bf16 => 135,
        };
        self.download_bytes / 100 * times_100
    }

    pub fn is_default(&self) -> bool {
        self.repo == DEFAULT_HUB_REPO
    }
}

/// The picker's list: the default first, then by size.
pub const CATALOG: &[CatalogModel] = &[
    CatalogModel {
        repo: DEFAULT_HUB_REPO,
        architecture: "GPT2LMHeadModel",
        parameters: 81_912_576,
        download_bytes: 352_824_413,
        stored_as: StoredAs::F32,
        instruct: false,
    },
    CatalogModel {
        repo: "HuggingFaceTB/SmolLM2-135M",
        architecture: "LlamaForCausalLM",
        parameters: 134_515_008,
        download_bytes: 269_060_552,
        stored_as: StoredAs::Bf16,
        instruct: false,
    },
    CatalogModel {
        repo: "HuggingFaceTB/SmolLM2-135M-Instruct",
        architecture: "LlamaForCausalLM",
        parameters: 134_515_008,
        download_bytes: 269_060_552,
        stored_as: StoredAs::Bf16,
        instruct: true,
    },
    CatalogModel {
        repo: "HuggingFaceTB/SmolLM2-360M",
        architecture: "LlamaForCausalLM",
        parameters: 361_821_120,
        download_bytes: 723_674_912,
        stored_as: StoredAs::Bf16,
        instruct: false,
    },
    CatalogModel {
        repo: "HuggingFaceTB/SmolLM2-360M-Instruct",
        architecture: "LlamaForCausalLM",
        parameters: 361_821_120,
        download_bytes: 723_674_912,
        stored_as: StoredAs::Bf16,
        instruct: true,
    },
    CatalogModel {
        repo: "Qwen/Qwen2.5-0.5B",
        architecture: "Qwen2ForCausalLM",
        parameters: 494_032_768,
        download_bytes: 988_097_824,
        stored_as: StoredAs::Bf16,
        instruct: false,
    },
    CatalogModel {
        repo: "Qwen/Qwen2.5-0.5B-Instruct",
        architecture: "Qwen2ForCausalLM",
        parameters: 494_032_768,
        download_bytes: 988_097_824,
        stored_as: StoredAs::Bf16,
        instruct: true,
    },
];

/// The catalog's entry for `repo`, if it has one.
pub fn find(repo: &str) -> Option<&'static CatalogModel> {
    CATALOG.iter().find(|m| m.repo == repo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_a_hub_repo_id_listed_once_with_the_default_first() {
        assert!(CATALOG[0].is_default());
        for (i, m) in CATALOG.iter().enumerate() {
            assert!(ntl_protocol::valid_repo_id(m.repo), "{}", m.repo);
            assert_eq!(find(m.repo), Some(&CATALOG[i]), "{} listed twice", m.repo);
        }
    }

    #[test]
    fn a_16_bit_file_takes_about_2_bytes_per_parameter_and_a_32_bit_one_4() {
        for m in CATALOG {
            let per = m.download_bytes as f64 / m.parameters as f64;
            let want = match m.stored_as {
                StoredAs::F32 => 4.0,
                StoredAs::Bf16 => 2.0,
            };
            // Headers and (for an untied head) the head's own weights.
            assert!(
                per >= want && per < want * 1.1,
                "{}: {per:.3} bytes per parameter",
                m.repo
            );
        }
    }

    #[test]
    fn the_memory_estimate_is_above_the_measured_peak() {
        let qwen = find("Qwen/Qwen2.5-0.5B-Instruct").unwrap();
        assert!(qwen.memory_bytes() > qwen.download_bytes * 129 / 100);
        assert!(qwen.memory_bytes() < qwen.download_bytes * 2);
        let gpt2 = find(DEFAULT_HUB_REPO).unwrap();
        assert!(gpt2.memory_bytes() > gpt2.download_bytes * 114 / 100);
        assert_eq!(find("someone/else"), None);
    }
}
