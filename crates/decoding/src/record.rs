//! What a run records: per step, the table behind the token; per run, the
//! texts and why it stopped. One schema for the CLI's `--json`, the worker's
//! messages and the page's export.

use crate::knob::Stage;
use crate::mode::Mode;
use crate::prompt::Prompt;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// An `eos_token_id` was chosen (it stays in the output).
    Eos,
    MaxNewTokens,
    StopString,
    /// The sequence filled the model's `n_positions`.
    ContextFull,
    /// Beam search ended by its own criterion (`early_stopping`).
    BeamSearchDone,
    /// A forced continuation (teacher forcing) ran out.
    ForcedEnd,
    Cancelled,
}

impl StopReason {
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Eos => "eos",
            StopReason::MaxNewTokens => "max_new_tokens",
            StopReason::StopString => "stop_string",
            StopReason::ContextFull => "context_full",
            StopReason::BeamSearchDone => "beam_search_done",
            StopReason::ForcedEnd => "forced_end",
            StopReason::Cancelled => "cancelled",
        }
    }
}

/// One row of a step's table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub id: u32,
    pub token: String,
    /// The model's raw logit.
    #[serde(with = "crate::wire_float")]
    pub logit: f32,
    /// Probability before any knob.
    #[serde(with = "crate::wire_float")]
    pub raw_prob: f32,
    /// Score after every knob; `None` where a knob removed the token.
    #[serde(with = "crate::wire_float::option")]
    pub score: Option<f32>,
    /// Probability after every knob.
    #[serde(with = "crate::wire_float")]
    pub prob: f32,
    /// The funnel stage (a knob) that removed it, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<Stage>,
}

/// One stage of the filter funnel: the distribution after one knob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunnelStage {
    /// `model` for the raw distribution, otherwise the knob's processor.
    pub name: Stage,
    pub kept: usize,
    /// Probability mass (of the distribution entering this stage) this stage removed.
    #[serde(with = "crate::wire_float")]
    pub removed_mass: f32,
    #[serde(with = "crate::wire_float")]
    pub entropy: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BeamCandidate {
    /// Which running beam it extends.
    pub beam: usize,
    pub token_id: u32,
    pub token: String,
    /// Sum of log-probabilities of the hypothesis so far.
    #[serde(with = "crate::wire_float")]
    pub score: f32,
    /// It ended here (eos, length or stop string).
    pub finished: bool,
    /// It is one of the beams that go on.
    pub running: bool,
    /// Which of the next step's beams it becomes, when it goes on (the
    /// `beam` its own continuations name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_beam: Option<usize>,
    /// Diverse beam search: the beam's group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    /// Diverse beam search: what the diversity penalty took from this
    /// continuation's score (earlier groups chose the same token).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(with = "crate::wire_float::option")]
    pub diversity_penalty: Option<f32>,
    /// Diverse beam search: a beam of a group that has finished, fed the pad
    /// token as HF feeds it (it decides nothing).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub padding: bool,
    /// Constrained beam search: constraints this continuation meets, of how many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraints: Option<[usize; 2]>,
    /// Constrained beam search: a continuation added because its token moves
    /// a constraint forward, not because it scored among the best.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pushed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContrastiveCandidate {
    pub id: u32,
    pub token: String,
    #[serde(with = "crate::wire_float")]
    pub prob: f32,
    /// Max cosine similarity to the context's hidden states.
    #[serde(with = "crate::wire_float")]
    pub degeneration_penalty: f32,
    /// `(1 - alpha) * prob - alpha * degeneration_penalty`.
    #[serde(with = "crate::wire_float")]
    pub score: f32,
}

/// One DoLa step: the table's logits are `log p_final − log p_premature`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DolaStep {
    /// The premature layer contrasted with (0 = the embeddings).
    pub premature_layer: usize,
    /// The candidate layers, in order.
    pub candidates: Vec<usize>,
    /// Each candidate's Jensen–Shannon divergence from the final layer (empty
    /// when there is one candidate: nothing to choose).
    #[serde(with = "crate::wire_float::vec")]
    pub divergences: Vec<f32>,
    /// Tokens above 10% of the final layer's top probability (the others are
    /// dropped before the contrast).
    pub plausible: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub token_id: u32,
    pub token: String,
    /// Tokens with a finite processed score.
    pub kept: usize,
    /// Entropy (nats) of the processed distribution.
    #[serde(with = "crate::wire_float")]
    pub entropy: f32,
    #[serde(with = "crate::wire_float")]
    pub raw_entropy: f32,
    /// 1-based rank of the chosen token in the raw distribution.
    pub rank: usize,
    #[serde(with = "crate::wire_float")]
    pub chosen_raw_prob: f32,
    #[serde(with = "crate::wire_float")]
    pub chosen_prob: f32,
    /// Tokens needed for 50%, 90% and 95% of the raw mass.
    pub nucleus: [usize; 3],
    pub funnel: Vec<FunnelStage>,
    /// Sorted by processed probability, highest first; removed tokens last.
    pub top: Vec<Candidate>,
    /// For a sampled token: the uniform `u` it drew in the Gumbel-max race
    /// (the winner has the largest `ln p − ln(−ln u)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<f64>,
    /// The token was given (teacher forcing), not chosen.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beams: Option<Vec<BeamCandidate>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contrastive: Option<Vec<ContrastiveCandidate>>,
    /// DoLa: the layer this step contrasted with, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dola: Option<DolaStep>,
    /// The logit lens, when the run asked for it: what the model would have
    /// predicted after each layer, the last row the step's raw distribution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lens: Option<Vec<LensLayer>>,
}

/// One row of the logit lens: the final norm and the head applied to a
/// layer's output at the step's position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LensLayer {
    /// After this layer (1-based); the last is the model's own output.
    pub layer: usize,
    /// The layer's most probable tokens, highest first.
    pub top: Vec<LensToken>,
    /// Entropy (nats) of the layer's distribution.
    #[serde(with = "crate::wire_float")]
    pub entropy: f32,
    /// The probability this layer gave the token the step chose.
    #[serde(with = "crate::wire_float")]
    pub chosen_prob: f32,
    /// Its 1-based rank there (as `Step::rank`: tokens with a higher logit, plus one).
    pub chosen_rank: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LensToken {
    pub id: u32,
    pub token: String,
    #[serde(with = "crate::wire_float")]
    pub prob: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sequence {
    pub token_ids: Vec<u32>,
    pub text: String,
    #[serde(with = "crate::wire_float::option")]
    pub score: Option<f32>,
    /// A sampling lane's second and later samples (`num_return_sequences`):
    /// their own steps (the first sample's are the run's `steps`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub config: crate::LaneConfig,
    pub mode: Mode,
    /// New tokens of the best sequence, eos included, no padding.
    pub token_ids: Vec<u32>,
    pub text: String,
    pub stop_reason: StopReason,
    pub sequences: Vec<Sequence>,
    pub steps: Vec<Step>,
    /// The lane ran on a model of its own (`"model"` in its config), not the
    /// document's: which, and the prompt as that model's tokenizer read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<LaneModel>,
}

/// A lane's own model, and the prompt as its tokenizer read it (the
/// document's `prompt_ids` are the document's model's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaneModel {
    /// As the lane's config named it.
    pub name: String,
    pub prompt_ids: Vec<u32>,
    #[serde(default)]
    pub prompt_cropped: usize,
}

/// The whole document: `decode --json` output and the page's export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub prompt_ids: Vec<u32>,
    #[serde(default)]
    pub prompt: String,
    /// Tokens cropped from the left of an over-long prompt.
    #[serde(default)]
    pub prompt_cropped: usize,
    pub runs: Vec<Run>,
}

impl Document {
    /// The document of a run: the prompt as typed, as the model saw it, and
    /// one run per lane.
    pub fn new(prompt_text: String, prompt: Prompt, runs: Vec<Run>) -> Document {
        Document {
            prompt_ids: prompt.ids,
            prompt: prompt_text,
            prompt_cropped: prompt.cropped,
            runs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knob::Knob;

    #[test]
    fn modes_and_stages_serialise_as_the_names_the_json_always_had() {
        let run = Run {
            config: crate::LaneConfig::default(),
            mode: Mode::Beam,
            token_ids: vec![],
            text: String::new(),
            stop_reason: StopReason::Eos,
            sequences: vec![],
            steps: vec![],
            model: None,
        };
        let json = serde_json::to_value(&run).unwrap();
        assert_eq!(json["mode"], "beam");
        let stage = FunnelStage {
            name: Stage::Knob(Knob::TopK),
            kept: 1,
            removed_mass: 0.0,
            entropy: 0.0,
        };
        assert_eq!(serde_json::to_value(&stage).unwrap()["name"], "top_k");
        let cand = Candidate {
            id: 1,
            token: "a".into(),
            logit: 0.0,
            raw_prob: 0.0,
            score: None,
            prob: 0.0,
            removed_by: Some(Stage::FrequencyPresencePenalty),
        };
        let json = serde_json::to_string(&cand).unwrap();
        assert!(
            json.contains(r#""removed_by":"frequency_presence_penalty""#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Candidate>(&json).unwrap(), cand);
    }
}
