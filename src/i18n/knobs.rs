//! The knobs in the reader's language. A knob's name stays as its library
//! spells it (people search for `top_p`); what it does, and its group's
//! heading, come from the catalogs: `hf-help-<knob>` and `llama-help-<knob>`
//! for every knob of each table (a test checks each catalog has them all).

use super::I18n;
use ntl_decoding::knob_table::{KnobGroup, Range};
use ntl_decoding::llama_cpp::knob::LlamaCppKnob;
use ntl_decoding::llama_cpp::knob_table::LlamaCppGroup;
use ntl_decoding::Knob;

/// The catalog's prefix for an HF knob's help.
pub const HF_HELP: &str = "hf-help-";
/// The catalog's prefix for a llama.cpp knob's help.
pub const LLAMA_HELP: &str = "llama-help-";
/// The catalog's prefix for a tutorial lane's field's help.
pub const TUTORIAL_HELP: &str = "tutorial-help-";

impl I18n {
    /// One line on what an HF knob does.
    pub fn hf_help(&self, knob: Knob) -> String {
        self.t(&format!("{HF_HELP}{}", knob.name()))
    }

    /// One line on what a llama.cpp knob does there.
    pub fn llama_help(&self, knob: LlamaCppKnob) -> String {
        self.t(&format!("{LLAMA_HELP}{}", knob.name()))
    }

    /// One line on what a tutorial lane's field (seed 004's argument) does.
    pub fn tutorial_help(&self, field: &str) -> String {
        self.t(&format!("{TUTORIAL_HELP}{field}"))
    }

    /// An HF group's heading in the editor.
    pub fn hf_group(&self, group: KnobGroup) -> String {
        self.t(match group {
            KnobGroup::Length => "hf-group-length",
            KnobGroup::Strategy => "hf-group-strategy",
            KnobGroup::LogitsManipulation => "hf-group-logits_manipulation",
            KnobGroup::SpecialTokens => "hf-group-special_tokens",
            KnobGroup::Watermark => "hf-group-watermark",
            KnobGroup::Guidance => "hf-group-guidance",
        })
    }

    /// A llama.cpp group's heading in the editor.
    pub fn llama_group(&self, group: LlamaCppGroup) -> String {
        self.t(match group {
            LlamaCppGroup::SamplerChain => "llama-group-sampler_chain",
            LlamaCppGroup::Penalties => "llama-group-penalties",
            LlamaCppGroup::Mirostat => "llama-group-mirostat",
            LlamaCppGroup::Length => "llama-group-length",
        })
    }

    /// An HF knob's hover text: name, group, what it does, the values it takes.
    pub fn hf_knob_title(&self, knob: Knob) -> String {
        let info = knob.info();
        let takes = match info.range {
            Some(Range::Finite) => {
                self.t_with("knob-takes", &[("range", self.t("range-any").into())])
            }
            Some(r) => self.t_with("knob-takes", &[("range", r.to_string().into())]),
            None => String::new(),
        };
        self.t_with(
            "knob-title",
            &[
                ("knob", knob.name().into()),
                ("group", self.hf_group(info.group).into()),
                ("help", self.hf_help(knob).into()),
            ],
        ) + &takes
    }

    /// A llama.cpp knob's hover text: name, what it does, llama-server's limits.
    pub fn llama_knob_title(&self, knob: LlamaCppKnob) -> String {
        let limits = knob
            .info()
            .and_then(|r| r.limits)
            .map(|(min, max)| {
                self.t_with(
                    "llama-knob-takes",
                    &[
                        ("min", min.to_string().into()),
                        ("max", max.to_string().into()),
                    ],
                )
            })
            .unwrap_or_default();
        self.t_with(
            "llama-knob-title",
            &[
                ("knob", knob.name().into()),
                ("help", self.llama_help(knob).into()),
            ],
        ) + &limits
    }
}
