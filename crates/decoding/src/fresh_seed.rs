//! A new random seed each run, as both libraries mean it: an HF lane that
//! samples without a `seed`, and a llama.cpp lane whose `seed` is -1 (its
//! default). The engine stays deterministic: whoever starts a run (the page,
//! the CLI) draws the seed from the platform's randomness and writes it into
//! the lane's config, so the run's document and a link made from it repeat
//! the run.

use crate::generate::LaneRequest;
use crate::semantics::LaneConfig;

impl LaneConfig {
    /// Whether the lane draws random numbers and names no seed of its own.
    /// A lane whose config does not validate is left to the validator.
    pub fn wants_fresh_seed(&self) -> bool {
        match self {
            LaneConfig::Transformers(c) => {
                c.seed.is_none() && c.validate().is_ok_and(|v| v.mode.is_sampling())
            }
            LaneConfig::LlamaCpp(c) => c.seed == -1 && (c.temperature > 0.0 || c.mirostat != 0),
            LaneConfig::Tutorial(c) => c.seed.is_none() && c.do_sample,
        }
    }

    /// The same lane with `seed` as its own.
    pub fn with_seed(&self, seed: u32) -> LaneConfig {
        match self {
            LaneConfig::Transformers(c) => {
                let mut c = c.clone();
                c.seed = Some(seed as u64);
                LaneConfig::Transformers(c)
            }
            LaneConfig::LlamaCpp(c) => {
                let mut c = c.clone();
                c.seed = seed as i64;
                LaneConfig::LlamaCpp(c)
            }
            LaneConfig::Tutorial(c) => {
                let mut c = c.clone();
                c.seed = Some(seed as u64);
                LaneConfig::Tutorial(c)
            }
        }
    }
}

/// Gives every lane that wants a fresh seed one from `draw` (the
/// platform's randomness, which may fail), and returns the seeds drawn,
/// lane by lane; the first failure stops it. A lane that follows given ids
/// draws nothing (its tokens are not drawn). Seeds are 32-bit: short enough
/// to read off a lane and type back, and llama.cpp's seed is a `uint32_t`
/// whose largest value means "random" again, so that one is drawn again.
pub fn draw_fresh_seeds<E>(
    lanes: &mut [LaneRequest],
    mut draw: impl FnMut() -> Result<u32, E>,
) -> Result<Vec<Option<u32>>, E> {
    let mut drawn = Vec::with_capacity(lanes.len());
    for lane in lanes {
        if lane.forced_ids.is_some() || !lane.config.wants_fresh_seed() {
            drawn.push(None);
            continue;
        }
        let seed = loop {
            match draw()? {
                u32::MAX => continue,
                seed => break seed,
            }
        };
        lane.config = lane.config.with_seed(seed);
        drawn.push(Some(seed));
    }
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::convert::Infallible;

    fn lane(v: serde_json::Value) -> LaneRequest {
        LaneRequest {
            config: LaneConfig::from_value(v).unwrap(),
            forced_ids: None,
        }
    }

    #[test]
    fn only_unseeded_lanes_that_draw_get_a_seed() {
        let mut lanes = vec![
            lane(json!({"do_sample": true})),
            lane(json!({"do_sample": true, "seed": 5})),
            lane(json!({})),
            lane(json!({"semantics": "llama.cpp"})),
            lane(json!({"semantics": "llama.cpp", "seed": 9})),
            lane(json!({"semantics": "llama.cpp", "temperature": 0.0})),
            lane(json!({"do_sample": true, "num_beams": 2})),
        ];
        let mut next = 100;
        let drawn = draw_fresh_seeds(&mut lanes, || {
            next += 1;
            Ok::<_, Infallible>(next)
        })
        .unwrap();
        assert_eq!(
            drawn,
            [Some(101), None, None, Some(102), None, None, Some(103)]
        );
        assert_eq!(lanes[0].config.transformers().unwrap().seed, Some(101));
        assert_eq!(lanes[3].config.llama_cpp().unwrap().seed, 102);
        assert_eq!(lanes[1].config.transformers().unwrap().seed, Some(5));
        assert!(
            lanes.iter().all(|l| !l.config.wants_fresh_seed()),
            "a lane seeded once runs as given next time"
        );
    }

    #[test]
    fn llama_cpps_random_seed_value_is_never_the_seed_drawn() {
        let mut lanes = vec![lane(json!({"semantics": "llama.cpp"}))];
        let mut draws = [u32::MAX, u32::MAX, 7].into_iter();
        let drawn = draw_fresh_seeds(&mut lanes, || Ok::<_, Infallible>(draws.next().unwrap()));
        assert_eq!(drawn, Ok(vec![Some(7)]));
    }

    #[test]
    fn a_lane_following_given_ids_draws_nothing() {
        let mut l = lane(json!({"do_sample": true}));
        l.forced_ids = Some(vec![1, 2]);
        let mut lanes = vec![l];
        assert_eq!(
            draw_fresh_seeds(&mut lanes, || Ok::<_, Infallible>(3)),
            Ok(vec![None])
        );
    }

    #[test]
    fn a_draw_that_fails_is_the_answer_and_no_lane_is_half_seeded_past_it() {
        let mut lanes = vec![
            lane(json!({"do_sample": true})),
            lane(json!({"do_sample": true})),
        ];
        let mut calls = 0;
        let out = draw_fresh_seeds(&mut lanes, || {
            calls += 1;
            if calls == 2 {
                Err("no randomness")
            } else {
                Ok(5)
            }
        });
        assert_eq!(out, Err("no randomness"));
        assert_eq!(lanes[1].config.transformers().unwrap().seed, None);
    }

    #[test]
    fn a_drawn_seed_is_a_seed_the_validator_takes() {
        for seed in [0, 1, u32::MAX - 1] {
            let hf = lane(json!({"do_sample": true})).config.with_seed(seed);
            assert_eq!(hf.validate().unwrap().seed, seed as u64);
            let llama = lane(json!({"semantics": "llama.cpp"}))
                .config
                .with_seed(seed);
            assert_eq!(llama.validate().unwrap().seed, seed as u64);
        }
    }
}
