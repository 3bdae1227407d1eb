//! Beside a quantized lane's step in the compare view: how far its
//! distribution is from a full-precision copy of its model loaded beside it
//! (the page's model, or a lane naming the model as stored), measured by the
//! worker on the step's context. Answers are kept per run, lane and step, so
//! moving back to a step costs nothing.

use crate::said::Said;
use ntl_protocol::{StepDrift, ToWorker, Unanswered};

/// A model the worker holds, as a drift request names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Held {
    /// The page's own model.
    Page,
    /// A lane model, by the name lanes give it.
    Lane(String),
}

impl Held {
    /// As `ToWorker::Drift` names it.
    pub fn wire(&self) -> Option<String> {
        match self {
            Held::Page => None,
            Held::Lane(name) => Some(name.clone()),
        }
    }
}

/// The full-precision model a quantized lane is measured against.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    pub held: Held,
    /// As the page names it (`bundled`, `models/x/`; `None`: picked files).
    pub name: Option<String>,
    /// Its weight type (`F16`, `F32`).
    pub dtype: String,
}

/// Which step of which run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriftKey {
    pub run_id: u64,
    pub lane: usize,
    pub step: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Measure {
    Asked { request_id: u64 },
    Measured(StepDrift),
    Failed(Said),
}

/// What a lane's column shows about its weights at the open step.
#[derive(Debug, Clone, PartialEq)]
pub enum DriftLine {
    /// The lane is quantized, and no full-precision copy with its vocabulary
    /// is loaded: how to get one.
    NoReference { dtype: String },
    Against {
        dtype: String,
        reference: Reference,
        measure: Measure,
    },
}

/// Steps asked about and their answers, newest last.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drifts {
    next_request: u64,
    entries: Vec<(DriftKey, Reference, Measure)>,
}

/// Answers kept: a few steps back and forth in four lanes.
const KEPT: usize = 64;

impl Drifts {
    /// The measure of `key` against `reference`, if asked.
    pub fn get(&self, key: DriftKey, reference: &Reference) -> Option<&Measure> {
        self.entries
            .iter()
            .rev()
            .find(|(k, r, _)| *k == key && r == reference)
            .map(|(_, _, m)| m)
    }

    /// Asks for `key`'s step after `ids` on `model`, unless it is asked.
    pub fn ask(
        &mut self,
        key: DriftKey,
        model: &Held,
        reference: &Reference,
        ids: Vec<u32>,
    ) -> Option<ToWorker> {
        if self.get(key, reference).is_some() {
            return None;
        }
        self.next_request += 1;
        let request_id = self.next_request;
        if self.entries.len() == KEPT {
            self.entries.remove(0);
        }
        self.entries
            .push((key, reference.clone(), Measure::Asked { request_id }));
        Some(ToWorker::Drift {
            request_id,
            ids,
            model: model.wire(),
            reference: reference.held.wire(),
        })
    }

    /// The worker's answer; `false` for one no step waits for.
    pub fn answered(&mut self, request_id: u64, answer: Result<StepDrift, Unanswered>) -> bool {
        let Some(entry) = self
            .entries
            .iter_mut()
            .find(|(_, _, m)| *m == Measure::Asked { request_id })
        else {
            return false;
        };
        entry.2 = match answer {
            Ok(d) => Measure::Measured(d),
            Err(Unanswered::NoModel) => Measure::Failed(Said::ModelNotReady),
            Err(Unanswered::Engine { message }) => Measure::Failed(Said::Verbatim(message)),
        };
        true
    }

    /// A new worker holds none of the models asked of: start again (its
    /// request ids go on, so no answer of the old one is taken).
    pub fn forget(&mut self) {
        self.entries.clear();
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Weights below 16 bits (GGUF quant types, 8 bits at load): `F32`, `F16`,
/// `BF16` and their mixes are full precision, GGUF's `F16` file included.
pub fn is_quantized(dtype: &str) -> bool {
    let stored = dtype.strip_prefix("GGUF ").unwrap_or(dtype);
    !stored
        .split('+')
        .all(|t| matches!(t.trim(), "F32" | "F16" | "BF16"))
}

/// A weight type as a line names it: `Q8_0`, not the model line's
/// `Q8_0 (quantized at load from F16)`.
pub fn short_dtype(dtype: &str) -> &str {
    dtype.split(" (").next().unwrap_or(dtype)
}
