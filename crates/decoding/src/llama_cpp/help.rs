//! One line per llama.cpp knob: what it does there (hover text in the editor).

use super::config::LlamaCppKnob;

pub fn explain(k: LlamaCppKnob) -> &'static str {
    match k {
        LlamaCppKnob::Semantics => "whose knobs the lane takes: \"llama.cpp\" here",
        LlamaCppKnob::Temperature => {
            "divides the logits — last in llama.cpp's default chain, after the filters; 0 or less keeps only the best token (greedy)"
        }
        LlamaCppKnob::DynatempRange => {
            "dynamic temperature: the temperature moves within ± this range with the candidates' entropy (0 = off)"
        }
        LlamaCppKnob::DynatempExponent => "how the entropy maps to the dynamic temperature",
        LlamaCppKnob::TopK => "keeps the k most likely tokens (0 = off); 40 by default here",
        LlamaCppKnob::TopP => {
            "keeps the smallest set of likely tokens whose probability reaches p, at least min_keep; 0.95 by default here"
        }
        LlamaCppKnob::MinP => {
            "keeps tokens at least p times as likely as the best one; 0.05 by default here"
        }
        LlamaCppKnob::TypicalP => "locally typical sampling: tokens whose surprise is near the entropy (1 = off)",
        LlamaCppKnob::TopNSigma => {
            "keeps tokens whose logit is within n standard deviations of the best (negative = off)"
        }
        LlamaCppKnob::XtcProbability => {
            "exclude top choices: how often it removes every likely token but the least likely of them (0 = off)"
        }
        LlamaCppKnob::XtcThreshold => "XTC: what counts as a likely token (above 0.5 turns XTC off)",
        LlamaCppKnob::RepeatPenalty => {
            "divides (or multiplies, if negative) the logit of every token among the last repeat_last_n (1 = off)"
        }
        LlamaCppKnob::RepeatLastN => {
            "how many recent tokens the penalties see, the prompt's included (64; 0 = off; -1 = the whole context)"
        }
        LlamaCppKnob::PresencePenalty => "subtracted once from every token among the last repeat_last_n",
        LlamaCppKnob::FrequencyPenalty => "subtracted per occurrence among the last repeat_last_n",
        LlamaCppKnob::DryMultiplier => {
            "DRY: penalises the token that would extend a repeated sequence, multiplier · base^(length − allowed) (0 = off)"
        }
        LlamaCppKnob::DryBase => "DRY: how fast the penalty grows with the repeat's length",
        LlamaCppKnob::DryAllowedLength => "DRY: repeats up to this long go unpunished",
        LlamaCppKnob::DryPenaltyLastN => "DRY: how far back it looks (64; 0 = off; -1 = the whole context)",
        LlamaCppKnob::DrySequenceBreakers => {
            "DRY: strings that end a repeat's look-back (newline, colon, quote, asterisk)"
        }
        LlamaCppKnob::Mirostat => {
            "1 or 2: mirostat replaces the chain after temperature and steers each pick's surprise to mirostat_tau (0 = off)"
        }
        LlamaCppKnob::MirostatTau => "mirostat: the target surprise, in bits",
        LlamaCppKnob::MirostatEta => "mirostat: how fast it corrects towards the target",
        LlamaCppKnob::AdaptiveTarget => {
            "adaptive-p (listed in samplers): picks tokens near this probability (negative = off)"
        }
        LlamaCppKnob::AdaptiveDecay => "adaptive-p: how long its memory of recent picks is",
        LlamaCppKnob::MinKeep => "top_p, min_p, typical and XTC keep at least this many tokens",
        LlamaCppKnob::LogitBias => {
            "[[token, bias], ...] or {\"token\": bias}; a token is an id or a text, false bans it"
        }
        LlamaCppKnob::NPredict => "how many tokens to generate (-1 = until the context is full)",
        LlamaCppKnob::Stop => "stop when the text contains one of these strings",
        LlamaCppKnob::IgnoreEos => "bans the end-of-text token, so the lane runs to n_predict",
        LlamaCppKnob::Seed => "the seed of the chain's draws (dist, XTC, mirostat; -1 = random)",
        LlamaCppKnob::Samplers => {
            "the chain's order, by llama.cpp's names (penalties, dry, top_n_sigma, top_k, typ_p, top_p, min_p, xtc, temperature, adaptive_p)"
        }
    }
}
