//! One llama.cpp sampler: a unit that reshapes, shrinks or picks from the
//! candidates (`llama_sampler_i`'s `apply`), and may remember the tokens the
//! sequence accepted (`accept`: the prompt's, then each generated one).

use super::candidates::Candidates;

/// llama.cpp's sampler names: those `samplers` may list (its canonical
/// names), then the ones its chain adds by itself.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    ::serde::Serialize,
    ::serde::Deserialize,
    ::strum::Display,
    ::strum::EnumString,
    ::strum::IntoStaticStr,
    ::strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SamplerName {
    Penalties,
    Dry,
    TopNSigma,
    TopK,
    #[serde(rename = "typ_p")]
    #[strum(serialize = "typ_p")]
    TypicalP,
    TopP,
    MinP,
    Xtc,
    Temperature,
    AdaptiveP,
    Infill,
    LogitBias,
    Dist,
    Mirostat,
    MirostatV2,
}

impl SamplerName {
    /// The samplers a chain may list by name (the ones before `logit_bias`,
    /// which llama.cpp adds itself).
    pub fn listable() -> impl Iterator<Item = SamplerName> {
        SamplerName::ALL
            .iter()
            .copied()
            .take_while(|s| *s != SamplerName::LogitBias)
    }

    /// Every name, in declaration order.
    pub const ALL: &'static [SamplerName] = <SamplerName as ::strum::VariantArray>::VARIANTS;

    /// The name as it travels (HF's, llama-server's or llama.cpp's spelling).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

impl SamplerName {
    /// llama.cpp's default order (`common_params_sampling::samplers`).
    pub const DEFAULT_ORDER: &'static [SamplerName] = &[
        SamplerName::Penalties,
        SamplerName::Dry,
        SamplerName::TopNSigma,
        SamplerName::TopK,
        SamplerName::TypicalP,
        SamplerName::TopP,
        SamplerName::MinP,
        SamplerName::Xtc,
        SamplerName::Temperature,
    ];

    /// The names `samplers` accepts (`common_sampler_types_from_names`):
    /// canonical, kebab-case, without underscores, and a few aliases.
    pub fn from_alias(name: &str) -> Option<SamplerName> {
        let listable = &SamplerName::ALL[..=SamplerName::Infill as usize];
        if let Some(&s) = listable.iter().find(|s| s.name() == name) {
            return Some(s);
        }
        let alias = listable.iter().copied().find(|s| {
            let n = s.name();
            n.contains('_') && (n.replace('_', "-") == name || n.replace('_', "") == name)
        });
        alias.or(match name {
            "nucleus" => Some(SamplerName::TopP),
            "temp" => Some(SamplerName::Temperature),
            "typ" => Some(SamplerName::TypicalP),
            _ => None,
        })
    }

    /// llama.cpp's one-letter names (`common_sampler_type_to_chr`).
    pub fn from_letter(ch: char) -> Option<SamplerName> {
        Some(match ch {
            'd' => SamplerName::Dry,
            'k' => SamplerName::TopK,
            'y' => SamplerName::TypicalP,
            'p' => SamplerName::TopP,
            's' => SamplerName::TopNSigma,
            'm' => SamplerName::MinP,
            't' => SamplerName::Temperature,
            'x' => SamplerName::Xtc,
            'i' => SamplerName::Infill,
            'e' => SamplerName::Penalties,
            'a' => SamplerName::AdaptiveP,
            _ => return None,
        })
    }

    /// Its funnel stage's name: `llama.cpp:` and the sampler's name, so it
    /// never reads as the HF knob of the same name.
    pub fn stage_name(self) -> &'static str {
        match self {
            SamplerName::Penalties => "llama.cpp:penalties",
            SamplerName::Dry => "llama.cpp:dry",
            SamplerName::TopNSigma => "llama.cpp:top_n_sigma",
            SamplerName::TopK => "llama.cpp:top_k",
            SamplerName::TypicalP => "llama.cpp:typ_p",
            SamplerName::TopP => "llama.cpp:top_p",
            SamplerName::MinP => "llama.cpp:min_p",
            SamplerName::Xtc => "llama.cpp:xtc",
            SamplerName::Temperature => "llama.cpp:temperature",
            SamplerName::AdaptiveP => "llama.cpp:adaptive_p",
            SamplerName::Infill => "llama.cpp:infill",
            SamplerName::LogitBias => "llama.cpp:logit_bias",
            SamplerName::Dist => "llama.cpp:dist",
            SamplerName::Mirostat => "llama.cpp:mirostat",
            SamplerName::MirostatV2 => "llama.cpp:mirostat_v2",
        }
    }

    /// The knob that sets this sampler (for help and warnings).
    pub fn knob(self) -> &'static str {
        match self {
            SamplerName::Penalties => "repeat_penalty",
            SamplerName::Dry => "dry_multiplier",
            SamplerName::TopNSigma => "top_n_sigma",
            SamplerName::TopK => "top_k",
            SamplerName::TypicalP => "typical_p",
            SamplerName::TopP => "top_p",
            SamplerName::MinP => "min_p",
            SamplerName::Xtc => "xtc_probability",
            SamplerName::Temperature => "temperature",
            SamplerName::AdaptiveP => "adaptive_target",
            SamplerName::Infill => "samplers",
            SamplerName::LogitBias => "logit_bias",
            SamplerName::Dist => "seed",
            SamplerName::Mirostat | SamplerName::MirostatV2 => "mirostat",
        }
    }
}

/// `Send`: lanes run on worker threads.
pub trait Sampler: Send {
    fn name(&self) -> SamplerName;
    fn apply(&mut self, cur: &mut Candidates);
    fn accept(&mut self, _token: u32) {}
    /// Picks a token (`dist`, mirostat, adaptive-p) rather than filtering.
    fn picks(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampler_names_read_in_every_spelling_llama_cpp_accepts() {
        assert_eq!(SamplerName::from_alias("top_k"), Some(SamplerName::TopK));
        assert_eq!(SamplerName::from_alias("top-k"), Some(SamplerName::TopK));
        assert_eq!(SamplerName::from_alias("topk"), Some(SamplerName::TopK));
        assert_eq!(SamplerName::from_alias("nucleus"), Some(SamplerName::TopP));
        assert_eq!(
            SamplerName::from_alias("temp"),
            Some(SamplerName::Temperature)
        );
        assert_eq!(
            SamplerName::from_alias("typ_p"),
            Some(SamplerName::TypicalP)
        );
        assert_eq!(
            SamplerName::from_alias("dist"),
            None,
            "the chain adds dist itself"
        );
        assert_eq!(SamplerName::from_alias("top_q"), None);
    }
}
