//! The patched `vec_dot`s (wasm SIMD) against candle's `vec_dot_unopt`, bit for bit.
#![cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
use candle_core::quantized::k_quants::*;

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

fn check<T: GgmlType>(k: usize, rounds: u32) {
    let mut checked = 0;
    for seed in 0..rounds {
        let w = values(k, 2 * seed + 1);
        let x = values(k, 2 * seed + 2);
        let mut wq = vec![T::zeros(); k / T::BLCK_SIZE];
        T::from_float(&w, &mut wq);
        let mut xq = vec![T::VecDotType::zeros(); k / T::VecDotType::BLCK_SIZE];
        T::VecDotType::from_float(&x, &mut xq);
        let fast = T::vec_dot(k, &wq, &xq);
        let plain = T::vec_dot_unopt(k, &wq, &xq);
        assert_eq!(
            fast.to_bits(),
            plain.to_bits(),
            "{:?} k {k} seed {seed}: {fast} vs {plain}",
            T::DTYPE
        );
        checked += 1;
    }
    assert_eq!(checked, rounds);
}

#[wasm_bindgen_test::wasm_bindgen_test]
fn simd_dot_products_give_the_generic_bits() {
    for k in [64, 576, 896, 4864] {
        check::<BlockQ5_0>(k, 50);
        check::<BlockQ4_1>(k, 50);
        check::<BlockQ5_1>(k, 50);
    }
    for k in [256, 768, 1536, 4864] {
        check::<BlockQ5K>(k, 50);
    }
}
