//! The prompt as the model sees it: its tokens (ids, how they show, their
//! bytes) and, at every position, what the model predicted next — the
//! lessons' "[T, V] logits; generation uses only the last row" made visible.

use crate::scores::{softmax, top_indices};
use crate::vocab::Vocab;
use serde::{Deserialize, Serialize};

/// One token of the prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptToken {
    pub id: u32,
    /// As tables show it (`<0xE2>` for part of a character).
    pub token: String,
    pub bytes: Vec<u8>,
}

impl PromptToken {
    pub fn new(id: u32, vocab: &Vocab) -> PromptToken {
        PromptToken {
            id,
            token: vocab.display(id),
            bytes: vocab.bytes(id).to_vec(),
        }
    }
}

/// A token the model thought likely, and how likely.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Guess {
    pub id: u32,
    pub token: String,
    pub prob: f32,
}

/// What the model made of the token that really came next.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Actual {
    pub id: u32,
    pub prob: f32,
    /// 1-based rank among all tokens by the model's logit.
    pub rank: usize,
}

/// The model's prediction after one position of the prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// The likeliest next tokens, most likely first.
    pub top: Vec<Guess>,
    /// The prompt's own next token; `None` after the last position, where
    /// generation takes over.
    pub actual: Option<Actual>,
}

/// One row of logits read as a prediction: its `top_n` and, when the prompt
/// goes on, the rank and probability of the token that follows.
pub fn predict(logits: &[f32], next: Option<u32>, top_n: usize, vocab: &Vocab) -> Prediction {
    let probs = softmax(logits);
    let top = top_indices(&probs, top_n)
        .into_iter()
        .map(|i| Guess {
            id: i as u32,
            token: vocab.display(i as u32),
            prob: probs[i],
        })
        .collect();
    let actual = next.filter(|&id| (id as usize) < logits.len()).map(|id| {
        let l = logits[id as usize];
        Actual {
            id,
            prob: probs[id as usize],
            rank: 1 + logits.iter().filter(|&&x| x > l).count(),
        }
    });
    Prediction { top, actual }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::toy_vocab;

    #[test]
    fn a_row_gives_its_likeliest_tokens_and_where_the_real_next_one_ranks() {
        let v = toy_vocab(5);
        let p = predict(&[2.0, 1.0, 0.1, -1.0, -2.0], Some(2), 2, &v);
        assert_eq!(p.top.iter().map(|g| g.id).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(p.top[0].token, "a");
        assert!((p.top[0].prob - 0.6307).abs() < 1e-4);
        let a = p.actual.unwrap();
        assert_eq!((a.id, a.rank), (2, 3));
        assert!((a.prob - 0.0943).abs() < 1e-4);
        assert_eq!(predict(&[1.0, 2.0], None, 5, &v).actual, None);
        assert_eq!(predict(&[1.0, 2.0], None, 5, &v).top.len(), 2);
    }
}
