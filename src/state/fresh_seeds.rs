//! Seeds drawn for the lanes that ask for a new one each run.

use crate::lanes::LANES;
use crate::said::Said;
use ntl_decoding::fresh_seed::draw_fresh_seeds;
use ntl_decoding::LaneRequest;

/// Seeds for the lanes that want one, from the platform's randomness
/// (`crypto.getRandomValues` in the browser, the OS natively).
pub fn draw_seeds(lanes: &mut [LaneRequest]) -> Result<[Option<u32>; LANES], Said> {
    let drawn =
        draw_fresh_seeds(lanes, getrandom::u32).map_err(|e| Said::NoRandomSeed(e.to_string()))?;
    Ok(std::array::from_fn(|i| drawn.get(i).copied().flatten()))
}
