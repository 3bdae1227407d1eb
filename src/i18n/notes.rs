//! The engine's "does nothing here" notes in the reader's language.

use super::I18n;
use ntl_decoding::warnings::{NotSampling, Note};
use ntl_decoding::{Mode, Stage};

impl I18n {
    /// A decoding mode's name as a lane's status line says it.
    pub fn mode(&self, mode: Mode) -> String {
        self.t_with("mode-name", &[("mode", mode.as_str().into())])
    }

    /// A decoding mode in words, as the knob editor's menu and a lane's
    /// folded summary say it.
    pub fn mode_words(&self, mode: Mode) -> String {
        self.t(match mode {
            Mode::Greedy => "mode-greedy",
            Mode::Sample => "mode-sample",
            Mode::Beam => "mode-beam",
            Mode::BeamSample => "mode-beam-sample",
            Mode::GroupBeam => "mode-group-beam",
            Mode::ConstrainedBeam => "mode-constrained-beam",
            Mode::Contrastive => "mode-contrastive",
            Mode::LlamaCpp => "mode-llama-cpp",
            Mode::Tutorial => "mode-tutorial",
        })
    }

    /// A funnel stage's name: a knob's stays as the library spells it; the
    /// model's own distribution is a word.
    pub fn stage(&self, stage: Stage) -> String {
        match stage {
            Stage::Model => self.t("stage-model"),
            other => other.name().to_string(),
        }
    }

    /// One note, worded.
    pub fn note(&self, note: &Note) -> String {
        let knob = |id: &str, k: &dyn ToString| self.t_with(id, &[("knob", k.to_string().into())]);
        match note {
            Note::DoesNotSample { knob: k, why } => self.t_with(
                "note-does-not-sample",
                &[
                    ("knob", k.to_string().into()),
                    (
                        "why",
                        match why {
                            NotSampling::Beam => "beam",
                            NotSampling::Contrastive => "contrastive",
                            NotSampling::Greedy => "greedy",
                        }
                        .into(),
                    ),
                ],
            ),
            Note::SeedUnused => self.t("note-seed-unused"),
            Note::TopK50Active => self.t("note-top-k-50"),
            Note::BeamOnly { knob: k } => knob("note-beam-only", k),
            Note::DolaWrongMode { mode } => {
                self.t_with("note-dola-wrong-mode", &[("mode", self.mode(*mode).into())])
            }
            Note::DolaRepeats => self.t("note-dola-repeats"),
            Note::NeedsBeams { knob: k } => knob("note-needs-beams", k),
            Note::PenaltyAlphaUnused => self.t("note-penalty-alpha"),
            Note::RepetitionRewarded => self.t("note-repetition-rewarded"),
            Note::NoRepeatOne => self.t("note-no-repeat-one"),
            Note::MinNewTokensNoEos => self.t("note-min-new-tokens-no-eos"),
            Note::DecayNoEos => self.t("note-decay-no-eos"),
            Note::ForcedBosOneTokenPrompt => self.t("note-forced-bos"),
            Note::BeginSuppressFirstOnly => self.t("note-begin-suppress"),
            Note::RenormalizeNoChoice => self.t("note-renormalize"),
            Note::RemoveInvalidValues => self.t("note-remove-invalid"),
            Note::RemovedNothing { stage, earlier } => {
                let said = knob("note-removed-nothing", stage);
                match earlier {
                    Some(e) => said + &knob("note-earlier-cut-more", e),
                    None => said,
                }
            }
            Note::ChangedNoChoice { stage } => knob("note-changed-no-choice", stage),
            Note::MirostatAlone => self.t("note-mirostat-alone"),
            Note::TemperatureAfter { filters } => self.t_with(
                "note-temperature-after",
                &[("filters", filters.join(", ").into())],
            ),
            Note::TemperatureNotListed => self.t("note-temperature-not-listed"),
            Note::PenaltiesOff => self.t("note-penalties-off"),
            Note::PenaltyWindow { last: Some(n) } => {
                self.t_with("note-penalty-window", &[("last", (*n).into())])
            }
            Note::PenaltyWindow { last: None } => self.t("note-penalty-window-context"),
            Note::LlamaCppDefaults => self.t("note-llama-defaults"),
            Note::XtcOff => self.t("note-xtc-off"),
            Note::DryBaseReplaced => self.t("note-dry-base"),
            Note::RandomSeed => self.t("note-random-seed"),
            Note::UntilContextFull => self.t("note-until-context-full"),
        }
    }
}
