use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// HF `SequenceBiasLogitsProcessor` (and, with `-inf` biases, its subclass
/// `NoBadWordsLogitsProcessor`): a one-token sequence's bias is always added;
/// a longer sequence's bias is added to its last token when the text ends
/// with the rest of it (prompt included), so that token would complete it.
pub struct SequenceBias {
    knob: Knob,
    /// One-token sequences: `(token, bias)`.
    single: Vec<(u32, f32)>,
    /// Longer ones grouped by prefix length, in the order HF groups them:
    /// `(prefix, last token, bias)`.
    groups: Vec<Vec<(Vec<u32>, u32, f32)>>,
}

impl SequenceBias {
    /// `entries` as given; a sequence given twice keeps its last bias and its
    /// first place (a Python dict built from the list).
    pub fn new(knob: Knob, entries: &[(Vec<u32>, f32)]) -> SequenceBias {
        let mut dict: Vec<(Vec<u32>, f32)> = Vec::with_capacity(entries.len());
        for (seq, bias) in entries {
            match dict.iter_mut().find(|(s, _)| s == seq) {
                Some(e) => e.1 = *bias,
                None => dict.push((seq.clone(), *bias)),
            }
        }
        let single = dict
            .iter()
            .filter(|(s, _)| s.len() == 1)
            .map(|(s, b)| (s[0], *b))
            .collect();
        let mut groups: Vec<Vec<(Vec<u32>, u32, f32)>> = Vec::new();
        for (seq, bias) in dict.iter().filter(|(s, _)| s.len() > 1) {
            let (last, prefix) = seq.split_last().expect("longer than one");
            let entry = (prefix.to_vec(), *last, *bias);
            match groups.iter_mut().find(|g| g[0].0.len() == prefix.len()) {
                Some(g) => g.push(entry),
                None => groups.push(vec![entry]),
            }
        }
        SequenceBias {
            knob,
            single,
            groups,
        }
    }

    /// HF's `NoBadWordsLogitsProcessor`: each sequence forbidden (bias `-inf`),
    /// except a lone eos token, which HF leaves alone.
    pub fn bad_words(words: &[Vec<u32>], eos: &[u32]) -> SequenceBias {
        let entries: Vec<(Vec<u32>, f32)> = words
            .iter()
            .filter(|w| !(w.len() == 1 && eos.contains(&w[0])))
            .map(|w| (w.clone(), f32::NEG_INFINITY))
            .collect();
        SequenceBias::new(Knob::BadWordsIds, &entries)
    }
}

impl LogitsProcessor for SequenceBias {
    fn stage(&self) -> Stage {
        Stage::Knob(self.knob)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        // The bias row HF adds, only where it is not zero: one-token biases
        // first, then each matching longer sequence added to its last token.
        let mut bias: Vec<(u32, f32)> = self.single.clone();
        for group in &self.groups {
            for (prefix, last, b) in group {
                if prefix.len() > ctx.ids.len() || !ctx.ids.ends_with(prefix) {
                    continue;
                }
                match bias.iter_mut().find(|(t, _)| t == last) {
                    Some(e) => e.1 += b,
                    None => bias.push((*last, *b)),
                }
            }
        }
        for (t, b) in bias {
            if let Some(s) = scores.get_mut(t as usize) {
                *s += b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn a_one_token_bias_always_applies_a_longer_one_only_when_it_would_complete() {
        let p = SequenceBias::new(
            Knob::SequenceBias,
            &[(vec![2], -1.0), (vec![5, 3], 4.0), (vec![9, 3], 0.5)],
        );
        assert_eq!(run(&p, &[7, 5], 1, &[0.0; 4]), [0.0, 0.0, -1.0, 4.0]);
        assert_eq!(run(&p, &[7, 6], 1, &[0.0; 4]), [0.0, 0.0, -1.0, 0.0]);
        // The prefix may lie in the prompt.
        assert_eq!(run(&p, &[5], 1, &[1.0; 4]), [1.0, 1.0, 0.0, 5.0]);
    }

    #[test]
    fn a_sequence_given_twice_keeps_its_last_bias() {
        let p = SequenceBias::new(Knob::SequenceBias, &[(vec![1], 2.0), (vec![1], -3.0)]);
        assert_eq!(run(&p, &[0], 1, &[0.0; 2]), [0.0, -3.0]);
    }

    #[test]
    fn bad_words_forbid_their_last_token_but_never_a_lone_eos() {
        let p = SequenceBias::bad_words(&[vec![3], vec![1, 2], vec![0]], &[0]);
        assert_eq!(run(&p, &[4, 1], 1, &[0.5; 5]), [0.5, 0.5, NEG, NEG, 0.5]);
        assert_eq!(run(&p, &[4, 4], 1, &[0.5; 5]), [0.5, 0.5, 0.5, NEG, 0.5]);
    }
}
