//! DoLa, "decoding by contrasting layers", as HF 4.55.4's `_dola_decoding`
//! does it (its last in-core version): the final layer's next-token
//! distribution is contrasted with an earlier ("premature") layer's, read
//! through the same output head. Among the candidate layers, the one whose
//! distribution is furthest from the final one (Jensen–Shannon divergence) is
//! chosen at each step; tokens below 10% of the final layer's top probability
//! are dropped; the rest score `log p_final − log p_premature`. The lane picks
//! the layer ([`choose_layer`]); the contrast is the pipeline's first stage
//! (`processors::DolaContrast`), so the knobs then apply to it as to logits.

use crate::scores::log_softmax;
use serde::{Deserialize, Serialize};

/// HF's `dola_layers`: `"low"`, `"high"`, or a list of layer indices (0 is
/// the embedding layer).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DolaLayers {
    Part(DolaPart),
    List(Vec<i64>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DolaPart {
    Low,
    High,
}

/// Why a model has no layer to contrast with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`dola_layers` {asked} leaves no layer to contrast with on this model ({n_layers} layers{}); \
     name layers from 0 to {last}",
    if *.tied_head { ", tied head" } else { "" }
)]
pub struct NoCandidates {
    /// `dola_layers` as JSON.
    pub asked: String,
    pub n_layers: usize,
    pub tied_head: bool,
    /// The last layer a list may name.
    pub last: usize,
}

/// The candidate premature layers for a model of `n_layers` layers (HF's rule:
/// with a tied head the first layers are skipped, as their logits would be
/// the input embedding's; lists keep the layers below the last).
pub fn candidate_layers(
    layers: &DolaLayers,
    n_layers: usize,
    tied_head: bool,
) -> Result<Vec<usize>, NoCandidates> {
    let last = n_layers;
    let start = match (tied_head, last) {
        (false, _) => 0,
        (true, l) if l > 2 => 2,
        (true, 2) => 1,
        _ => 0,
    };
    let half = last / 2;
    let stepped = |from: usize, to: usize| (from..to).step_by(2).collect::<Vec<_>>();
    let out = match layers {
        DolaLayers::Part(DolaPart::Low) if start == half => vec![start],
        DolaLayers::Part(DolaPart::Low) if last <= 40 => stepped(start, half),
        DolaLayers::Part(DolaPart::Low) => stepped(start, 20),
        DolaLayers::Part(DolaPart::High) if last <= 40 => stepped(half, last),
        DolaLayers::Part(DolaPart::High) => stepped(last - 20, last),
        DolaLayers::List(v) => v
            .iter()
            .filter(|&&i| i >= 0 && (i as usize) < last)
            .map(|&i| i as usize)
            .collect(),
    };
    if out.is_empty() {
        return Err(NoCandidates {
            asked: serde_json::to_string(layers).unwrap_or_default(),
            n_layers,
            tied_head,
            last: last.saturating_sub(1),
        });
    }
    Ok(out)
}

/// HF's `_dola_select_contrast`'s choice on one row: the index of the
/// candidate layer furthest from the final one (Jensen–Shannon divergence),
/// and each candidate's divergence (none with a single candidate: HF does
/// not compute them then).
pub fn choose_layer(final_logits: &[f32], premature: &[&[f32]]) -> (usize, Vec<f32>) {
    if premature.len() <= 1 {
        return (0, vec![]);
    }
    let lf = log_softmax(final_logits);
    let js: Vec<f32> = premature
        .iter()
        .map(|p| js_divergence(&lf, &log_softmax(p)))
        .collect();
    // torch's argmax: the first of equal maxima.
    let best = js
        .iter()
        .enumerate()
        .fold(0, |b, (i, &d)| if d > js[b] { i } else { b });
    (best, js)
}

/// `0.5 · (KL(avg ‖ final) + KL(avg ‖ premature))` with `avg` the mean of the
/// two distributions, each KL averaged over the vocabulary (HF's `kl_div(...,
/// reduction="none").mean(-1)`).
fn js_divergence(log_final: &[f32], log_premature: &[f32]) -> f32 {
    let n = log_final.len() as f64;
    let (mut kl1, mut kl2) = (0.0f64, 0.0f64);
    for (&a, &b) in log_final.iter().zip(log_premature) {
        let avg = 0.5 * (a.exp() + b.exp());
        if avg > 0.0 {
            let la = avg.ln();
            kl1 += (avg * (la - a)) as f64;
            kl2 += (avg * (la - b)) as f64;
        }
    }
    (0.5 * (kl1 / n + kl2 / n)) as f32
}

/// HF's `_relative_top_filter` (relative_top 0.1, one token kept at least),
/// then the difference of the two normalised rows: `log p_final −
/// log p_premature` on the plausible tokens, −∞ elsewhere.
pub fn relative_top_contrast(final_logits: &[f32], base_logits: &[f32]) -> Vec<f32> {
    let f = log_softmax(final_logits);
    let b = log_softmax(base_logits);
    let max = f.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    // `probs_max + np.log(relative_top)` in f32; never above the top token.
    let threshold = (max + 0.1f64.ln() as f32).min(max);
    f.iter()
        .zip(&b)
        .map(|(&fi, &bi)| {
            if fi < threshold {
                // HF: final −inf, base −1e-3.
                f32::NEG_INFINITY
            } else {
                fi - bi
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers(json: &str, n: usize, tied: bool) -> Result<Vec<usize>, NoCandidates> {
        candidate_layers(&serde_json::from_str(json).unwrap(), n, tied)
    }

    #[test]
    fn low_and_high_split_the_layers_as_hf_does() {
        // distilgpt2: 6 layers, tied head.
        assert_eq!(layers(r#""low""#, 6, true).unwrap(), [2]);
        assert_eq!(layers(r#""high""#, 6, true).unwrap(), [3, 5]);
        // gpt2: 12 layers.
        assert_eq!(layers(r#""low""#, 12, true).unwrap(), [2, 4]);
        assert_eq!(layers(r#""high""#, 12, true).unwrap(), [6, 8, 10]);
        // Untied heads start at the embeddings; deep models look at 20 layers.
        assert_eq!(layers(r#""low""#, 12, false).unwrap(), [0, 2, 4]);
        assert_eq!(
            layers(r#""high""#, 48, true).unwrap(),
            (28..48).step_by(2).collect::<Vec<_>>()
        );
        assert_eq!(
            layers(r#""low""#, 48, true).unwrap(),
            (2..20).step_by(2).collect::<Vec<_>>()
        );
        // Two layers, tied: start 1 = half, so "low" is [1].
        assert_eq!(layers(r#""low""#, 2, true).unwrap(), [1]);
    }

    #[test]
    fn a_list_keeps_the_layers_below_the_last_and_an_empty_choice_is_refused() {
        assert_eq!(layers("[0, 1, 5, 9]", 6, true).unwrap(), [0, 1, 5]);
        let e = layers("[6, 7]", 6, true).unwrap_err();
        assert!(e.to_string().contains("from 0 to 5"), "{e}");
        // Three tied layers: "low" starts at 2, past the half (HF finds nothing either).
        assert!(layers(r#""low""#, 3, true).is_err());
    }

    #[test]
    fn one_candidate_is_chosen_without_divergences() {
        assert_eq!(choose_layer(&[2.0, 1.0], &[&[0.0, 1.0]]), (0, vec![]));
    }

    #[test]
    fn the_contrast_keeps_tokens_within_a_tenth_of_the_top_probability() {
        let c = relative_top_contrast(&[2.0, 1.0, -5.0], &[0.0, 1.0, 0.0]);
        // Token 2 is below 10% of the top probability: dropped.
        assert_eq!(c[2], f32::NEG_INFINITY);
        let f = log_softmax(&[2.0, 1.0, -5.0]);
        let b = log_softmax(&[0.0, 1.0, 0.0]);
        assert!((c[0] - (f[0] - b[0])).abs() < 1e-6);
        assert!((c[1] - (f[1] - b[1])).abs() < 1e-6);
    }

    #[test]
    fn the_layer_furthest_from_the_final_one_is_chosen() {
        let final_logits = [3.0, 0.0, 0.0, 0.0];
        let near: &[f32] = &[2.9, 0.0, 0.0, 0.0];
        let far: &[f32] = &[0.0, 3.0, 0.0, 0.0];
        let (chosen, js) = choose_layer(&final_logits, &[near, far, near]);
        assert_eq!(chosen, 1);
        assert!(js[1] > js[0]);
        assert_eq!(js[0], js[2]);
        // The same row twice: no divergence.
        assert!(js_divergence(&log_softmax(near), &log_softmax(near)).abs() < 1e-7);
    }
}
