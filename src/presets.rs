//! Ready comparisons. The default is the lesson's "four runs, one prompt".

use crate::lane_config::LaneConfig;

pub struct Preset {
    pub name: &'static str,
    pub prompt: &'static str,
    pub lanes: [&'static str; 4],
    /// One sentence: what to notice.
    pub notice: &'static str,
}

pub const FOUR_RUNS: Preset = Preset {
    name: "Four runs, one prompt",
    prompt: "The best way to learn programming is",
    lanes: [
        r#"{"max_new_tokens": 40}"#,
        r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "max_new_tokens": 40, "seed": 0}"#,
        r#"{"do_sample": true, "temperature": 1.5, "max_new_tokens": 40, "seed": 0}"#,
        r#"{"no_repeat_ngram_size": 3, "max_new_tokens": 40}"#,
    ],
    notice: "Greedy repeats itself; temperature 0.7 with top-p stays fluent but varies; 1.5 falls apart; banning repeated 3-grams breaks greedy's loop.",
};

pub fn lanes(p: &Preset) -> [LaneConfig; 4] {
    p.lanes.map(|j| LaneConfig::from_json(j).expect("presets are valid"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_lane_validates() {
        for l in lanes(&FOUR_RUNS) {
            l.validate().unwrap();
        }
    }
}
