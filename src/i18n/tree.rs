//! The sample tree's refusals in the reader's language.

use super::I18n;
use fluent_bundle::FluentValue;
use ntl_decoding::sample_tree::{TreeRefusal, TreeUnsupported};

fn v(x: impl ToString) -> FluentValue<'static> {
    FluentValue::from(x.to_string())
}

impl I18n {
    pub fn tree_refusal(&self, r: &TreeRefusal) -> String {
        match r {
            TreeRefusal::Samples { asked, max } => self.t_with(
                "tree-refused-samples",
                &[("asked", v(asked)), ("max", v(max))],
            ),
            TreeRefusal::Tokens { asked, max } => self.t_with(
                "tree-refused-tokens",
                &[("asked", v(asked)), ("max", v(max))],
            ),
            TreeRefusal::NotSampling { mode } => self.t_with(
                "tree-refused-not-sampling",
                &[("mode", v(self.mode(*mode)))],
            ),
            TreeRefusal::Unsupported { what } => {
                let what = self.t(match what {
                    TreeUnsupported::LlamaCpp => "tree-unsupported-llama-cpp",
                    TreeUnsupported::Tutorial => "tree-unsupported-tutorial",
                    TreeUnsupported::Dola => "tree-unsupported-dola",
                    TreeUnsupported::Guidance => "tree-unsupported-guidance",
                });
                self.t_with("tree-refused-unsupported", &[("what", v(what))])
            }
            TreeRefusal::TooLarge {
                samples,
                tokens,
                need_mb,
                budget_mb,
            } => self.t_with(
                "tree-refused-too-large",
                &[
                    ("samples", v(samples)),
                    ("tokens", v(tokens)),
                    ("need", v(crate::format::bytes(*need_mb as u64 * 1_000_000))),
                    (
                        "budget",
                        v(crate::format::bytes(*budget_mb as u64 * 1_000_000)),
                    ),
                ],
            ),
        }
    }
}
