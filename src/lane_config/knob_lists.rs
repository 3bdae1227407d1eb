//! Which knobs the lane editor shows for an HF lane, per decoding mode (a
//! llama.cpp lane's come from its knob table, under its headings).

use ntl_decoding::{Knob, Mode};

/// Knobs shown for every mode, then per mode.
pub const COMMON_KNOBS: &[Knob] = &[
    Knob::MaxNewTokens,
    Knob::MinNewTokens,
    Knob::RepetitionPenalty,
    Knob::NoRepeatNgramSize,
    Knob::FrequencyPenalty,
    Knob::PresencePenalty,
    Knob::EosTokenId,
    Knob::StopStrings,
];
/// Sampling's own knobs besides the warpers (`Knob::WARPERS`).
pub const SAMPLE_KNOBS: &[Knob] = &[Knob::Seed, Knob::NumReturnSequences];
pub const BEAM_KNOBS: &[Knob] = &[
    Knob::NumBeams,
    Knob::ForceWordsIds,
    Knob::LengthPenalty,
    Knob::EarlyStopping,
    Knob::NumReturnSequences,
];
pub const GROUP_BEAM_KNOBS: &[Knob] = &[
    Knob::NumBeams,
    Knob::NumBeamGroups,
    Knob::DiversityPenalty,
    Knob::LengthPenalty,
    Knob::EarlyStopping,
    Knob::NumReturnSequences,
];
/// DoLa rides on greedy decoding and sampling.
pub const DOLA_KNOBS: &[Knob] = &[Knob::DolaLayers];
pub const CONTRASTIVE_KNOBS: &[Knob] = &[Knob::PenaltyAlpha, Knob::TopK];
/// Token-level rules, every mode: folded in the editor until one is set.
pub const TOKEN_KNOBS: &[Knob] = &[
    Knob::BadWordsIds,
    Knob::SequenceBias,
    Knob::SuppressTokens,
    Knob::BeginSuppressTokens,
    Knob::ForcedBosTokenId,
    Knob::ForcedEosTokenId,
    Knob::ExponentialDecayLengthPenalty,
    Knob::RenormalizeLogits,
    Knob::RemoveInvalidValues,
    Knob::WatermarkingConfig,
    Knob::GuidanceScale,
];

pub fn knobs_for(mode: Mode) -> Vec<Knob> {
    let specific: &[&[Knob]] = match mode {
        Mode::Greedy => &[DOLA_KNOBS],
        Mode::Sample => &[Knob::WARPERS, SAMPLE_KNOBS, DOLA_KNOBS],
        Mode::Beam => &[BEAM_KNOBS],
        Mode::BeamSample => &[Knob::WARPERS, &[Knob::Seed], BEAM_KNOBS],
        Mode::GroupBeam => &[GROUP_BEAM_KNOBS],
        Mode::ConstrainedBeam => &[BEAM_KNOBS],
        Mode::Contrastive => &[CONTRASTIVE_KNOBS],
        // A llama.cpp lane's knobs are llama-server's, under the headings of
        // `ntl_decoding::llama_cpp::knob_table`.
        Mode::LlamaCpp => &[],
        // A tutorial lane's are seed 004's generate() arguments.
        Mode::Tutorial => &[],
    };
    specific
        .iter()
        .copied()
        .flatten()
        .chain(COMMON_KNOBS)
        .copied()
        .collect()
}
