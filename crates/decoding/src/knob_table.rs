//! Every HF knob in one table: its group in HF's generation docs, the values
//! it takes and HF's words when a value is out of range. The editor reads it
//! (groups, the range in the hover text) and the validator reads it (the
//! range checks). What each knob does is words for people, so it lives in
//! the page's message catalogs (`hf-help-<knob>`), one per language. A knob
//! added to [`Knob`] without a row here fails a test.

use crate::knob::Knob;
use std::fmt;

/// HF's grouping of `GenerationConfig` parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnobGroup {
    /// How long the output may be.
    Length,
    /// Which decoding loop runs.
    Strategy,
    /// Changes to the scores before a token is chosen.
    LogitsManipulation,
    /// Tokens with a special role: end, forced, suppressed.
    SpecialTokens,
    /// A detectable bias on seeded "green" tokens.
    Watermark,
    /// Classifier-free guidance: away from an unconditional pass.
    Guidance,
}

impl KnobGroup {
    pub fn title(self) -> &'static str {
        match self {
            KnobGroup::Length => "length",
            KnobGroup::Strategy => "strategy",
            KnobGroup::LogitsManipulation => "logits manipulation",
            KnobGroup::SpecialTokens => "special tokens",
            KnobGroup::Watermark => "watermark",
            KnobGroup::Guidance => "guidance",
        }
    }
}

/// The numbers a knob takes (always finite); `None` in [`KnobInfo::range`]
/// for a knob that is not one number (a flag, ids, text, an object): its
/// parser and its own checks read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Range {
    /// Any finite number (penalties that may be negative).
    Finite,
    /// At least this (a count: an integer knob).
    AtLeast(f64),
    /// Above zero.
    Positive,
    /// Between two bounds, each included or not.
    Between {
        low: f64,
        low_included: bool,
        high: f64,
        high_included: bool,
    },
}

impl Range {
    const UNIT: Range = Range::Between {
        low: 0.0,
        low_included: true,
        high: 1.0,
        high_included: true,
    };
    const UNIT_ABOVE_ZERO: Range = Range::Between {
        low: 0.0,
        low_included: false,
        high: 1.0,
        high_included: true,
    };
    const UNIT_BELOW_ONE: Range = Range::Between {
        low: 0.0,
        low_included: true,
        high: 1.0,
        high_included: false,
    };

    pub fn contains(self, v: f64) -> bool {
        v.is_finite()
            && match self {
                Range::Finite => true,
                Range::AtLeast(min) => v >= min,
                Range::Positive => v > 0.0,
                Range::Between {
                    low,
                    low_included,
                    high,
                    high_included,
                } => {
                    (v > low || (low_included && v == low))
                        && (v < high || (high_included && v == high))
                }
            }
    }
}

/// As the editor shows it: `(0, 1]`, `≥ 1`, `> 0`, `any number`.
impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Range::Finite => f.write_str("any number"),
            Range::AtLeast(min) => write!(f, "≥ {min}"),
            Range::Positive => f.write_str("> 0"),
            Range::Between {
                low,
                low_included,
                high,
                high_included,
            } => write!(
                f,
                "{}{low}, {high}{}",
                if low_included { '[' } else { '(' },
                if high_included { ']' } else { ')' }
            ),
        }
    }
}

/// One knob's row.
#[derive(Debug, Clone, Copy)]
pub struct KnobInfo {
    pub knob: Knob,
    pub group: KnobGroup,
    pub range: Option<Range>,
    /// HF's message for a value out of range, `{}` standing for the value;
    /// `None` where HF has none (the range's own words are used).
    pub hf_message: Option<&'static str>,
}

impl KnobInfo {
    /// The message for `value` out of this knob's range.
    pub fn out_of_range(&self, value: f64) -> String {
        match (self.hf_message, self.range) {
            (Some(m), _) => m.replacen("{}", &value.to_string(), 1),
            (None, Some(Range::Finite)) => {
                format!("`{}` must be a finite number, but is {value}", self.knob)
            }
            (None, Some(r)) => format!("`{}` must be {r}, but is {value}", self.knob),
            (None, None) => format!("`{}` cannot be {value}", self.knob),
        }
    }
}

use KnobGroup::*;

const fn row(
    knob: Knob,
    group: KnobGroup,
    range: Option<Range>,
    hf_message: Option<&'static str>,
) -> KnobInfo {
    KnobInfo {
        knob,
        group,
        range,
        hf_message,
    }
}

const NON_NEGATIVE: Option<Range> = Some(Range::AtLeast(0.0));
const COUNT: Option<Range> = Some(Range::AtLeast(1.0));
const FINITE: Option<Range> = Some(Range::Finite);

/// Every knob, in [`Knob::ALL`]'s order.
pub const HF_KNOBS: &[KnobInfo] = &[
    row(
        Knob::MaxNewTokens,
        Length,
        COUNT,
        Some("`max_new_tokens` must be greater than 0, but is {}"),
    ),
    row(
        Knob::MaxLength,
        Length,
        NON_NEGATIVE,
        Some("`max_length` must be a non-negative integer, but is {}"),
    ),
    row(
        Knob::MinNewTokens,
        Length,
        NON_NEGATIVE,
        Some("`min_new_tokens` must be a non-negative integer, but is {}"),
    ),
    row(
        Knob::MinLength,
        Length,
        NON_NEGATIVE,
        Some("`min_length` must be a non-negative integer, but is {}"),
    ),
    row(Knob::DoSample, Strategy, None, None),
    row(
        Knob::Temperature,
        LogitsManipulation,
        NON_NEGATIVE,
        Some("`temperature` must not be negative, but is {}"),
    ),
    row(
        Knob::TopK,
        LogitsManipulation,
        NON_NEGATIVE,
        Some("`top_k` has to be a strictly positive integer, but is {}"),
    ),
    row(
        Knob::TopP,
        LogitsManipulation,
        Some(Range::UNIT_ABOVE_ZERO),
        Some("`top_p` has to be a float > 0 and <= 1, but is {}"),
    ),
    row(
        Knob::MinP,
        LogitsManipulation,
        Some(Range::UNIT),
        Some("`min_p` has to be a float in the [0, 1] interval, but is {}"),
    ),
    row(
        Knob::TypicalP,
        LogitsManipulation,
        Some(Range::UNIT_ABOVE_ZERO),
        Some("`typical_p` has to be a float > 0 and <= 1, but is {}"),
    ),
    row(
        Knob::EpsilonCutoff,
        LogitsManipulation,
        Some(Range::UNIT_BELOW_ONE),
        Some("`epsilon_cutoff` has to be a float > 0 and < 1, but is {}"),
    ),
    row(
        Knob::EtaCutoff,
        LogitsManipulation,
        Some(Range::UNIT_BELOW_ONE),
        Some("`eta_cutoff` has to be a float > 0 and < 1, but is {}"),
    ),
    row(
        Knob::RepetitionPenalty,
        LogitsManipulation,
        Some(Range::Positive),
        Some("`penalty` has to be a strictly positive float, but is {}"),
    ),
    row(
        Knob::NoRepeatNgramSize,
        LogitsManipulation,
        NON_NEGATIVE,
        Some("`no_repeat_ngram_size` must be a non-negative integer, but is {}"),
    ),
    row(
        Knob::NumBeams,
        Strategy,
        COUNT,
        Some("`num_beams` has to be a strictly positive integer, but is {}"),
    ),
    row(Knob::LengthPenalty, LogitsManipulation, FINITE, None),
    row(Knob::EarlyStopping, Length, None, None),
    row(
        Knob::NumReturnSequences,
        Strategy,
        COUNT,
        Some("`num_return_sequences` has to be a strictly positive integer, but is {}"),
    ),
    row(
        Knob::PenaltyAlpha,
        Strategy,
        Some(Range::UNIT),
        Some("`penalty_alpha` has to be a float in the [0, 1] interval, but is {}"),
    ),
    row(Knob::EosTokenId, SpecialTokens, None, None),
    row(Knob::StopStrings, Length, None, None),
    row(Knob::Seed, Strategy, None, None),
    row(Knob::FrequencyPenalty, LogitsManipulation, FINITE, None),
    row(Knob::PresencePenalty, LogitsManipulation, FINITE, None),
    row(
        Knob::TopH,
        LogitsManipulation,
        Some(Range::UNIT_ABOVE_ZERO),
        Some("`top_h` must be in the range (0, 1], but is {}"),
    ),
    row(Knob::BadWordsIds, LogitsManipulation, None, None),
    row(Knob::SequenceBias, LogitsManipulation, None, None),
    row(Knob::SuppressTokens, SpecialTokens, None, None),
    row(Knob::BeginSuppressTokens, SpecialTokens, None, None),
    row(Knob::ForcedBosTokenId, SpecialTokens, None, None),
    row(Knob::ForcedEosTokenId, SpecialTokens, None, None),
    row(
        Knob::ExponentialDecayLengthPenalty,
        LogitsManipulation,
        None,
        None,
    ),
    row(Knob::RenormalizeLogits, LogitsManipulation, None, None),
    row(Knob::RemoveInvalidValues, LogitsManipulation, None, None),
    row(Knob::WatermarkingConfig, Watermark, None, None),
    row(
        Knob::GuidanceScale,
        Guidance,
        FINITE,
        Some("`guidance_scale` must be a finite number, but is {}"),
    ),
    row(
        Knob::NumBeamGroups,
        Strategy,
        COUNT,
        Some("`num_beam_groups` has to be a strictly positive integer, but is {}"),
    ),
    row(
        Knob::DiversityPenalty,
        Strategy,
        NON_NEGATIVE,
        Some("`diversity_penalty` should be a float larger than 0.0, but is {}"),
    ),
    row(Knob::DolaLayers, Strategy, None, None),
    row(Knob::ForceWordsIds, Strategy, None, None),
];

impl Knob {
    /// The knob's row in [`HF_KNOBS`].
    pub fn info(self) -> &'static KnobInfo {
        // The table is in declaration order (a test pins it), so the
        // variant's index finds its row.
        &HF_KNOBS[self as usize]
    }

    pub fn group(self) -> KnobGroup {
        self.info().group
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_every_knob_once_in_declaration_order() {
        assert_eq!(HF_KNOBS.len(), Knob::ALL.len());
        for (row, &k) in HF_KNOBS.iter().zip(Knob::ALL) {
            assert_eq!(row.knob, k);
            if let Some(m) = row.hf_message {
                assert!(m.contains("{}"), "{k}: the message shows the value");
            }
        }
    }

    #[test]
    fn ranges_include_and_exclude_their_bounds_as_written() {
        let top_p = Knob::TopP.info().range.unwrap();
        assert!(!top_p.contains(0.0) && top_p.contains(1.0) && top_p.contains(0.5));
        let eps = Knob::EpsilonCutoff.info().range.unwrap();
        assert!(eps.contains(0.0) && !eps.contains(1.0));
        assert!(!Range::Finite.contains(f64::NAN) && !Range::Finite.contains(f64::INFINITY));
        assert_eq!(top_p.to_string(), "(0, 1]");
        assert_eq!(eps.to_string(), "[0, 1)");
        assert_eq!(Range::AtLeast(1.0).to_string(), "≥ 1");
    }

    #[test]
    fn an_out_of_range_value_gets_hfs_words_with_the_value() {
        assert_eq!(
            Knob::TopP.info().out_of_range(1.5),
            "`top_p` has to be a float > 0 and <= 1, but is 1.5"
        );
        assert_eq!(
            Knob::LengthPenalty.info().out_of_range(f64::INFINITY),
            "`length_penalty` must be a finite number, but is inf"
        );
    }
}
