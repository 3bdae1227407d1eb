//! The names of a llama.cpp lane's fields, as llama-server spells them.

use crate::names::names;

names! {
    /// The fields of a llama.cpp lane's config, as llama-server spells them.
    pub enum LlamaKnob {
        Semantics = "semantics",
        Temperature = "temperature",
        DynatempRange = "dynatemp_range",
        DynatempExponent = "dynatemp_exponent",
        TopK = "top_k",
        TopP = "top_p",
        MinP = "min_p",
        TypicalP = "typical_p",
        TopNSigma = "top_n_sigma",
        XtcProbability = "xtc_probability",
        XtcThreshold = "xtc_threshold",
        RepeatPenalty = "repeat_penalty",
        RepeatLastN = "repeat_last_n",
        PresencePenalty = "presence_penalty",
        FrequencyPenalty = "frequency_penalty",
        DryMultiplier = "dry_multiplier",
        DryBase = "dry_base",
        DryAllowedLength = "dry_allowed_length",
        DryPenaltyLastN = "dry_penalty_last_n",
        DrySequenceBreakers = "dry_sequence_breakers",
        Mirostat = "mirostat",
        MirostatTau = "mirostat_tau",
        MirostatEta = "mirostat_eta",
        AdaptiveTarget = "adaptive_target",
        AdaptiveDecay = "adaptive_decay",
        MinKeep = "min_keep",
        LogitBias = "logit_bias",
        NPredict = "n_predict",
        Stop = "stop",
        IgnoreEos = "ignore_eos",
        Seed = "seed",
        Samplers = "samplers",
    }
}
