//! One knob's field of a config, by the knob's name: copied from another
//! config, or compared with it. The macro lists each knob against its field
//! once, and the match it writes is exhaustive, so a knob added to the enum
//! without its field here does not compile.

use crate::config::GenerationConfig;
use crate::knob::Knob;
use crate::llama_cpp::config::LlamaCppConfig;
use crate::llama_cpp::knob::LlamaCppKnob;

macro_rules! by_name {
    ($copy:ident, $same:ident, $config:ty, $knob:ty { $($variant:ident => $field:ident),* $(,)? } $(, $skip:ident)?) => {
        /// Sets `to`'s field of `knob` to `from`'s.
        pub fn $copy(knob: $knob, from: &$config, to: &mut $config) {
            match knob {
                $(<$knob>::$variant => to.$field = from.$field.clone(),)*
                $(<$knob>::$skip => {})?
            }
        }

        /// Whether `a` and `b` hold the same value for `knob`.
        pub fn $same(knob: $knob, a: &$config, b: &$config) -> bool {
            match knob {
                $(<$knob>::$variant => a.$field == b.$field,)*
                $(<$knob>::$skip => true)?
            }
        }
    };
}

by_name!(copy_hf, same_hf, GenerationConfig, Knob {
    MaxNewTokens => max_new_tokens,
    MaxLength => max_length,
    MinNewTokens => min_new_tokens,
    MinLength => min_length,
    DoSample => do_sample,
    Temperature => temperature,
    TopK => top_k,
    TopP => top_p,
    MinP => min_p,
    TypicalP => typical_p,
    EpsilonCutoff => epsilon_cutoff,
    EtaCutoff => eta_cutoff,
    RepetitionPenalty => repetition_penalty,
    NoRepeatNgramSize => no_repeat_ngram_size,
    NumBeams => num_beams,
    LengthPenalty => length_penalty,
    EarlyStopping => early_stopping,
    NumReturnSequences => num_return_sequences,
    PenaltyAlpha => penalty_alpha,
    EosTokenId => eos_token_id,
    StopStrings => stop_strings,
    Seed => seed,
    FrequencyPenalty => frequency_penalty,
    PresencePenalty => presence_penalty,
    TopH => top_h,
    BadWordsIds => bad_words_ids,
    SequenceBias => sequence_bias,
    SuppressTokens => suppress_tokens,
    BeginSuppressTokens => begin_suppress_tokens,
    ForcedBosTokenId => forced_bos_token_id,
    ForcedEosTokenId => forced_eos_token_id,
    ExponentialDecayLengthPenalty => exponential_decay_length_penalty,
    RenormalizeLogits => renormalize_logits,
    RemoveInvalidValues => remove_invalid_values,
    WatermarkingConfig => watermarking_config,
    GuidanceScale => guidance_scale,
    NumBeamGroups => num_beam_groups,
    DiversityPenalty => diversity_penalty,
    DolaLayers => dola_layers,
    ForceWordsIds => force_words_ids,
});

by_name!(copy_llama_cpp, same_llama_cpp, LlamaCppConfig, LlamaCppKnob {
    Temperature => temperature,
    DynatempRange => dynatemp_range,
    DynatempExponent => dynatemp_exponent,
    TopK => top_k,
    TopP => top_p,
    MinP => min_p,
    TypicalP => typical_p,
    TopNSigma => top_n_sigma,
    XtcProbability => xtc_probability,
    XtcThreshold => xtc_threshold,
    RepeatPenalty => repeat_penalty,
    RepeatLastN => repeat_last_n,
    PresencePenalty => presence_penalty,
    FrequencyPenalty => frequency_penalty,
    DryMultiplier => dry_multiplier,
    DryBase => dry_base,
    DryAllowedLength => dry_allowed_length,
    DryPenaltyLastN => dry_penalty_last_n,
    DrySequenceBreakers => dry_sequence_breakers,
    Mirostat => mirostat,
    MirostatTau => mirostat_tau,
    MirostatEta => mirostat_eta,
    AdaptiveTarget => adaptive_target,
    AdaptiveDecay => adaptive_decay,
    MinKeep => min_keep,
    LogitBias => logit_bias,
    NPredict => n_predict,
    Stop => stop,
    IgnoreEos => ignore_eos,
    Seed => seed,
    Samplers => samplers,
}, Semantics);
