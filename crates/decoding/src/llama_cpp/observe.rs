//! What a llama.cpp chain did at one step, in the terms every lane's step
//! record uses: the funnel (one stage per sampler that acted, in the chain's
//! order), the scores after the chain (`-inf` for a token no longer among
//! the candidates) and the probabilities `dist` draws from — the softmax of
//! the survivors' final logits, temperature included.

use super::candidates::Candidates;
use super::chain::Chain;
use super::sampler::SamplerName;
use crate::knob::Stage;
use crate::observe::Observed;
use crate::record::FunnelStage;
use crate::softmax_terms::softmax_entropy;

/// The candidates as a vocabulary-sized row: their logits where they are.
fn scores_of(cur: &Candidates, n: usize) -> Vec<f32> {
    let mut s = vec![f32::NEG_INFINITY; n];
    for d in &cur.data {
        if let Some(slot) = s.get_mut(d.id as usize) {
            *slot = d.logit;
        }
    }
    s
}

/// Runs the chain on `logits`; returns what it observed and the token its
/// picking sampler chose.
pub fn observe_chain(chain: &mut Chain, logits: &[f32]) -> (Observed, Option<u32>) {
    let n = logits.len();
    let (raw_probs, raw_entropy) = softmax_entropy(logits);
    let mut funnel = vec![FunnelStage {
        name: Stage::Model,
        kept: logits.iter().filter(|s| s.is_finite()).count(),
        removed_mass: 0.0,
        entropy: raw_entropy,
    }];
    let mut before = raw_probs.clone();
    let mut removed_at = vec![0u8; n];
    let mut last = logits.to_vec();
    let (_, chosen) = chain.apply(logits, |name, cur| {
        if name == SamplerName::Dist {
            // It only draws: the candidates are what the stage before left.
            return;
        }
        let scores = scores_of(cur, n);
        let (after, entropy) = softmax_entropy(&scores);
        let stage = funnel.len();
        let mut removed_mass = 0.0;
        for (i, (b, s)) in before.iter().zip(&scores).enumerate() {
            if *b > 0.0 && *s == f32::NEG_INFINITY {
                removed_mass += *b;
                removed_at[i] = stage.min(u8::MAX as usize) as u8;
            }
        }
        funnel.push(FunnelStage {
            name: Stage::LlamaCpp(name),
            kept: scores.iter().filter(|s| s.is_finite()).count(),
            removed_mass,
            entropy,
        });
        before = after;
        last = scores;
    });
    (
        Observed {
            processed: last,
            probs: before,
            raw_probs,
            funnel,
            removed_at,
        },
        chosen,
    )
}
