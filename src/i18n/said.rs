//! What the page says ([`Said`]) in the reader's language.

use super::I18n;
use crate::said::Said;
use fluent_bundle::FluentValue;

fn v(x: impl ToString) -> FluentValue<'static> {
    FluentValue::from(x.to_string())
}

impl I18n {
    pub fn said(&self, said: &Said) -> String {
        match said {
            Said::Verbatim(text) => text.clone(),
            Said::Config(e) => self.config_error(e),
            Said::Toy(e) => self.toy_error(e),
            Said::Page(e) => self.page_error(e),
            Said::Link(e) => self.share_error(e),
            Said::LessonAddress(e) => self.lesson_address_error(e),
            Said::NoKnob(name) => self.t_with("said-no-knob", &[("name", v(name))]),
            Said::SandboxNotANumber { knob, text } => self.t_with(
                "said-sandbox-not-a-number",
                &[("knob", v(knob)), ("text", v(text))],
            ),
            Said::ScoreNeedsText => self.t("said-score-needs-text"),
            Said::WorkerDown => self.t("said-worker-down"),
            Said::ModelNotReady => self.t("said-model-not-ready"),
            Said::ChatNeedsTurn => self.t("said-chat-needs-turn"),
            Said::WorkerCrashed(why) => self.t_with("said-worker-crashed", &[("why", v(why))]),
            Said::WorkerUnreadable {
                kind,
                detail,
                stopped,
            } => self.t_with(
                "said-worker-unreadable",
                &[
                    ("kind", v(kind.as_deref().unwrap_or_default())),
                    ("known", v(if kind.is_some() { "yes" } else { "no" })),
                    ("detail", v(detail)),
                    ("stopped", v(if *stopped { "yes" } else { "no" })),
                ],
            ),
            Said::Branched {
                lane,
                step,
                token,
                tokens,
            } => self.t_with(
                "said-branched",
                &[
                    ("lane", v(lane)),
                    ("step", v(step)),
                    ("token", v(token)),
                    ("tokens", (*tokens).into()),
                ],
            ),
            Said::HubOffline(why) => self.t_with("said-hub-offline", &[("why", v(why))]),
            Said::FirstRunsShown { name, runs } => self.t_with(
                "said-first-runs-shown",
                &[
                    ("name", v(name)),
                    ("runs", (*runs).into()),
                    ("lanes", v(crate::lanes::LANES)),
                ],
            ),
            Said::NoConstrainedSearchInLlama => self.t("said-no-constrained-search-in-llama"),
            Said::NotARepoId(text) => self.t_with("said-not-a-repo-id", &[("text", v(text))]),
        }
    }
}
