//! llama.cpp's `llama_token_data_array`: the candidates a sampler chain works
//! on. Unlike HF's vocabulary-sized score row, samplers shrink it, reorder it
//! (sorted by logit, or by typicality) and keep a probability per entry; the
//! order matters, because `dist` walks it to pick a token.

use super::cmath::CMath;

/// One candidate: `llama_token_data`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenData {
    pub id: u32,
    pub logit: f32,
    pub p: f32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Candidates {
    pub data: Vec<TokenData>,
    /// The entries are in descending logit order.
    pub sorted: bool,
    /// The entry a picking sampler chose.
    pub selected: Option<usize>,
}

impl Candidates {
    /// The whole vocabulary in id order, as `common_sampler` fills it.
    pub fn from_logits(logits: &[f32]) -> Candidates {
        Candidates {
            data: logits
                .iter()
                .enumerate()
                .map(|(id, &logit)| TokenData {
                    id: id as u32,
                    logit,
                    p: 0.0,
                })
                .collect(),
            sorted: false,
            selected: None,
        }
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// `llama_token_data_array_partial_sort_inplace`: keeps the `k` highest
    /// logits, in descending order. Ties keep their current order (libstdc++'s
    /// partial sort does not promise one; exact ties are rare in real logits).
    pub fn sort_truncate(&mut self, k: usize) {
        self.data.sort_by(|a, b| {
            b.logit
                .partial_cmp(&a.logit)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        self.data.truncate(k);
        self.sorted = true;
    }

    /// `llama_sampler_softmax_impl`: fills `p` (in `float`, as llama.cpp
    /// does), sorting first when asked and not yet sorted.
    pub fn softmax(&mut self, sort: bool) {
        if self.data.is_empty() {
            return;
        }
        if sort && !self.sorted {
            let n = self.data.len();
            self.sort_truncate(n);
        }
        let max = if self.sorted {
            self.data[0].logit
        } else {
            self.data
                .iter()
                .map(|d| d.logit)
                .fold(self.data[0].logit, f32::max)
        };
        let mut sum = 0.0f32;
        for d in &mut self.data {
            d.p = (d.logit - max).c_exp();
            sum += d.p;
        }
        for d in &mut self.data {
            d.p /= sum;
        }
    }

    /// `llama_sampler_top_k_impl`.
    pub fn top_k(&mut self, k: i32) {
        if k <= 0 {
            return;
        }
        let k = (k as usize).min(self.data.len());
        if !self.sorted {
            self.sort_truncate(k);
        }
        self.data.truncate(k);
    }

    /// `llama_sampler_temp_impl`: divides by the temperature; at or below
    /// zero keeps only the first highest logit (the rest become `-inf`).
    pub fn temperature(&mut self, temp: f32) {
        if self.data.is_empty() {
            return;
        }
        if temp <= 0.0 {
            let mut max_i = 0;
            let mut max_l = self.data[0].logit;
            for i in 1..self.data.len() {
                if self.data[i].logit > max_l {
                    self.data[max_i].logit = f32::NEG_INFINITY;
                    max_i = i;
                    max_l = self.data[i].logit;
                } else {
                    self.data[i].logit = f32::NEG_INFINITY;
                }
            }
            return;
        }
        for d in &mut self.data {
            d.logit /= temp;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_without_sorting_keeps_the_order_and_sums_to_one() {
        let mut c = Candidates::from_logits(&[0.0, 2.0, 1.0]);
        c.softmax(false);
        assert_eq!(c.data.iter().map(|d| d.id).collect::<Vec<_>>(), [0, 1, 2]);
        let sum: f32 = c.data.iter().map(|d| d.p).sum();
        assert!((sum - 1.0).abs() < 1e-6);
        assert!(c.data[1].p > c.data[2].p && c.data[2].p > c.data[0].p);
    }

    #[test]
    fn zero_temperature_leaves_one_finite_logit_the_first_maximum() {
        let mut c = Candidates::from_logits(&[1.0, 3.0, 3.0, 2.0]);
        c.temperature(0.0);
        let finite: Vec<u32> = c
            .data
            .iter()
            .filter(|d| d.logit.is_finite())
            .map(|d| d.id)
            .collect();
        assert_eq!(finite, [1]);
        assert_eq!(c.len(), 4, "the others stay, at -inf");
    }

    #[test]
    fn top_k_sorts_and_truncates_once() {
        let mut c = Candidates::from_logits(&[0.5, 0.1, 0.9, 0.3]);
        c.top_k(2);
        assert!(c.sorted);
        assert_eq!(c.data.iter().map(|d| d.id).collect::<Vec<_>>(), [2, 0]);
        c.top_k(0);
        assert_eq!(c.len(), 2, "k <= 0 does nothing");
    }
}
