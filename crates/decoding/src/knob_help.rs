//! What each knob does, in one line, and the group HF's generation docs put
//! it in — for the page's editor and the sandbox's boxes.

use crate::knob::Knob;

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

impl Knob {
    pub fn group(self) -> KnobGroup {
        use Knob::*;
        match self {
            MaxNewTokens | MaxLength | MinNewTokens | MinLength | EarlyStopping | StopStrings => {
                KnobGroup::Length
            }
            DoSample | NumBeams | NumBeamGroups | DiversityPenalty | NumReturnSequences
            | PenaltyAlpha | DolaLayers | ForceWordsIds | Seed => KnobGroup::Strategy,
            EosTokenId | ForcedBosTokenId | ForcedEosTokenId | SuppressTokens
            | BeginSuppressTokens => KnobGroup::SpecialTokens,
            Temperature
            | TopK
            | TopP
            | MinP
            | TypicalP
            | EpsilonCutoff
            | EtaCutoff
            | TopH
            | RepetitionPenalty
            | NoRepeatNgramSize
            | LengthPenalty
            | FrequencyPenalty
            | PresencePenalty
            | BadWordsIds
            | SequenceBias
            | ExponentialDecayLengthPenalty
            | RenormalizeLogits
            | RemoveInvalidValues => KnobGroup::LogitsManipulation,
            WatermarkingConfig => KnobGroup::Watermark,
            GuidanceScale => KnobGroup::Guidance,
        }
    }

    /// One line on what the knob does (HF's semantics).
    pub fn explain(self) -> &'static str {
        use Knob::*;
        match self {
            MaxNewTokens => "how many tokens to generate at most",
            MaxLength => "prompt plus new tokens, at most",
            MinNewTokens => "no eos before this many new tokens",
            MinLength => "no eos before prompt plus new tokens reach this length",
            DoSample => "draw the next token at random instead of taking the best",
            Temperature => "divides every logit: below 1 sharpens, above 1 flattens",
            TopK => "keeps the k likeliest tokens",
            TopP => "keeps the fewest likeliest tokens whose mass reaches p",
            MinP => "keeps tokens at least min_p × the top probability",
            TypicalP => "keeps the tokens closest to the entropy until their mass reaches p",
            EpsilonCutoff => "removes tokens below this probability",
            EtaCutoff => "removes tokens below an entropy-scaled threshold",
            TopH => "keeps likely tokens while their entropy stays within top_h × the whole's",
            RepetitionPenalty => {
                "divides a seen token's positive logit (multiplies a negative one)"
            }
            NoRepeatNgramSize => "forbids any n-gram of this size from occurring twice",
            NumBeams => "keeps this many hypotheses and returns the best total",
            LengthPenalty => "beam scores divide by length to this power: > 0 favours long",
            EarlyStopping => "when beam search stops: true, false (heuristic) or \"never\"",
            NumReturnSequences => "how many finished beams to return",
            PenaltyAlpha => "contrastive search: weight of the degeneration penalty",
            EosTokenId => "token id(s) that end the text",
            StopStrings => "text that ends generation once it appears",
            Seed => "the random stream a sampling lane draws from",
            FrequencyPenalty => "subtracts this × a token's count so far (OpenAI-style)",
            PresencePenalty => "subtracts this once from every token seen (OpenAI-style)",
            BadWordsIds => "token sequences never to generate: [[ids], …]",
            SequenceBias => "adds a bias to a token sequence's last token: [[[ids], bias], …]",
            SuppressTokens => "token ids never generated",
            BeginSuppressTokens => "token ids that cannot be the first generated token",
            ForcedBosTokenId => "the first token after a one-token prompt (an empty prompt)",
            ForcedEosTokenId => "token id(s) forced as the last token max_length allows",
            ExponentialDecayLengthPenalty => {
                "[start, factor]: after start new tokens, eos grows by factor per token"
            }
            RenormalizeLogits => "log-softmax after every knob, so beam scores stay log-probs",
            RemoveInvalidValues => "NaN becomes 0 and ±inf the largest finite numbers",
            GuidanceScale => "pushes log p away from a pass without the prompt (or a negative one)",
            WatermarkingConfig => "{\"bias\": 2}: seeded green tokens get a bias a key can detect",
            NumBeamGroups => "splits the beams into groups that search one after another",
            ForceWordsIds => {
                "[[ids], [[ids], [ids]]]: phrases (or choices of phrases) the beams must include"
            }
            DolaLayers => {
                "\"low\", \"high\" or [layers]: scores log p(final) − log p(an earlier layer)"
            }
            DiversityPenalty => {
                "a group's log p loses this × the times earlier groups just chose the token"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_has_a_line_of_help() {
        for &k in Knob::ALL {
            assert!(!k.explain().is_empty() && k.explain().len() < 90, "{k}");
            let _ = k.group();
        }
    }
}
