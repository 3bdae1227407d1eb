//! DRY, "don't repeat yourself" (`llama_sampler_init_dry`, from koboldcpp):
//! a token that would extend a sequence already seen in the last
//! `dry_penalty_last_n` tokens, longer than `dry_allowed_length`, loses
//! `multiplier · base^(length − allowed)` from its logit. Sequence breakers
//! (newline, colon, quote, asterisk by default) cut the look-back short.

use crate::llama_cpp::cmath::CMath;
use std::collections::{HashMap, VecDeque};

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::sampler::{Sampler, SamplerName};
use crate::vocab::Vocab;

/// llama.cpp's caps on a breaker's length and on its tokenised tail.
const MAX_CHAR_LEN: usize = 40;
const MAX_SEQ_LEN: usize = 20;

/// Breakers as llama.cpp prepares them: for each token that contains a
/// breaker, or ends with its start, the tokens that must follow to complete
/// it (empty when the token holds the whole breaker).
pub type Breakers = Vec<(u32, Vec<u32>)>;

/// `get_overlapping_token_sequences` for every breaker string: scans the
/// vocabulary's bytes; `encode` tokenises a breaker's remainder.
pub fn process_breakers(
    vocab: &Vocab,
    breakers: &[String],
    encode: &dyn Fn(&str) -> Vec<u32>,
) -> Breakers {
    let mut out: Breakers = Vec::new();
    for b in breakers.iter().filter(|b| !b.is_empty()) {
        let mut s = b.as_bytes().to_vec();
        s.truncate(MAX_CHAR_LEN);
        for id in 0..vocab.len() as u32 {
            let word = vocab.bytes(id);
            if contains(word, &s) {
                out.push((id, vec![]));
                continue;
            }
            for pos in (0..word.len()).filter(|&p| word[p] == s[0]) {
                let mut i = 1;
                let mut matched = true;
                while i < s.len() && i + pos < word.len() {
                    if word[pos + i] != s[i] {
                        matched = false;
                        break;
                    }
                    i += 1;
                }
                if matched {
                    let rest = String::from_utf8_lossy(&s[i..]);
                    let mut tail = encode(&rest);
                    tail.truncate(MAX_SEQ_LEN);
                    if !out.iter().any(|(t, seq)| *t == id && *seq == tail) {
                        out.push((id, tail));
                    }
                }
            }
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

pub struct DrySampler {
    multiplier: f32,
    base: f32,
    allowed_length: usize,
    last_n: usize,
    breakers: HashMap<u32, Vec<Vec<u32>>>,
    last_tokens: VecDeque<u32>,
}

impl DrySampler {
    pub fn new(
        multiplier: f32,
        base: f32,
        allowed_length: usize,
        last_n: usize,
        breakers: &Breakers,
    ) -> DrySampler {
        let mut map: HashMap<u32, Vec<Vec<u32>>> = HashMap::new();
        for (head, tail) in breakers {
            map.entry(*head).or_default().push(tail.clone());
        }
        DrySampler {
            multiplier,
            base,
            allowed_length,
            last_n,
            breakers: map,
            last_tokens: VecDeque::with_capacity(last_n),
        }
    }

    pub fn is_disabled(multiplier: f32, base: f32, last_n: usize) -> bool {
        multiplier == 0.0 || base < 1.0 || last_n == 0
    }

    /// The `i`-th token from the end (`ring_buffer::rat`).
    fn rat(&self, i: usize) -> u32 {
        self.last_tokens[self.last_tokens.len() - 1 - i]
    }
}

impl Sampler for DrySampler {
    fn name(&self) -> SamplerName {
        SamplerName::Dry
    }

    fn accept(&mut self, token: u32) {
        if DrySampler::is_disabled(self.multiplier, self.base, self.last_n) {
            return;
        }
        if self.last_tokens.len() == self.last_n {
            self.last_tokens.pop_front();
        }
        self.last_tokens.push_back(token);
    }

    fn apply(&mut self, cur: &mut Candidates) {
        if DrySampler::is_disabled(self.multiplier, self.base, self.last_n) {
            return;
        }
        let n = self.last_tokens.len().min(self.last_n);
        if n <= self.allowed_length {
            return;
        }
        // Step 1: the nearest breaker limits how far back a repeat may reach.
        let mut rep_limit = n;
        for i in 0..n {
            let Some(tails) = self.breakers.get(&self.rat(i)) else {
                continue;
            };
            let mut longest: Option<usize> = None;
            for tail in tails {
                let len = tail.len();
                if longest.is_none_or(|l| len > l)
                    && len <= i
                    && (0..len).all(|o| tail[o] == self.rat(i - o - 1))
                {
                    longest = Some(len);
                }
            }
            if let Some(len) = longest {
                rep_limit = i - len;
                break;
            }
        }
        if rep_limit < self.allowed_length {
            return;
        }
        // Step 2: the reverse Z-algorithm — for each position, how long a
        // suffix of the context also ends there (capped at `rep_limit`).
        let last = n - 1;
        let mut repeat = vec![0usize; n];
        let (mut lt, mut rt) = (0usize, 0usize);
        for k in 1..n {
            if k > rt {
                let mut m = 0;
                while m + k < n && self.rat(m) == self.rat(m + k) {
                    m += 1;
                }
                repeat[last - k] = m.min(rep_limit);
                if m > 0 {
                    lt = k;
                    rt = k + m - 1;
                }
            } else {
                let p = k - lt;
                let right_part_len = rt - k + 1;
                if repeat[last - p] < right_part_len {
                    repeat[last - k] = repeat[last - p].min(rep_limit);
                } else {
                    let mut i = rt + 1;
                    while i < n && self.rat(i) == self.rat(i - k) {
                        i += 1;
                    }
                    repeat[last - k] = (i - k).min(rep_limit);
                    lt = k;
                    rt = i - 1;
                }
            }
        }
        // Step 3: the token after each repeat would extend it.
        let mut max_repeat: HashMap<u32, usize> = HashMap::new();
        for (i, &len) in repeat.iter().enumerate().take(n - 1) {
            if len >= self.allowed_length {
                let token = self.rat(n - 2 - i);
                let e = max_repeat.entry(token).or_insert(len);
                *e = (*e).max(len);
            }
        }
        // Step 4: the penalty, its exponent capped so it stays a float.
        const FLOAT_MAX_LOG: f32 = 88.722_84;
        let max_exponent = if self.base > 1.000_001 {
            (FLOAT_MAX_LOG / self.base.c_ln()) as i32
        } else {
            0
        };
        for d in &mut cur.data {
            let Some(&len) = max_repeat.get(&d.id) else {
                continue;
            };
            let single_breaker = self
                .breakers
                .get(&d.id)
                .is_some_and(|tails| tails.iter().any(Vec::is_empty));
            if single_breaker {
                continue;
            }
            let mut exp = len as i32 - self.allowed_length as i32;
            if max_exponent > 0 && exp > max_exponent {
                exp = max_exponent;
            }
            // `multiplier * std::pow(base, exp)`: promoted to double, stored as float.
            let penalty = (self.multiplier as f64 * (self.base as f64).powf(exp as f64)) as f32;
            d.logit -= penalty;
        }
        cur.sorted = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dry(context: &[u32]) -> DrySampler {
        let mut d = DrySampler::new(1.0, 2.0, 2, 64, &vec![(9, vec![])]);
        for &t in context {
            d.accept(t);
        }
        d
    }

    #[test]
    fn the_token_that_would_extend_a_repeat_loses_multiplier_times_base_to_the_excess() {
        // a b c x a b c: "a b c" repeats; next "x" would make it 4 long.
        let mut d = dry(&[1, 2, 3, 4, 1, 2, 3]);
        let mut c = Candidates::from_logits(&[0.0; 6]);
        d.apply(&mut c);
        assert_eq!(c.data[4].logit, -2.0, "length 3, allowed 2: 1 * 2^1");
        assert!(c.data.iter().filter(|x| x.id != 4).all(|x| x.logit == 0.0));
    }

    #[test]
    fn a_breaker_inside_the_repeat_cuts_it_short() {
        // a b 9 c a b 9 c: the breaker 9 limits the look-back to "c".
        let mut d = dry(&[1, 2, 9, 3, 1, 2, 9, 3]);
        let mut c = Candidates::from_logits(&[0.0; 10]);
        d.apply(&mut c);
        assert!(c.data.iter().all(|x| x.logit == 0.0), "{:?}", c.data);
    }
}
