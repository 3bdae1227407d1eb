//! The small-batch kernel with weights as checkpoints store them: F16 and
//! BF16 weights widened as they are read give exactly the sums of their f32
//! widening, for every row count and shape the kernel has. Natively this
//! checks the portable path; in wasm (`scripts/test.sh`) the SIMD one.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use half::{bf16, f16};
use ntl_engine::skinny_matmul::{matmul_nt, FiniteF16, Weight, SUM_BLOCK};

/// Every 16-bit pattern but NaNs (whose payloads may differ; any NaN weight
/// makes a NaN sum either way), as values.
fn all_non_nan<W: Weight>(from_bits: fn(u16) -> W) -> Vec<W> {
    (0..=u16::MAX)
        .map(from_bits)
        .filter(|w| !w.to_f32().is_nan())
        .collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Each 16-bit value alone in a column, times one: the kernel's widening of
/// it, read back through the sum (1 × w + 0s is exact).
fn widening_matches_half<W: Weight>(from_bits: fn(u16) -> W) {
    let values = all_non_nan(from_bits);
    let k = 4;
    let mut w = Vec::with_capacity(values.len() * k);
    for &v in &values {
        w.push(v);
        w.extend([from_bits(0); 3]);
    }
    let got = matmul_nt(&[1.0, 0.0, 0.0, 0.0], 1, &w, k);
    for (v, g) in values.iter().zip(&got) {
        let want = v.to_f32();
        // 1 × w + 0 gives w, and -0 + 0 gives +0.
        let want = if want == 0.0 { 0.0 } else { want };
        assert_eq!(g.to_bits(), want.to_bits(), "{want:e}");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_f16_value_is_widened_exactly() {
    widening_matches_half(f16::from_bits);
}

/// The finite halves through the widening that skips the check for
/// infinities and NaNs (a matrix without any).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_finite_f16_value_is_widened_exactly_without_the_check() {
    fn finite(bits: u16) -> FiniteF16 {
        FiniteF16::new(f16::from_bits(bits)).unwrap_or_default()
    }
    widening_matches_half(finite);
    assert!(FiniteF16::new(f16::INFINITY).is_none() && FiniteF16::new(f16::NAN).is_none());
    assert!(FiniteF16::all(vec![f16::ONE, f16::NEG_INFINITY]).is_err());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_bf16_value_is_widened_exactly() {
    widening_matches_half(bf16::from_bits);
}

fn same_sums_as_f32<W: Weight>(from_f32: fn(f32) -> W) {
    // Columns short of a panel, one panel and a tail, several panels.
    for (k, n) in [(8, 9), (13, 7), (768, 37), (1030, 11), (5, 70)] {
        let w16: Vec<W> = (0..n * k)
            .map(|i| from_f32(((i * 37 % 101) as f32 - 50.0) / 7.0 * 1e-3))
            .collect();
        let w32: Vec<f32> = w16.iter().map(|w| w.to_f32()).collect();
        for rows in [1, 2, 3, 4, 5, 8] {
            let x: Vec<f32> = (0..rows * k)
                .map(|i| ((i * 13 % 17) as f32 - 8.0) / 5.0)
                .collect();
            assert_eq!(
                bits(&matmul_nt(&x, rows, &w16, k)),
                bits(&matmul_nt(&x, rows, &w32, k)),
                "k {k} n {n} rows {rows}"
            );
        }
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn f16_weights_give_the_sums_of_their_f32_widening() {
    same_sums_as_f32(f16::from_f32);
    same_sums_as_f32(|x| FiniteF16::new(f16::from_f32(x)).expect("finite"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn bf16_weights_give_the_sums_of_their_f32_widening() {
    same_sums_as_f32(bf16::from_f32);
}

/// The order the kernel adds in, written out: each block of `SUM_BLOCK`
/// inputs from zero, each product in turn, unfused; then the blocks' sums in
/// turn, from zero.
fn sum_in_kernel_order(x: &[f32], w: &[f32]) -> f32 {
    let mut s = 0f32;
    for (xs, ws) in x.chunks(SUM_BLOCK).zip(w.chunks(SUM_BLOCK)) {
        let mut b = 0f32;
        for (xi, wi) in xs.iter().zip(ws) {
            b += xi * wi;
        }
        s += b;
    }
    s
}

/// Every row count and shape adds in the documented order, bit for bit: the
/// SIMD build and the portable path agree (a seeded run recorded natively
/// replays in the browser), and a lane's logits have the same bits whether
/// it runs alone or beside three others.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn sums_follow_the_documented_order_bit_for_bit() {
    for (k, n) in [
        (7, 5),
        (8, 9),
        (13, 7),
        (20, 3),
        (768, 37),
        (1030, 11),
        (9, 70),
    ] {
        // Values of mixed sign and size, so another order gives other bits.
        let w: Vec<f32> = (0..n * k)
            .map(|i| ((i * 7919 % 1009) as f32 - 504.0) * 1.37e-3)
            .collect();
        // Past four rows too: chunks of four over each group of panels.
        for rows in [1, 2, 3, 4, 5, 7, 8, 19] {
            let x: Vec<f32> = (0..rows * k)
                .map(|i| ((i * 104_729 % 997) as f32 - 498.0) * 3.1e-2)
                .collect();
            let got = matmul_nt(&x, rows, &w, k);
            for r in 0..rows {
                for c in 0..n {
                    let want = sum_in_kernel_order(&x[r * k..(r + 1) * k], &w[c * k..(c + 1) * k]);
                    assert_eq!(
                        got[r * n + c].to_bits(),
                        want.to_bits(),
                        "k {k} rows {rows}: row {r} column {c}"
                    );
                }
            }
        }
    }
}

/// Inputs and weights of every sign and size, with blocks of zeros and of one
/// value (scales of 0, rounding ties) among them.
fn values(len: usize, seed: u32) -> Vec<f32> {
    let mut s = seed;
    (0..len)
        .map(|i| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            match (i / 32) % 7 {
                0 => 0.0,
                1 => 0.5,
                _ => ((s >> 8) as f32 / (1u32 << 24) as f32 - 0.5) * (1 + i % 5) as f32,
            }
        })
        .collect()
}

/// An own quantized kernel: `(weights, n, k, x, rows)` → `rows × n`.
type Kernel = fn(&[u8], usize, usize, &[f32], usize) -> Vec<f32>;

/// An own kernel's products beside candle's `QMatMul` on the same blocks,
/// over the widths the page's models have and one to five input rows:
/// `check(got, want, case)` for each. `seeds`: the weights' values and the
/// inputs' (plus the row count).
fn beside_candle(
    dtype: candle_core::quantized::GgmlDType,
    (seed, x_seed): (u32, u32),
    kernel: Kernel,
    check: impl Fn(&[f32], &[f32], &str),
) {
    use candle_core::quantized::GgmlDType;
    use candle_core::quantized::QTensor;
    use candle_core::{Device, Tensor};
    // K-quant blocks are 256 wide: GPT-2's 768, Llama's 1536, Qwen2.5's 4864.
    let shapes: &[(usize, usize)] = match dtype {
        GgmlDType::Q4K | GgmlDType::Q5K | GgmlDType::Q6K => {
            &[(1, 256), (7, 512), (37, 768), (9, 4864)]
        }
        _ => &[(1, 32), (7, 64), (96, 576), (37, 896)],
    };
    for &(n, k) in shapes {
        let w = Tensor::from_vec(values(n * k, seed), (n, k), &Device::Cpu).unwrap();
        let q = QTensor::quantize(&w, dtype).unwrap();
        let bytes = q.data().unwrap().into_owned();
        let q = std::sync::Arc::new(q);
        for rows in 1..=5 {
            let x = values(rows * k, x_seed + rows as u32);
            let got = kernel(&bytes, n, k, &x, rows);
            let want = candle_s_product(&q, x, rows, k);
            check(&got, &want, &format!("{n}×{k}, {rows} rows"));
        }
    }
}

/// `x` (`rows × k`) times the quantized matrix `q` by candle's `QMatMul`.
fn candle_s_product(
    q: &std::sync::Arc<candle_core::quantized::QTensor>,
    x: Vec<f32>,
    rows: usize,
    k: usize,
) -> Vec<f32> {
    use candle_core::quantized::QMatMul;
    use candle_core::{Device, Module, Tensor};
    let xt = Tensor::from_vec(x, (rows, k), &Device::Cpu).unwrap();
    QMatMul::QTensor(q.clone())
        .forward(&xt)
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap()
}

/// The check for a kernel that adds in candle's wasm order: in wasm the same
/// bits; natively (candle's AVX kernel adds in another order) the same values
/// within `tolerance`, relative.
fn candle_s_bits_in_wasm(tolerance: f32) -> impl Fn(&[f32], &[f32], &str) {
    move |got, want, case| {
        if cfg!(target_arch = "wasm32") {
            assert_eq!(bits(got), bits(want), "{case}");
        } else {
            for (a, b) in got.iter().zip(want) {
                assert!(
                    (a - b).abs() <= tolerance * (1.0 + b.abs()),
                    "{case}: {a} vs {b}"
                );
            }
        }
    }
}

/// In wasm the Q8_0 kernel adds candle's lanes in candle's order: the same
/// bits. Natively candle's AVX kernel adds in another order: the same
/// values to rounding.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_q8_0_kernel_gives_candle_s_q8_0_products() {
    use candle_core::quantized::GgmlDType;
    use ntl_engine::q8_0_kernel;
    beside_candle(
        GgmlDType::Q8_0,
        (5, 13),
        q8_0_kernel::matmul,
        candle_s_bits_in_wasm(1e-5),
    );
}

/// An input value half way between two steps of its block rounds away from
/// zero, as candle rounds it: a unit matrix picks each rounded input out
/// alone (one product per output, so any kernel's order gives the same bits).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn inputs_half_way_between_steps_round_as_candle_s() {
    use candle_core::quantized::{GgmlDType, QTensor};
    use candle_core::{Device, Tensor};
    use ntl_engine::{q4_0_kernel, q5_0_kernel, q5_1_kernel, q8_0_kernel};
    let k = 96;
    let mut x = vec![0f32; k];
    // Block 0's step is 1 (largest 127), block 1's 0.5 (largest 63.5),
    // block 2's 2 (largest 254).
    let halves = [0.5, 1.5, 2.5, 126.5, 0.499_999_97, 3.500_000_2, 7.0, 0.0];
    for (i, h) in halves.iter().enumerate() {
        x[1 + 2 * i] = *h;
        x[2 + 2 * i] = -h;
        x[33 + 2 * i] = h / 2.0;
        x[34 + 2 * i] = -h / 2.0;
        x[65 + 2 * i] = h * 2.0;
        x[66 + 2 * i] = -h * 2.0;
    }
    x[0] = 127.0;
    x[32] = -63.5;
    x[64] = 254.0;
    x[95] = f32::from_bits(1); // a subnormal beside the block's largest
    let unit: Vec<f32> = (0..k * k).map(|i| f32::from(i % (k + 1) == 0)).collect();
    let kernels: [(GgmlDType, Kernel); 5] = [
        (GgmlDType::Q8_0, q8_0_kernel::matmul),
        (GgmlDType::Q4_0, q4_0_kernel::matmul),
        (GgmlDType::Q5_0, q5_0_kernel::matmul),
        (GgmlDType::Q4_1, q5_1_kernel::matmul_q4_1),
        (GgmlDType::Q5_1, q5_1_kernel::matmul_q5_1),
    ];
    for (dtype, kernel) in kernels {
        let w = Tensor::from_vec(unit.clone(), (k, k), &Device::Cpu).unwrap();
        let q = QTensor::quantize(&w, dtype).unwrap();
        let bytes = q.data().unwrap().into_owned();
        let q = std::sync::Arc::new(q);
        for rows in [1, 2] {
            let xs: Vec<f32> = x.iter().cycle().take(rows * k).copied().collect();
            let got = kernel(&bytes, k, k, &xs, rows);
            let want = candle_s_product(&q, xs, rows, k);
            assert_eq!(bits(&got), bits(&want), "{dtype:?}, {rows} rows");
        }
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_q5_0_kernel_gives_candle_s_q5_0_products_bit_for_bit() {
    use candle_core::quantized::GgmlDType;
    use ntl_engine::q5_0_kernel;
    beside_candle(
        GgmlDType::Q5_0,
        (7, 11),
        q5_0_kernel::matmul,
        |got, want, case| assert_eq!(bits(got), bits(want), "{case}"),
    );
}

/// The Q4_0 kernel unpacks nibbles as candle's wasm kernel does and adds its
/// lanes in candle's order: the same bits in wasm, the same values to
/// rounding natively (where candle's AVX kernel adds in another order).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_q4_0_kernel_gives_candle_s_q4_0_products() {
    use candle_core::quantized::GgmlDType;
    use ntl_engine::q4_0_kernel;
    beside_candle(
        GgmlDType::Q4_0,
        (3, 17),
        q4_0_kernel::matmul,
        candle_s_bits_in_wasm(1e-5),
    );
}

/// The Q4_K kernel quantizes inputs to Q8_K as candle does and makes
/// candle's integer sums and float steps lane for lane: the same bits in
/// wasm, the same values to rounding natively.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_q4_k_kernel_gives_candle_s_q4_k_products() {
    use candle_core::quantized::GgmlDType;
    use ntl_engine::q4_k_kernel;
    beside_candle(
        GgmlDType::Q4K,
        (9, 23),
        q4_k_kernel::matmul,
        candle_s_bits_in_wasm(1e-4),
    );
}

/// candle's Q4_1 and Q5_1 dot products are scalar on every target: the
/// kernel's Q8_1 inputs, integer sums and float steps are theirs, the same
/// bits natively and in wasm.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_q4_1_and_q5_1_kernels_give_candle_s_products_bit_for_bit() {
    use candle_core::quantized::GgmlDType;
    use ntl_engine::q5_1_kernel;
    let same = |got: &[f32], want: &[f32], case: &str| assert_eq!(bits(got), bits(want), "{case}");
    beside_candle(GgmlDType::Q4_1, (19, 29), q5_1_kernel::matmul_q4_1, same);
    beside_candle(GgmlDType::Q5_1, (31, 37), q5_1_kernel::matmul_q5_1, same);
}

/// The Q5_K kernel makes candle's eight integer lanes and float steps: the
/// same bits in wasm (where candle's is scalar), the same values to
/// rounding natively (where candle's AVX kernel adds in another order).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_q5_k_kernel_gives_candle_s_q5_k_products() {
    use candle_core::quantized::GgmlDType;
    use ntl_engine::q5_k_kernel;
    beside_candle(
        GgmlDType::Q5K,
        (41, 43),
        q5_k_kernel::matmul,
        candle_s_bits_in_wasm(1e-4),
    );
}
