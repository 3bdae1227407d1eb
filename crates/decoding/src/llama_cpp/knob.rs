//! The names of a llama.cpp lane's fields, as llama-server spells them.

/// The fields of a llama.cpp lane's config, as llama-server spells them.
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
pub enum LlamaCppKnob {
    Semantics,
    Temperature,
    DynatempRange,
    DynatempExponent,
    TopK,
    TopP,
    MinP,
    TypicalP,
    TopNSigma,
    XtcProbability,
    XtcThreshold,
    RepeatPenalty,
    RepeatLastN,
    PresencePenalty,
    FrequencyPenalty,
    DryMultiplier,
    DryBase,
    DryAllowedLength,
    DryPenaltyLastN,
    DrySequenceBreakers,
    Mirostat,
    MirostatTau,
    MirostatEta,
    AdaptiveTarget,
    AdaptiveDecay,
    MinKeep,
    LogitBias,
    NPredict,
    Stop,
    IgnoreEos,
    Seed,
    Samplers,
}

impl LlamaCppKnob {
    /// Every name, in declaration order.
    pub const ALL: &'static [LlamaCppKnob] = <LlamaCppKnob as ::strum::VariantArray>::VARIANTS;

    /// The name as it travels (HF's, llama-server's or llama.cpp's spelling).
    pub fn name(self) -> &'static str {
        self.into()
    }
}
