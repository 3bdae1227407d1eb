//! Seed 004's `top_k_sampling`, `top_p_sampling` and `sample_next_token` on
//! one row of f32 logits, as torch computes them on the CPU: temperature
//! as an f32 division, top-k keeping every logit not below the k-th largest
//! (ties at the threshold stay), top-p over the sorted softmax with torch's
//! CPU cumsum (accumulated in f64, each prefix rounded to f32) compared to p
//! in f32, keeping the first token past p; then dnnlpy's softmax
//! (`exp(x − max) / Σ`).

/// Each stage's scores (`-inf` = removed), in the order applied.
pub struct Filtered {
    pub tempered: Vec<f32>,
    /// After top-k, when it was given.
    pub top_k: Option<Vec<f32>>,
    /// After top-p, when it was given.
    pub top_p: Option<Vec<f32>>,
    /// The probabilities the draw is made from.
    pub probs: Vec<f32>,
}

impl Filtered {
    /// The scores after the last stage.
    pub fn last(&self) -> &[f32] {
        self.top_p
            .as_deref()
            .or(self.top_k.as_deref())
            .unwrap_or(&self.tempered)
    }
}

/// dnnlpy's `softmax`: `exp(x − max) / sum`, in f32.
pub fn softmax(x: &[f32]) -> Vec<f32> {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f32> = x.iter().map(|&v| (v - max).exp()).collect();
    let sum: f32 = e.iter().sum();
    e.iter().map(|&v| v / sum).collect()
}

pub fn top_k(logits: &[f32], k: i64) -> Vec<f32> {
    if k <= 0 {
        return logits.to_vec();
    }
    let k = (k as usize).min(logits.len());
    let mut sorted = logits.to_vec();
    sorted.sort_unstable_by(|a, b| b.total_cmp(a));
    let threshold = sorted[k - 1];
    logits
        .iter()
        .map(|&v| if v < threshold { f32::NEG_INFINITY } else { v })
        .collect()
}

pub fn top_p(logits: &[f32], p: f32) -> Vec<f32> {
    if p == 1.0 {
        return logits.to_vec();
    }
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]).then(a.cmp(&b)));
    let sorted: Vec<f32> = order.iter().map(|&i| logits[i]).collect();
    let probs = softmax(&sorted);
    let mut out = logits.to_vec();
    let mut acc = 0f64;
    // mask[i] = cumsum[i - 1] > p: the first token past p is kept.
    let mut past = false;
    for (&i, &q) in order.iter().zip(&probs) {
        if past {
            out[i] = f32::NEG_INFINITY;
        }
        acc += q as f64;
        past = (acc as f32) > p;
    }
    out
}

/// `sample_next_token` up to its softmax.
pub fn filter(logits: &[f32], temperature: f32, k: Option<i64>, p: Option<f32>) -> Filtered {
    let tempered: Vec<f32> = logits.iter().map(|&v| v / temperature).collect();
    let after_k = k.map(|k| top_k(&tempered, k));
    let after_p = p.map(|p| top_p(after_k.as_deref().unwrap_or(&tempered), p));
    let probs = softmax(
        after_p
            .as_deref()
            .or(after_k.as_deref())
            .unwrap_or(&tempered),
    );
    Filtered {
        tempered,
        top_k: after_k,
        top_p: after_p,
        probs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_p_keeps_the_first_token_past_p_as_seed_004_does() {
        // probs ≈ [0.64, 0.24, 0.09, 0.03]: 0.64 < 0.7, so the second is the
        // first past p and is kept; the third goes.
        let l = [2.0f32, 1.0, 0.0, -1.0];
        let out = top_p(&l, 0.7);
        assert_eq!(out[..2], [2.0, 1.0]);
        assert!(out[2..].iter().all(|v| *v == f32::NEG_INFINITY));
        // Exactly p: the cumulative sum is not above p, so the next stays too.
        assert_eq!(top_p(&[0.0, 0.0], 0.5), vec![0.0, 0.0]);
    }

    #[test]
    fn top_k_keeps_ties_at_the_threshold() {
        let out = top_k(&[3.0, 1.0, 1.0, 0.0], 2);
        assert_eq!(out, vec![3.0, 1.0, 1.0, f32::NEG_INFINITY]);
        assert_eq!(top_k(&[1.0, 2.0], 0), vec![1.0, 2.0]);
        assert_eq!(top_k(&[1.0, 2.0], 9), vec![1.0, 2.0]);
    }
}
