//! The logit lens of one step, as the record keeps it: for each layer, its
//! most probable tokens, its entropy, and where the token the step chose
//! stood there. The rows come from the step's own forward pass (early exits
//! through the final norm and the head), the last row being the logits the
//! lane decided from, so its probabilities are the step's raw ones exactly.

use crate::record::{LensLayer, LensToken};
use crate::scores::top_indices;
use crate::softmax_terms::SoftmaxTerms;
use crate::vocab::Vocab;

/// Tokens shown per layer: enough to see a choice arrive, few enough for
/// a grid of every layer on a phone.
pub const LENS_TOP: usize = 5;

/// The lens of a step that chose `chosen`: `exits` holds the logits after
/// layers 1..L−1 (`vocab_size` each, in order), `last` the model's own row.
pub fn lens_layers(exits: &[f32], last: &[f32], chosen: u32, vocab: &Vocab) -> Vec<LensLayer> {
    let v = last.len();
    exits
        .chunks_exact(v)
        .chain(std::iter::once(last))
        .enumerate()
        .map(|(i, row)| layer(i + 1, row, chosen, vocab))
        .collect()
}

fn layer(layer: usize, logits: &[f32], chosen: u32, vocab: &Vocab) -> LensLayer {
    let terms = SoftmaxTerms::of(logits);
    let probs = terms.probs();
    let c = chosen as usize;
    let chosen_logit = logits.get(c).copied().unwrap_or(f32::NEG_INFINITY);
    LensLayer {
        layer,
        top: top_indices(&probs, LENS_TOP)
            .into_iter()
            .map(|i| LensToken {
                id: i as u32,
                token: vocab.display(i as u32),
                prob: probs[i],
            })
            .collect(),
        entropy: terms.entropy(),
        chosen_prob: probs.get(c).copied().unwrap_or(0.0),
        chosen_rank: 1 + logits.iter().filter(|&&l| l > chosen_logit).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(n: usize) -> Vocab {
        let tokens: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
        Vocab::from_byte_level(&tokens, |_| false)
    }

    #[test]
    fn each_layer_ranks_the_chosen_token_and_the_last_row_is_the_models() {
        let v = vocab(6);
        // Layer 1 prefers token 0; layer 2 (the model's row) token 3.
        let exits = [3.0, 1.0, 0.0, 0.5, 0.0, 0.0];
        let last = [0.0, 1.0, 0.0, 4.0, 0.0, 2.0];
        let lens = lens_layers(&exits, &last, 3, &v);
        assert_eq!(lens.len(), 2);
        assert_eq!((lens[0].layer, lens[1].layer), (1, 2));
        assert_eq!(lens[0].top[0].id, 0);
        assert_eq!(lens[0].chosen_rank, 3);
        assert_eq!(lens[1].top[0].id, 3);
        assert_eq!(lens[1].chosen_rank, 1);
        let raw = SoftmaxTerms::of(&last).probs();
        assert_eq!(lens[1].chosen_prob.to_bits(), raw[3].to_bits());
        assert_eq!(lens[1].top.len(), LENS_TOP);
        assert!(lens[1].top.windows(2).all(|w| w[0].prob >= w[1].prob));
    }

    #[test]
    fn a_model_of_one_layer_has_only_its_own_row() {
        let lens = lens_layers(&[], &[1.0, 2.0], 0, &vocab(2));
        assert_eq!(lens.len(), 1);
        assert_eq!(lens[0].top.len(), 2);
        assert_eq!(lens[0].chosen_rank, 2);
    }
}
