//! How llama.cpp turns its `std::mt19937` into numbers, as libstdc++ (GCC,
//! the Linux builds) does: `std::uniform_real_distribution` through
//! `std::generate_canonical`, and `std::discrete_distribution`. A seed gives
//! the same stream, so the same logits give the same token.

/// `std::mt19937`, the 32-bit Mersenne Twister (torch's CPU generator draws
/// from it too), from the `rand_mt` crate.
pub use rand_mt::Mt as Mt19937;

pub trait StdDistributions {
    fn uniform_f64(&mut self) -> f64;
    fn uniform_f32(&mut self) -> f32;
    fn discrete(&mut self, weights: impl Iterator<Item = f32>) -> usize;
}

impl StdDistributions for Mt19937 {
    /// `std::uniform_real_distribution<double>(0, 1)`: two 32-bit draws,
    /// summed in `double` as `generate_canonical<double, 53>` does.
    fn uniform_f64(&mut self) -> f64 {
        let r = 4_294_967_296.0f64;
        let mut sum = self.next_u32() as f64;
        sum += self.next_u32() as f64 * r;
        let ret = sum / (r * r);
        if ret >= 1.0 {
            1.0f64.next_down()
        } else {
            ret
        }
    }

    /// `std::uniform_real_distribution<float>(0, 1)`: one 32-bit draw, made a
    /// `float` first (which rounds), as `generate_canonical<float, 24>` does.
    fn uniform_f32(&mut self) -> f32 {
        let ret = self.next_u32() as f32 / 4_294_967_296.0f32;
        if ret >= 1.0 {
            1.0f32.next_down()
        } else {
            ret
        }
    }

    /// `std::discrete_distribution<int>(probs)(rng)`: the weights normalised
    /// in `double`, their running sums (the last forced to 1), the first sum
    /// not below one uniform. Fewer than two weights draw nothing and give 0.
    fn discrete(&mut self, weights: impl Iterator<Item = f32>) -> usize {
        let w: Vec<f64> = weights.map(f64::from).collect();
        if w.len() < 2 {
            return 0;
        }
        let sum: f64 = w.iter().sum();
        let mut cumulative = Vec::with_capacity(w.len());
        let mut acc = 0.0f64;
        for x in &w {
            acc += x / sum;
            cumulative.push(acc);
        }
        *cumulative.last_mut().expect("two or more") = 1.0;
        let u = self.uniform_f64();
        cumulative.partition_point(|&c| c < u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_10000th_output_of_the_default_seed_is_the_standards_check_value() {
        // C++11 [rand.predef]: mt19937 default-constructed (seed 5489), 10000th draw.
        let mut mt = Mt19937::new(5489);
        let last = (0..10_000).map(|_| mt.next_u32()).last().unwrap();
        assert_eq!(last, 4_123_659_995);
    }

    #[test]
    fn uniforms_lie_in_the_unit_interval_and_use_two_words_for_a_double() {
        let mut a = Mt19937::new(42);
        let mut b = Mt19937::new(42);
        let u = a.uniform_f64();
        let (g1, g2) = (b.next_u32() as f64, b.next_u32() as f64);
        assert_eq!(
            u,
            (g1 + g2 * 4_294_967_296.0) / 18_446_744_073_709_551_616.0
        );
        assert!((0.0..1.0).contains(&u));
        assert_eq!(a.next_u32(), b.next_u32(), "both consumed two words");
        let f = Mt19937::new(7).uniform_f32();
        assert!((0.0..1.0).contains(&f));
    }

    #[test]
    fn a_discrete_draw_over_one_weight_takes_nothing_from_the_stream() {
        let mut a = Mt19937::new(3);
        assert_eq!(a.discrete([0.5f32].into_iter()), 0);
        assert_eq!(a.next_u32(), Mt19937::new(3).next_u32());
    }

    #[test]
    fn discrete_draws_follow_the_weights() {
        let mut mt = Mt19937::new(11);
        let mut counts = [0usize; 3];
        for _ in 0..30_000 {
            counts[mt.discrete([0.2f32, 0.5, 0.3].into_iter())] += 1;
        }
        for (c, p) in counts.iter().zip([0.2, 0.5, 0.3]) {
            assert!((*c as f64 / 30_000.0 - p).abs() < 0.01, "{counts:?}");
        }
    }
}
