//! How far one distribution over a vocabulary is from another's after the
//! same context: the KL divergence in nats and each one's likeliest token.
//! What fewer bits per weight cost at a step (`decode --kl-against`, the
//! page's compare view beside a quantized lane).

use crate::scores::argmax;
use serde::{Deserialize, Serialize};

// In f64, not `scores::log_softmax`'s f32: a step's KL is often 1e-4 nats,
// a sum of terms near f32's rounding of each log-probability.
fn log_softmax(row: &[f32]) -> Vec<f64> {
    let max = row.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x)) as f64;
    let sum: f64 = row.iter().map(|&x| (x as f64 - max).exp()).sum();
    let log_sum = max + sum.ln();
    row.iter().map(|&x| x as f64 - log_sum).collect()
}

/// KL(p ‖ q) of two rows of logits, in nats.
pub fn kl_nats(p: &[f32], q: &[f32]) -> f64 {
    let (lp, lq) = (log_softmax(p), log_softmax(q));
    lp.iter()
        .zip(&lq)
        .map(|(&a, &b)| {
            if a.is_finite() {
                a.exp() * (a - b)
            } else {
                0.0
            }
        })
        .sum::<f64>()
        .max(0.0)
}

/// A row's likeliest token and its probability.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Top {
    pub id: u32,
    pub prob: f64,
}

impl Top {
    fn of(row: &[f32]) -> Top {
        let id = argmax(row);
        let prob = log_softmax(row).get(id).map_or(0.0, |lp| lp.exp());
        Top {
            id: id as u32,
            prob,
        }
    }
}

/// One step's distribution measured against a reference model's (full
/// precision) after the same context.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RowDrift {
    /// KL(reference ‖ row), in nats: the figure `decode --kl-against` gives
    /// (infinite where the row rules out a token the reference does not).
    #[serde(with = "crate::wire_float::wide")]
    pub kl: f64,
    pub top: Top,
    pub reference_top: Top,
}

impl RowDrift {
    /// `row` (the lane's model) measured against `reference`; `None` when
    /// the rows are of different vocabularies.
    pub fn measure(row: &[f32], reference: &[f32]) -> Option<RowDrift> {
        (row.len() == reference.len() && !row.is_empty()).then(|| RowDrift {
            kl: kl_nats(reference, row),
            top: Top::of(row),
            reference_top: Top::of(reference),
        })
    }

    pub fn top_agrees(&self) -> bool {
        self.top.id == self.reference_top.id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kl_of_a_row_with_itself_is_zero_and_grows_as_rows_part() {
        let p = [1.0f32, 2.0, 3.0, f32::NEG_INFINITY];
        assert_eq!(kl_nats(&p, &p), 0.0);
        let near = kl_nats(&p, &[1.0, 2.0, 3.1, f32::NEG_INFINITY]);
        let far = kl_nats(&p, &[3.0, 2.0, 1.0, f32::NEG_INFINITY]);
        assert!(0.0 < near && near < far, "{near} {far}");
        // By hand: p = (½, ½), q = (¼·e⁰…): two logits 0 and ln 3 → q = (¼, ¾).
        let kl = kl_nats(&[0.0, 0.0], &[0.0, 3f32.ln()]);
        let want = 0.5 * (0.5f64 / 0.25).ln() + 0.5 * (0.5f64 / 0.75).ln();
        assert!((kl - want).abs() < 1e-6, "{kl} vs {want}");
    }

    #[test]
    fn a_row_measured_against_its_reference_names_both_tops_and_the_reference_first_kl() {
        let row = [0.0f32, 3f32.ln()];
        let reference = [0.0f32, 0.0];
        let d = RowDrift::measure(&row, &reference).unwrap();
        assert_eq!(d.kl, kl_nats(&reference, &row));
        assert_eq!(d.top.id, 1);
        assert!((d.top.prob - 0.75).abs() < 1e-6, "{}", d.top.prob);
        // A tie goes to the first, as greedy decoding's argmax does.
        assert_eq!(d.reference_top, Top { id: 0, prob: 0.5 });
        assert!(!d.top_agrees());
        assert!(
            RowDrift::measure(&row, &[0.0; 3]).is_none(),
            "vocabularies differ"
        );
    }

    #[test]
    fn a_drift_crosses_json_with_every_digit_and_an_infinite_kl_too() {
        let d = RowDrift::measure(&[0.1, 0.7, -2.0], &[0.2, 0.5, -1.0]).unwrap();
        let back: RowDrift = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
        assert_eq!(back, d);
        let ruled_out = RowDrift::measure(&[0.0, f32::NEG_INFINITY], &[0.0, 0.0]).unwrap();
        assert_eq!(ruled_out.kl, f64::INFINITY);
        let json = serde_json::to_string(&ruled_out).unwrap();
        let back: RowDrift = serde_json::from_str(&json).unwrap();
        assert_eq!(back.kl, f64::INFINITY, "{json}");
    }
}
