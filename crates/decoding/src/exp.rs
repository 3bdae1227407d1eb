//! `exp` for softmax rows: the same bits on every target, and (in wasm) four
//! at a time in `simd128`. Rust's `f32::exp` is a scalar libm call in wasm
//! (~19 ns a token there, ~1 ms per softmax of a 50k vocabulary, a dozen
//! softmaxes per four-lane step in the funnel). Cephes' `expf` scheme:
//! `x = n ln 2 + r` with `n` rounded to nearest even, a degree-7 polynomial
//! for `e^r` on |r| ≤ ln2/2, times `2^n` built from bits. Only `+`, `*` and
//! bit operations, never fused, so native and wasm agree bit for bit (seeded
//! runs recorded natively must replay in the browser). Within 1 ulp of the
//! true value on the range softmax uses; below `MIN_ARG` the result is 0
//! where libm would give a subnormal (a probability under 1e-38).

const LOG2E: f32 = std::f32::consts::LOG2_E;
/// ln 2 split in two so `x - n ln2` loses no bits (Cody-Waite).
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// Below this `2^n` would leave the normal range.
const MIN_ARG: f32 = -87.33;
const MAX_ARG: f32 = 88.72;
/// 1.5 · 2^23: adding and subtracting it rounds to the nearest integer (ties
/// to even) in the default rounding mode, on every target and in SIMD lanes.
const ROUNDER: f32 = 12_582_912.0;
/// Cephes' polynomial for `e^r`, highest power first; its last coefficient,
/// written 5.0000001e-1 there, is exactly 0.5 as an f32.
const POLY: [f32; 6] = [
    1.987_569_1e-4,
    1.398_199_9e-3,
    8.333_452e-3,
    4.166_579_6e-2,
    1.666_666_5e-1,
    0.5,
];

#[inline(always)]
pub fn exp(x: f32) -> f32 {
    let xc = x.clamp(MIN_ARG, MAX_ARG);
    let n = (xc * LOG2E + ROUNDER) - ROUNDER;
    let r = (xc - n * LN2_HI) - n * LN2_LO;
    let p = POLY[1..].iter().fold(POLY[0], |p, &c| p * r + c);
    let y = (p * (r * r) + r) + 1.0;
    let scaled = y * f32::from_bits(((n as i32 + 127) as u32) << 23);
    if x < MIN_ARG {
        0.0
    } else if x > MAX_ARG {
        f32::INFINITY
    } else if x.is_nan() {
        x
    } else {
        scaled
    }
}

/// `out[i] = exp(x[i] - shift)`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub fn exp_shifted(x: &[f32], shift: f32, out: &mut [f32]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = exp(v - shift);
    }
}

/// `out[i] = exp(x[i] - shift)`, four at a time: the compiler left the scalar
/// loop scalar, so the same operations are spelled out in `simd128` (same
/// order, same bits as `exp`).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub fn exp_shifted(x: &[f32], shift: f32, out: &mut [f32]) {
    use core::arch::wasm32::*;
    let n = x.len().min(out.len());
    let quads = n / 4;
    let sh = f32x4_splat(shift);
    let (lo, hi) = (f32x4_splat(MIN_ARG), f32x4_splat(MAX_ARG));
    let c = |v: f32| f32x4_splat(v);
    for q in 0..quads {
        // SAFETY: `q * 4 + 3 < n <= len` of both slices.
        let v = f32x4_sub(
            unsafe { v128_load(x.as_ptr().add(q * 4) as *const v128) },
            sh,
        );
        // pmin/pmax are one x86 instruction each; min/max's NaN and signed-zero
        // rules cost several, and NaN is put back by the last select anyway.
        let xc = f32x4_pmin(f32x4_pmax(v, lo), hi);
        let nf = f32x4_sub(f32x4_add(f32x4_mul(xc, c(LOG2E)), c(ROUNDER)), c(ROUNDER));
        let r = f32x4_sub(
            f32x4_sub(xc, f32x4_mul(nf, c(LN2_HI))),
            f32x4_mul(nf, c(LN2_LO)),
        );
        let p = POLY[1..]
            .iter()
            .fold(c(POLY[0]), |p, &k| f32x4_add(f32x4_mul(p, r), c(k)));
        let y = f32x4_add(f32x4_add(f32x4_mul(p, f32x4_mul(r, r)), r), c(1.0));
        let pow = i32x4_shl(i32x4_add(i32x4_trunc_sat_f32x4(nf), i32x4_splat(127)), 23);
        let mut e = f32x4_mul(y, pow);
        e = v128_bitselect(c(0.0), e, f32x4_lt(v, lo));
        e = v128_bitselect(c(f32::INFINITY), e, f32x4_gt(v, hi));
        e = v128_bitselect(v, e, f32x4_ne(v, v));
        // SAFETY: as for the load: `q * 4 + 3 < n <= out.len()`.
        unsafe { v128_store(out.as_mut_ptr().add(q * 4) as *mut v128, e) };
    }
    for i in quads * 4..n {
        out[i] = exp(x[i] - shift);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulps(a: f32, b: f32) -> i64 {
        (a.to_bits() as i64 - b.to_bits() as i64).abs()
    }

    #[test]
    fn within_one_ulp_of_the_true_value_across_the_softmax_range() {
        let mut worst = 0;
        for i in 0..=2_000_000 {
            let x = -87.0 + 87.0 * i as f32 / 2_000_000.0;
            let want = (x as f64).exp() as f32;
            worst = worst.max(ulps(exp(x), want));
        }
        assert!(worst <= 1, "worst error {worst} ulp");
        for x in [0.0f32, -1e-8, 1e-8, 1.0, 10.0, 88.0] {
            assert!(ulps(exp(x), (x as f64).exp() as f32) <= 2, "exp({x})");
        }
    }

    #[test]
    fn edges_give_zero_infinity_and_nan() {
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(-100.0), 0.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp(100.0), f32::INFINITY);
        assert!(exp(f32::NAN).is_nan());
    }
}
