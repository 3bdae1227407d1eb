//! What one knob's processor is: the trait every processor implements, what
//! it may read besides the scores, and the helpers they share.

use crate::knob::Stage;

/// What a processor may look at besides the scores: the whole sequence so far
/// (prompt + generated, as HF's `input_ids`) and where the prompt ends.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub ids: &'a [u32],
    pub prompt_len: usize,
    /// Classifier-free guidance: the logits of the unconditional pass (the
    /// prompt's last token, or the negative prompt, and the tokens since).
    pub unconditional: Option<&'a [f32]>,
    /// Diverse beam search: the tokens the earlier groups' beams chose at this
    /// step (HF's `current_tokens` before this group); empty otherwise.
    pub earlier_groups: &'a [u32],
    /// DoLa: the logits of the premature layer chosen for this step.
    pub premature: Option<&'a [f32]>,
}

impl<'a> Context<'a> {
    /// The sequence so far and where its prompt ends, nothing else (no
    /// guidance pass, no earlier groups, no DoLa layer).
    pub fn new(ids: &'a [u32], prompt_len: usize) -> Context<'a> {
        Context {
            ids,
            prompt_len,
            unconditional: None,
            earlier_groups: &[],
            premature: None,
        }
    }

    pub fn generated(&self) -> &[u32] {
        &self.ids[self.prompt_len.min(self.ids.len())..]
    }
}

/// One knob's processor (HF's `LogitsProcessor`): it changes the scores in
/// place, and the pipeline runs them in HF's order.
///
/// One knob on toy logits, as the lesson's five tokens: temperature 2
/// halves every score, then top-k 3 removes the last two (HF's
/// `filter_value`, `-inf`).
///
/// ```
/// use ntl_decoding::processors::{Context, LogitsProcessor, Temperature, TopK};
///
/// let mut scores = vec![2.0, 1.0, 0.1, -1.0, -2.0];
/// let ctx = Context::new(&[], 0);
/// Temperature { temperature: 2.0 }.process(&ctx, &mut scores);
/// assert_eq!(scores, [1.0, 0.5, 0.05, -0.5, -1.0]);
/// TopK { top_k: 3 }.process(&ctx, &mut scores);
/// assert_eq!(&scores[..3], &[1.0, 0.5, 0.05]);
/// assert!(scores[3..].iter().all(|s| *s == f32::NEG_INFINITY));
/// ```
pub trait LogitsProcessor: Send + Sync {
    /// The funnel stage it shows as, named for its HF knob (`top_p`, ...).
    fn stage(&self) -> Stage;
    fn process(&self, ctx: &Context, scores: &mut [f32]);
}

/// Removes entries by setting them to `-inf`, HF's `filter_value`.
pub(crate) fn remove(scores: &mut [f32], remove: impl Fn(usize, f32) -> bool) {
    for (i, s) in scores.iter_mut().enumerate() {
        if remove(i, *s) {
            *s = f32::NEG_INFINITY;
        }
    }
}

/// Indices sorted by score ascending, ties by index (a stable `torch.sort`).
pub(crate) fn argsort_ascending(values: &[f32]) -> Vec<usize> {
    argsort_ascending_subset(values, (0..values.len()).collect())
}

/// `idx` ordered by value, then index: a total order, so any subset keeps the
/// relative order it has in the full argsort.
pub(crate) fn argsort_ascending_subset(values: &[f32], mut idx: Vec<usize>) -> Vec<usize> {
    idx.sort_unstable_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
    idx
}
