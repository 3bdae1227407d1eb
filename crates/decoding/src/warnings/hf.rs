//! "This knob does nothing here": the pitfalls the lessons warn about, found
//! from the config alone (HF silently ignores these).

use super::note::{NotSampling, Note};
use super::warning::Warning;
use crate::config::{EarlyStopping, GenerationConfig, TokenIds};
use crate::knob::{Knob, Stage};
use crate::mode::Mode;
use crate::record::Step;
use std::borrow::Borrow;

fn w<About>(field: About, note: Note) -> Warning<About> {
    Warning { field, note }
}

pub fn config_warnings(c: &GenerationConfig) -> Vec<Warning<Knob>> {
    let mode = c.mode();
    let mut out = Vec::new();
    let sampling = mode.is_sampling();
    if !sampling {
        let why = match mode {
            Mode::Beam | Mode::GroupBeam | Mode::ConstrainedBeam => NotSampling::Beam,
            Mode::Contrastive => NotSampling::Contrastive,
            _ => NotSampling::Greedy,
        };
        let ignored = [
            (Knob::Temperature, c.temperature != 1.0),
            (Knob::TopP, c.top_p < 1.0),
            (Knob::MinP, c.min_p.is_some()),
            (Knob::TypicalP, c.typical_p < 1.0),
            (Knob::EpsilonCutoff, c.epsilon_cutoff > 0.0),
            (Knob::EtaCutoff, c.eta_cutoff > 0.0),
            (Knob::TopH, c.top_h.is_some()),
        ];
        for (field, set) in ignored {
            if set {
                out.push(w(field, Note::DoesNotSample { knob: field, why }));
            }
        }
        if mode != Mode::Contrastive && c.top_k != Some(50) && c.top_k.is_some_and(|k| k > 0) {
            out.push(w(
                Knob::TopK,
                Note::DoesNotSample {
                    knob: Knob::TopK,
                    why,
                },
            ));
        }
        if c.seed.is_some() {
            out.push(w(Knob::Seed, Note::SeedUnused));
        }
    } else if c.top_k == Some(50) {
        out.push(w(Knob::TopK, Note::TopK50Active));
    }
    if !mode.is_beam() {
        if c.early_stopping != EarlyStopping::Heuristic {
            out.push(w(
                Knob::EarlyStopping,
                Note::BeamOnly {
                    knob: Knob::EarlyStopping,
                },
            ));
        }
        if c.length_penalty != 1.0 {
            out.push(w(
                Knob::LengthPenalty,
                Note::BeamOnly {
                    knob: Knob::LengthPenalty,
                },
            ));
        }
    }
    if c.dola_layers.is_some() {
        if !matches!(mode, Mode::Greedy | Mode::Sample) {
            out.push(w(Knob::DolaLayers, Note::DolaWrongMode { mode }));
        } else if c.repetition_penalty < 1.2 {
            out.push(w(Knob::DolaLayers, Note::DolaRepeats));
        }
    }
    if c.num_beams <= 1 && (c.num_beam_groups > 1 || c.diversity_penalty != 0.0) {
        let knob = if c.num_beam_groups > 1 {
            Knob::NumBeamGroups
        } else {
            Knob::DiversityPenalty
        };
        out.push(w(knob, Note::NeedsBeams { knob }));
    }
    if c.penalty_alpha.is_some_and(|a| a > 0.0) && mode != Mode::Contrastive {
        out.push(w(Knob::PenaltyAlpha, Note::PenaltyAlphaUnused));
    }
    if c.repetition_penalty < 1.0 {
        out.push(w(Knob::RepetitionPenalty, Note::RepetitionRewarded));
    }
    if c.no_repeat_ngram_size == 1 {
        out.push(w(Knob::NoRepeatNgramSize, Note::NoRepeatOne));
    }
    let no_eos = matches!(&c.eos_token_id, Some(TokenIds::Many(v)) if v.is_empty());
    if no_eos && c.min_new_tokens.is_some() {
        out.push(w(Knob::MinNewTokens, Note::MinNewTokensNoEos));
    }
    if no_eos && c.exponential_decay_length_penalty.is_some() {
        out.push(w(Knob::ExponentialDecayLengthPenalty, Note::DecayNoEos));
    }
    if c.forced_bos_token_id.is_some() {
        out.push(w(Knob::ForcedBosTokenId, Note::ForcedBosOneTokenPrompt));
    }
    if c.begin_suppress_tokens.is_some() {
        out.push(w(Knob::BeginSuppressTokens, Note::BeginSuppressFirstOnly));
    }
    if c.renormalize_logits && !mode.is_beam() {
        out.push(w(Knob::RenormalizeLogits, Note::RenormalizeNoChoice));
    }
    if c.remove_invalid_values {
        out.push(w(Knob::RemoveInvalidValues, Note::RemoveInvalidValues));
    }
    out
}

/// What a finished run shows about its knobs: filters that never removed a
/// token, and (for greedy lanes) penalties that never changed a choice.
/// Steps may be owned or shared (`Rc<Step>` on the page).
pub fn run_warnings<S: Borrow<Step>>(mode: Mode, steps: &[S]) -> Vec<Warning<Stage>> {
    let mut out = Vec::new();
    let Some(first) = steps.first().map(Borrow::borrow) else {
        return out;
    };
    for (stage, f) in first.funnel.iter().enumerate().skip(1) {
        let name = f.name;
        if name.reshapes() {
            continue;
        }
        let idle = steps.iter().map(Borrow::borrow).all(|s: &Step| {
            s.funnel
                .get(stage)
                .is_some_and(|f| f.removed_mass == 0.0 && f.kept == s.funnel[stage - 1].kept)
        });
        if idle {
            let earlier = first.funnel[1..stage]
                .iter()
                .rev()
                .find(|e| !e.name.reshapes());
            out.push(w(
                name,
                Note::RemovedNothing {
                    stage: name,
                    earlier: earlier.map(|e| e.name),
                },
            ));
        }
    }
    if mode == Mode::Greedy && steps.iter().all(|s| s.borrow().rank == 1) {
        for f in first.funnel.iter().filter(|f| f.name.is_penalty()) {
            out.push(w(f.name, Note::ChangedNoChoice { stage: f.name }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::FunnelStage;

    fn stage(name: &str, kept: usize, removed_mass: f32) -> FunnelStage {
        FunnelStage {
            name: name.parse().expect("a stage name"),
            kept,
            removed_mass,
            entropy: 1.0,
        }
    }

    fn notes(mode: Mode, funnels: Vec<Vec<FunnelStage>>, rank: usize) -> Vec<Warning<Stage>> {
        let steps: Vec<Step> = funnels
            .into_iter()
            .map(|funnel| Step {
                token_id: 0,
                token: "a".into(),
                kept: funnel.last().unwrap().kept,
                entropy: 1.0,
                raw_entropy: 1.0,
                rank,
                chosen_raw_prob: 0.5,
                chosen_prob: 0.5,
                nucleus: [1, 1, 1],
                funnel,
                top: vec![],
                draw: None,
                forced: false,
                beams: None,
                contrastive: None,
                dola: None,
                lens: None,
            })
            .collect();
        run_warnings(mode, &steps)
    }

    #[test]
    fn a_filter_that_never_removed_anything_is_reported_with_the_filter_before_it() {
        let f = || {
            vec![
                stage("model", 100, 0.0),
                stage("temperature", 100, 0.0),
                stage("top_k", 5, 0.4),
                stage("top_p", 5, 0.0),
            ]
        };
        let ws = notes(Mode::Sample, vec![f(), f()], 2);
        assert_eq!(ws.len(), 1);
        assert_eq!(
            ws[0].note,
            Note::RemovedNothing {
                stage: "top_p".parse().unwrap(),
                earlier: Some("top_k".parse().unwrap())
            }
        );
    }

    #[test]
    fn a_filter_that_removed_something_once_is_not_reported() {
        let a = vec![stage("model", 100, 0.0), stage("top_p", 100, 0.0)];
        let b = vec![stage("model", 100, 0.0), stage("top_p", 40, 0.1)];
        assert!(notes(Mode::Sample, vec![a, b], 2).is_empty());
    }

    #[test]
    fn a_penalty_that_never_changed_greedys_choice_is_reported() {
        let f = || {
            vec![
                stage("model", 100, 0.0),
                stage("repetition_penalty", 100, 0.0),
            ]
        };
        let ws = notes(Mode::Greedy, vec![f(), f()], 1);
        assert_eq!(ws.len(), 1);
        assert!(matches!(ws[0].note, Note::ChangedNoChoice { .. }));
        assert!(notes(Mode::Greedy, vec![f(), f()], 2).is_empty());
    }

    fn fields(json: &str) -> Vec<&'static str> {
        config_warnings(&GenerationConfig::from_json(json).unwrap())
            .into_iter()
            .map(|w| w.field.name())
            .collect()
    }

    #[test]
    fn temperature_under_greedy_is_flagged_the_lessons_pitfall() {
        assert_eq!(
            fields(r#"{"temperature": 0.7, "top_p": 0.9}"#),
            ["temperature", "top_p"]
        );
    }

    #[test]
    fn the_silent_default_top_k_is_pointed_out_when_sampling() {
        assert_eq!(fields(r#"{"do_sample": true}"#), ["top_k"]);
        assert!(fields(r#"{"do_sample": true, "top_k": 0}"#).is_empty());
    }

    #[test]
    fn dola_outside_greedy_and_sampling_or_without_a_penalty_is_flagged() {
        assert_eq!(fields(r#"{"dola_layers": "high"}"#), ["dola_layers"]);
        assert!(fields(r#"{"dola_layers": "high", "repetition_penalty": 1.2}"#).is_empty());
        assert_eq!(
            fields(r#"{"dola_layers": "low", "num_beams": 2, "repetition_penalty": 1.2}"#),
            ["dola_layers"]
        );
    }

    #[test]
    fn beam_groups_without_beams_are_flagged_and_with_beams_are_not() {
        assert_eq!(
            fields(r#"{"num_beam_groups": 2, "diversity_penalty": 1.0}"#),
            ["num_beam_groups"]
        );
        assert!(fields(
            r#"{"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1.0, "length_penalty": 2}"#
        )
        .is_empty());
    }

    #[test]
    fn beam_only_knobs_outside_beam_search_are_flagged() {
        assert_eq!(
            fields(r#"{"early_stopping": true, "length_penalty": 2.0}"#),
            ["early_stopping", "length_penalty"]
        );
        assert!(fields(r#"{"num_beams": 4, "early_stopping": true}"#).is_empty());
    }

    #[test]
    fn a_plain_greedy_or_contrastive_config_has_no_warning() {
        assert!(fields("{}").is_empty());
        assert!(fields(r#"{"penalty_alpha": 0.6, "top_k": 4}"#).is_empty());
        assert_eq!(
            fields(r#"{"penalty_alpha": 0.6, "do_sample": true, "top_k": 4}"#),
            ["penalty_alpha"]
        );
    }
}
