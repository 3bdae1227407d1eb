//! Numeric helpers on one row of scores, computed the way torch does in f32.

/// `softmax` of a row; `-inf` entries get probability 0. An all-`-inf` row gives all zeros.
pub fn softmax(scores: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0; scores.len()];
    softmax_into(scores, &mut out);
    out
}

pub fn softmax_into(scores: &[f32], out: &mut [f32]) {
    match softmax_parts(scores, out) {
        Some((_, sum)) => {
            let inv = (1.0 / sum) as f32;
            out.iter_mut().for_each(|p| *p *= inv);
        }
        None => out.iter_mut().for_each(|p| *p = 0.0),
    }
}

/// `out[i] = e^(s_i − max)`; returns `(max, Σ out)`, or `None` for an all-`-inf` row.
pub(crate) fn softmax_parts(scores: &[f32], out: &mut [f32]) -> Option<(f32, f64)> {
    let (max, live) = max_and_live(scores);
    if max == f32::NEG_INFINITY {
        return None;
    }
    // Sums accumulate in f64: torch's pairwise f32 reductions are that accurate,
    // a naive f32 loop over 50k terms is not.
    if live * SPARSE <= scores.len() {
        // After top-k or top-p only a few tokens are left: the others' terms
        // are exactly 0 either way, so the sum (in index order) has the same bits.
        out.fill(0.0);
        let mut sum = 0f64;
        for (o, &s) in out.iter_mut().zip(scores) {
            if s > f32::NEG_INFINITY {
                *o = crate::exp::exp(s - max);
                sum += *o as f64;
            }
        }
        return Some((max, sum));
    }
    crate::exp::exp_shifted(scores, max, out);
    Some((max, out.iter().map(|&e| e as f64).sum()))
}

/// Rows with at most 1/`SPARSE` of their tokens left take the sparse path.
const SPARSE: usize = 16;

/// The largest score and how many are above `-inf`. Eight running maxima (the
/// same result as one: `max` is exact and order-free) so the loop does not
/// wait on one chain; a compare and select rather than `f32::max`, whose
/// NaN rules cost several instructions in wasm (NaN is skipped either way).
fn max_and_live(scores: &[f32]) -> (f32, usize) {
    let mut m = [f32::NEG_INFINITY; 8];
    let mut live = [0usize; 8];
    let (chunks, rest) = scores.as_chunks::<8>();
    for c in chunks {
        for l in 0..8 {
            if c[l] > m[l] {
                m[l] = c[l];
            }
            live[l] += (c[l] > f32::NEG_INFINITY) as usize;
        }
    }
    let mut max = m
        .iter()
        .copied()
        .fold(f32::NEG_INFINITY, |a, b| if b > a { b } else { a });
    let mut count: usize = live.iter().sum();
    for &s in rest {
        if s > max {
            max = s;
        }
        count += (s > f32::NEG_INFINITY) as usize;
    }
    (max, count)
}

/// `log_softmax` of a row (torch: `x - max - log(sum(exp(x - max)))`).
pub fn log_softmax(scores: &[f32]) -> Vec<f32> {
    let lse = logsumexp(scores);
    scores.iter().map(|&s| s - lse).collect()
}

pub fn logsumexp(scores: &[f32]) -> f32 {
    let mut e = vec![0.0; scores.len()];
    match softmax_parts(scores, &mut e) {
        Some((max, sum)) => max + sum.ln() as f32,
        None => f32::NEG_INFINITY,
    }
}

/// Index of the first maximum (torch.argmax picks the first on ties).
pub fn argmax(scores: &[f32]) -> usize {
    let mut best = 0;
    for (i, &s) in scores.iter().enumerate() {
        if s > scores[best] {
            best = i;
        }
    }
    best
}

/// Indices of the `k` largest values, largest first; ties keep the lower index first.
pub fn top_indices(values: &[f32], k: usize) -> Vec<usize> {
    let k = k.min(values.len());
    if k == 0 {
        return vec![];
    }
    if k <= SMALL_TOP {
        return top_indices_small(values, k);
    }
    let mut idx: Vec<usize> = (0..values.len()).collect();
    let cmp = |a: &usize, b: &usize| values[*b].total_cmp(&values[*a]).then(a.cmp(b));
    if k < idx.len() {
        idx.select_nth_unstable_by(k - 1, cmp);
        idx.truncate(k);
    }
    idx.sort_by(cmp);
    idx
}

/// Up to this many, `top_indices` keeps a sorted list while it scans once
/// (a step table's top 20) instead of sorting an index array of the vocabulary.
const SMALL_TOP: usize = 64;

fn top_indices_small(values: &[f32], k: usize) -> Vec<usize> {
    let mut best: Vec<usize> = Vec::with_capacity(k + 1);
    let consider = |i: usize, v: f32, best: &mut Vec<usize>| {
        // Scanning in index order, an equal value never displaces an earlier one.
        if best.len() == k && v.total_cmp(&values[best[k - 1]]).is_le() {
            return;
        }
        let at = best.partition_point(|&j| values[j].total_cmp(&v).is_ge());
        best.insert(at, i);
        best.truncate(k);
    };
    // Once the list is full almost every value falls below its last: eight
    // at a time are checked against it as `total_cmp` keys (a compare the
    // compiler can vectorise) before any is looked at alone.
    let (chunks, rest) = values.as_chunks::<8>();
    for (c, chunk) in chunks.iter().enumerate() {
        if best.len() == k {
            let floor = order_key(values[best[k - 1]]);
            if chunk.iter().all(|&v| order_key(v) <= floor) {
                continue;
            }
        }
        for (l, &v) in chunk.iter().enumerate() {
            consider(c * 8 + l, v, &mut best);
        }
    }
    let tail = chunks.len() * 8;
    for (l, &v) in rest.iter().enumerate() {
        consider(tail + l, v, &mut best);
    }
    best
}

/// An integer that orders as [`f32::total_cmp`] orders floats.
#[inline(always)]
fn order_key(v: f32) -> i32 {
    let b = v.to_bits() as i32;
    b ^ (((b >> 31) as u32) >> 1) as i32
}

/// The `k`-th largest value (1-based), as `torch.topk(scores, k)[0][-1]`.
pub fn kth_largest(values: &[f32], k: usize) -> f32 {
    let k = k.clamp(1, values.len());
    if k <= SMALL_TOP {
        // top_k = 50: one scan, no copy of the vocabulary.
        return values[top_indices_small(values, k)[k - 1]];
    }
    let mut v: Vec<f32> = values.to_vec();
    let (_, kth, _) = v.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    *kth
}

/// Number of tokens of highest probability needed to reach cumulative mass `p`
/// (the lesson's `(cumsum < p).sum() + 1`, with torch's CPU cumsum: f32
/// values added in f64, each partial sum rounded to f32).
///
/// No sort of the row: one pass puts the positive probabilities' masses in
/// buckets of equal leading bits (a bucket's values are all larger than the
/// next one's), and only the bucket where a mass is crossed is sorted and
/// walked. A flat 50k-token row's nucleus holds tens of thousands of tokens,
/// so a sort cost a millisecond per lane per step in wasm. The partial sums
/// before that bucket are added in index order instead of sorted order: the
/// same value within f64 rounding, far below an f32 step.
pub fn nucleus_sizes(probs: &[f32], masses: &[f32]) -> Vec<usize> {
    let bucket = |p: f32| (p.to_bits() >> NUCLEUS_SHIFT) as usize;
    let mut mass = vec![0f64; bucket(f32::INFINITY) + 1];
    let mut count = vec![0usize; mass.len()];
    let mut live = 0;
    for &p in probs {
        if p > 0.0 {
            mass[bucket(p)] += p as f64;
            count[bucket(p)] += 1;
            live += 1;
        }
    }
    let mut sizes = vec![live.max(1); masses.len()];
    let mut order: Vec<usize> = (0..masses.len()).collect();
    order.sort_by(|&a, &b| masses[a].total_cmp(&masses[b]));
    // The buckets the masses are crossed in, by the buckets' sums; their
    // values are gathered in one more pass (a bucket found otherwise while
    // walking, by a last-bit difference of the sums, is gathered then).
    let mut crossing: Vec<(usize, Vec<f32>)> = Vec::new();
    let mut cum = 0f64;
    let mut next = order.iter().peekable();
    for b in (0..mass.len()).rev() {
        cum += mass[b];
        while next.next_if(|&&j| cum as f32 >= masses[j]).is_some() {
            if count[b] > 0 && crossing.last().is_none_or(|(c, _)| *c != b) {
                crossing.push((b, Vec::with_capacity(count[b])));
            }
        }
    }
    let gather = |wanted: &mut [(usize, Vec<f32>)]| {
        // Per bucket, 1 + its place in `wanted` (0: not wanted).
        let mut slot = vec![0u32; mass.len()];
        for (i, (b, _)) in wanted.iter().enumerate() {
            slot[*b] = i as u32 + 1;
        }
        for &p in probs {
            if p > 0.0 {
                let s = slot[bucket(p)];
                if s > 0 {
                    wanted[s as usize - 1].1.push(p);
                }
            }
        }
    };
    gather(&mut crossing);
    let mut pending = order.into_iter().peekable();
    let (mut cum, mut before) = (0f64, 0);
    for b in (0..mass.len()).rev() {
        let Some(&next) = pending.peek() else {
            break;
        };
        if count[b] == 0 {
            continue;
        }
        if ((cum + mass[b]) as f32) < masses[next] {
            cum += mass[b];
        } else {
            let mut values = match crossing.iter().position(|(c, _)| *c == b) {
                Some(at) => std::mem::take(&mut crossing[at].1),
                None => {
                    let mut one = [(b, Vec::new())];
                    gather(&mut one);
                    std::mem::take(&mut one[0].1)
                }
            };
            values.sort_unstable_by(|x, y| y.total_cmp(x));
            for (i, &v) in values.iter().enumerate() {
                cum += v as f64;
                while let Some(&j) = pending.peek() {
                    if (cum as f32) < masses[j] {
                        break;
                    }
                    sizes[j] = before + i + 1;
                    pending.next();
                }
            }
        }
        before += count[b];
    }
    sizes
}

/// Buckets of [`nucleus_sizes`]: the sign, the exponent and the mantissa's
/// top five bits, so a bucket spans at most 1/32 of its values' magnitude.
const NUCLEUS_SHIFT: u32 = 18;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::softmax_terms::softmax_entropy;

    /// Shannon entropy in nats by its definition (zero-probability terms contribute 0).
    fn entropy(probs: &[f32]) -> f32 {
        -probs
            .iter()
            .filter(|&&p| p > 0.0)
            .map(|&p| (p * p.ln()) as f64)
            .sum::<f64>() as f32
    }

    #[test]
    fn softmax_ignores_minus_infinity() {
        let p = softmax(&[0.0, f32::NEG_INFINITY, 0.0]);
        assert_eq!(p, vec![0.5, 0.0, 0.5]);
    }

    #[test]
    fn top_indices_orders_ties_by_index() {
        assert_eq!(top_indices(&[1.0, 3.0, 3.0, 2.0], 3), vec![1, 2, 3]);
    }

    #[test]
    fn small_and_large_top_lists_agree_with_a_full_sort_ties_and_infinities_included() {
        let values: Vec<f32> = (0..5000u32)
            .map(|i| match i % 11 {
                0 => f32::NEG_INFINITY,
                1 => 0.25,
                _ => (i.wrapping_mul(2654435761) % 1000) as f32 / 997.0,
            })
            .collect();
        let mut want: Vec<usize> = (0..values.len()).collect();
        want.sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
        for k in [1, 2, 20, 64, 65, 300] {
            assert_eq!(top_indices(&values, k), want[..k], "k = {k}");
        }
        assert_eq!(top_indices(&[f32::NEG_INFINITY; 3], 2), vec![0, 1]);
    }

    #[test]
    fn softmax_entropy_matches_the_definition() {
        let scores = [2.0f32, 1.0, f32::NEG_INFINITY, -3.0, 0.5];
        let (p, h) = softmax_entropy(&scores);
        assert_eq!(p, softmax(&scores));
        assert!((h - entropy(&p)).abs() < 1e-6, "{h} vs {}", entropy(&p));
        assert_eq!(softmax_entropy(&[1.0]).1, 0.0);
        assert_eq!(
            softmax_entropy(&[f32::NEG_INFINITY; 2]),
            (vec![0.0, 0.0], 0.0)
        );
    }

    #[test]
    fn a_row_with_few_tokens_left_gives_the_same_bits_as_a_full_one() {
        // 50 live tokens of 5000: the sparse path; the reference is the dense
        // computation (exp of every token, -inf ones giving 0) written out.
        let scores: Vec<f32> = (0..5000)
            .map(|i| {
                if i % 100 == 7 {
                    (i % 13) as f32 * 0.37 - 2.0
                } else {
                    f32::NEG_INFINITY
                }
            })
            .collect();
        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut dense = vec![0f32; scores.len()];
        crate::exp::exp_shifted(&scores, max, &mut dense);
        let sum: f64 = dense.iter().map(|&e| e as f64).sum();
        let mut out = vec![1f32; scores.len()];
        assert_eq!(softmax_parts(&scores, &mut out), Some((max, sum)));
        assert_eq!(
            out.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            dense.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(max_and_live(&scores), (max, 50));
        assert_eq!(max_and_live(&[1.0, f32::NEG_INFINITY, 3.0]), (3.0, 2));
    }

    #[test]
    fn nucleus_counts_the_token_that_crosses_the_mass() {
        assert_eq!(
            nucleus_sizes(&[0.6, 0.3, 0.1], &[0.5, 0.9, 0.95]),
            vec![1, 2, 3]
        );
        // Masses in any order; one never reached counts every token; an empty row counts one.
        assert_eq!(
            nucleus_sizes(&[0.1, 0.6, 0.0, 0.3], &[0.95, 0.5, 2.0]),
            vec![3, 1, 3]
        );
        assert_eq!(nucleus_sizes(&[0.0, 0.0], &[0.5]), vec![1]);
    }

    #[test]
    fn nucleus_sizes_on_a_flat_row_match_a_full_sort() {
        // 5000 nearly equal tokens: the head must grow past its first guess.
        let raw: Vec<f32> = (0..5000).map(|i| 1.0 + (i % 97) as f32 * 1e-3).collect();
        let total: f32 = raw.iter().sum();
        let probs: Vec<f32> = raw.iter().map(|r| r / total).collect();
        let mut sorted = probs.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let full = |m: f32| {
            let (mut cum, mut n) = (0.0f64, 0);
            for &p in &sorted {
                cum += p as f64;
                if (cum as f32) < m {
                    n += 1
                } else {
                    break;
                }
            }
            n + 1
        };
        assert_eq!(
            nucleus_sizes(&probs, &[0.5, 0.9, 0.95]),
            vec![full(0.5), full(0.9), full(0.95)]
        );
        assert!(full(0.9) > 1000);
    }

    #[test]
    fn nucleus_sizes_on_a_peaked_row_match_a_full_sort_for_any_mass() {
        // Magnitudes from 1e-30 to 1 (a trained model's row), zeros and ties.
        let raw: Vec<f32> = (0..20_000u32)
            .map(|i| match i % 41 {
                0 => 0.0,
                1 => 1e-4,
                _ => (-((i.wrapping_mul(2654435761) % 6_900) as f32) / 100.0).exp(),
            })
            .collect();
        let total: f64 = raw.iter().map(|&r| r as f64).sum();
        let probs: Vec<f32> = raw.iter().map(|&r| (r as f64 / total) as f32).collect();
        let mut sorted: Vec<f32> = probs.iter().copied().filter(|&p| p > 0.0).collect();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let full = |m: f32| {
            let mut cum = 0.0f64;
            for (i, &p) in sorted.iter().enumerate() {
                cum += p as f64;
                if cum as f32 >= m {
                    return i + 1;
                }
            }
            sorted.len()
        };
        let masses = [
            0.0, 0.1, 0.3, 0.5, 0.77, 0.9, 0.95, 0.999, 0.999_999, 1.0, 1.5,
        ];
        let want: Vec<usize> = masses.iter().map(|&m| full(m)).collect();
        assert_eq!(nucleus_sizes(&probs, &masses), want);
        assert!(want[6] > 10 && want[6] < sorted.len() / 2, "{want:?}");
    }

    #[test]
    fn kth_largest_matches_topk_last() {
        assert_eq!(kth_largest(&[5.0, 1.0, 4.0, 4.0], 3), 4.0);
        let row: Vec<f32> = (0..3000u32)
            .map(|i| (i.wrapping_mul(2654435761) % 500) as f32)
            .collect();
        let mut sorted = row.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        for k in [1, 50, 64, 65, 400] {
            assert_eq!(kth_largest(&row, k), sorted[k - 1], "k = {k}");
        }
    }
}
