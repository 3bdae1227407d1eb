//! C's `expf`, `logf`, `log2f` and `powf` as glibc computes them: correctly
//! rounded (to within a sliver of cases no test has met). Computing in `f64`
//! and rounding once gives the same `f32` on every target; Rust's own `f32`
//! functions call the platform's libm natively but a port with up to an ulp
//! of error in wasm, and a one-ulp probability moves adaptive-p's and
//! mirostat's arithmetic visibly.

pub trait CMath {
    fn c_exp(self) -> Self;
    fn c_ln(self) -> Self;
    fn c_log2(self) -> Self;
    fn c_powf(self, y: Self) -> Self;
}

impl CMath for f32 {
    fn c_exp(self) -> f32 {
        (self as f64).exp() as f32
    }
    fn c_ln(self) -> f32 {
        (self as f64).ln() as f32
    }
    fn c_log2(self) -> f32 {
        (self as f64).log2() as f32
    }
    fn c_powf(self, y: f32) -> f32 {
        (self as f64).powf(y as f64) as f32
    }
}
