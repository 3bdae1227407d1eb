//! Runs a lane's processors on one row of logits and records what each knob did:
//! the funnel, the processed distribution and the table behind the chosen token.

use crate::knob::Stage;
use crate::processors::{Context, Pipeline};
use crate::record::{Candidate, FunnelStage, Step};
use crate::scores::{log_softmax, nucleus_sizes, top_indices};
use crate::softmax_terms::{change, Change, SoftmaxTerms};
use crate::vocab::Vocab;

/// Where processing starts: HF's greedy/sample/contrastive loops process raw
/// logits; its beam search processes `log_softmax(logits)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Logits,
    LogProbs,
}

pub struct Observed {
    /// Scores after every knob (`-inf` = removed).
    pub processed: Vec<f32>,
    pub probs: Vec<f32>,
    pub raw_probs: Vec<f32>,
    pub funnel: Vec<FunnelStage>,
    /// Per token: the funnel stage that removed it (0 = not removed by a knob).
    pub removed_at: Vec<u8>,
}

impl Observed {
    pub fn kept(&self) -> usize {
        self.funnel.last().map(|s| s.kept).unwrap_or(0)
    }
}

pub fn observe(pipeline: &Pipeline, ctx: &Context, logits: &[f32], input: Input) -> Observed {
    let raw = SoftmaxTerms::of(logits);
    let (raw_probs, raw_entropy) = (raw.probs(), raw.entropy());
    let mut scores = match input {
        Input::Logits => logits.to_vec(),
        Input::LogProbs => log_softmax(logits),
    };
    let mut funnel = vec![FunnelStage {
        name: Stage::Model,
        kept: scores.iter().filter(|s| s.is_finite()).count(),
        removed_mass: 0.0,
        entropy: raw_entropy,
    }];
    // The terms of the distribution before each knob. From log-probabilities
    // the raw terms give the first knob's removed mass, as they always have,
    // but are not the terms of `scores`: that knob's distribution is new.
    let mut current = raw;
    let mut of_scores = input == Input::Logits;
    let mut removed_at = vec![0u8; scores.len()];
    let mut before = scores.clone();
    for (stage, p) in pipeline.processors.iter().enumerate() {
        before.copy_from_slice(&scores);
        p.process(ctx, &mut scores);
        let tag = (stage + 1).min(u8::MAX as usize) as u8;
        let mut removed_mass = 0.0;
        let mut mark = |i: usize| {
            let b = current.prob(i);
            if b > 0.0 {
                removed_mass += b;
                removed_at[i] = tag;
            }
        };
        let kept_before = funnel.last().map_or(0, |f| f.kept);
        let (next, kept) = match change(&before, &scores) {
            Change::Removed(gone) => {
                gone.iter().for_each(|&i| mark(i));
                let kept = kept_before - gone.iter().filter(|&&i| before[i].is_finite()).count();
                let next = of_scores
                    .then(|| current.without(&gone, &before, &scores))
                    .flatten();
                (next.unwrap_or_else(|| SoftmaxTerms::of(&scores)), kept)
            }
            Change::Values => {
                (0..scores.len())
                    .filter(|&i| scores[i] == f32::NEG_INFINITY && before[i] != f32::NEG_INFINITY)
                    .for_each(&mut mark);
                let kept = scores.iter().filter(|s| s.is_finite()).count();
                (SoftmaxTerms::of(&scores), kept)
            }
        };
        funnel.push(FunnelStage {
            name: p.stage(),
            kept,
            removed_mass,
            entropy: next.entropy(),
        });
        current = next;
        of_scores = true;
    }
    Observed {
        processed: scores,
        probs: current.into_probs(),
        raw_probs,
        funnel,
        removed_at,
    }
}

pub struct StepInfo<'a> {
    pub logits: &'a [f32],
    pub chosen: u32,
    pub draw: Option<f64>,
    pub forced: bool,
    pub top_n: usize,
}

/// The table behind one chosen token.
pub fn step_record(obs: &Observed, info: StepInfo, vocab: &Vocab) -> Step {
    let StepInfo {
        logits,
        chosen,
        draw,
        forced,
        top_n,
    } = info;
    let c = chosen as usize;
    let kept = obs.kept();
    let mut ids = top_indices(&obs.probs, top_n.min(kept));
    let removed = |i: &usize| obs.processed[*i] == f32::NEG_INFINITY;
    if kept < obs.probs.len() {
        // The model's own favourites a knob removed stay in the table, struck
        // through: they are why the pick is not the model's first choice.
        let favourites: Vec<usize> = top_indices(&obs.raw_probs, top_n)
            .into_iter()
            .filter(|i| removed(i) && !ids.contains(i))
            .collect();
        ids.extend(favourites);
    }
    if ids.len() < top_n {
        // Fill with the best removed tokens so the table shows what the knobs cut.
        let more: Vec<usize> = top_indices(&obs.raw_probs, top_n + kept)
            .into_iter()
            .filter(|i| removed(i) && !ids.contains(i))
            .take(top_n - ids.len())
            .collect();
        ids.extend(more);
    }
    if c < logits.len() && !ids.contains(&c) {
        ids.push(c);
    }
    let top = ids
        .into_iter()
        .map(|i| Candidate {
            id: i as u32,
            token: vocab.display(i as u32),
            logit: logits[i],
            raw_prob: obs.raw_probs[i],
            score: obs.processed[i].is_finite().then_some(obs.processed[i]),
            prob: obs.probs[i],
            removed_by: obs
                .funnel
                .get(obs.removed_at[i] as usize)
                .filter(|_| obs.removed_at[i] > 0)
                .map(|f| f.name),
        })
        .collect();
    let chosen_logit = logits.get(c).copied().unwrap_or(f32::NEG_INFINITY);
    let rank = 1 + logits.iter().filter(|&&l| l > chosen_logit).count();
    let n = nucleus_sizes(&obs.raw_probs, &[0.5, 0.9, 0.95]);
    Step {
        token_id: chosen,
        token: vocab.display(chosen),
        kept,
        entropy: obs.funnel.last().map(|s| s.entropy).unwrap_or(0.0),
        raw_entropy: obs.funnel[0].entropy,
        rank,
        chosen_raw_prob: obs.raw_probs.get(c).copied().unwrap_or(0.0),
        chosen_prob: obs.probs.get(c).copied().unwrap_or(0.0),
        nucleus: [n[0], n[1], n[2]],
        funnel: obs.funnel.clone(),
        top,
        draw,
        forced,
        beams: None,
        contrastive: None,
        dola: None,
        lens: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::GenerationConfig;
    use crate::knob::Knob;
    use crate::processors::{Context, Pipeline};

    #[test]
    fn a_favourite_a_knob_removed_stays_in_the_table_with_its_knob() {
        let cfg = GenerationConfig::from_json(r#"{"suppress_tokens": [0]}"#)
            .unwrap()
            .validate()
            .unwrap();
        let pipeline = Pipeline::for_config(&cfg, 1);
        let logits: Vec<f32> = (0..100).map(|i| -(i as f32) / 10.0).collect();
        let ctx = Context::new(&[5], 1);
        let obs = observe(&pipeline, &ctx, &logits, Input::Logits);
        let info = StepInfo {
            logits: &logits,
            chosen: 1,
            draw: None,
            forced: false,
            top_n: 5,
        };
        let step = step_record(&obs, info, &crate::sandbox::toy_vocab(100));
        assert_eq!(step.top[0].id, 1, "the best kept token leads");
        let gone = step
            .top
            .iter()
            .find(|c| c.id == 0)
            .expect("the favourite is listed");
        assert_eq!(gone.removed_by, Some(Stage::Knob(Knob::SuppressTokens)));
        assert_eq!(gone.prob, 0.0);
        assert_eq!(step.top.len(), 6, "five kept, then the removed favourite");
    }
}
