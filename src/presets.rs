//! The lessons as one-click comparisons, each with one sentence on what to notice.

use crate::lane_config::LaneConfig;

pub struct Preset {
    pub name: &'static str,
    pub prompt: &'static str,
    pub lanes: [&'static str; 4],
    /// One sentence: what to notice.
    pub notice: &'static str,
    /// What the lesson's own code printed for some lanes, run on
    /// [`LESSON_MODEL`] with these exact knobs.
    pub printed: &'static [Printed],
}

/// One lane's text as a lesson printed it (HF `generate`, the new tokens
/// decoded with `skip_special_tokens`).
pub struct Printed {
    pub lane: usize,
    pub text: &'static str,
}

/// The model the lessons' printed outputs came from.
pub const LESSON_MODEL: &str = "distilgpt2";
/// Where they were printed.
pub const LESSON_TITLE: &str = "Inference and Decoding";

const GREEDY_12: &str = " to learn from the experience of the programmer.\n\n\n";
/// What the lesson printed at temperature 0.1 with seed 0 (printed twice: sweep and seeds).
const COLD_SEED_0: &str = " to learn from the experience of programming.\n\n\n\n";

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "Four runs, one prompt",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"max_new_tokens": 40}"#,
            r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "max_new_tokens": 40, "seed": 0}"#,
            r#"{"do_sample": true, "temperature": 1.5, "max_new_tokens": 40, "seed": 0}"#,
            r#"{"no_repeat_ngram_size": 3, "max_new_tokens": 40}"#,
        ],
        notice: "Greedy repeats itself; temperature 0.7 with top-p stays fluent but varies; \
            1.5 falls apart; banning repeated 3-grams breaks greedy's loop.",
        printed: &[],
    },
    Preset {
        name: "Temperature sweep",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"do_sample": true, "temperature": 0.1, "top_k": 0, "max_new_tokens": 12, "seed": 0}"#,
            r#"{"do_sample": true, "temperature": 1.0, "top_k": 0, "max_new_tokens": 12, "seed": 0}"#,
            r#"{"do_sample": true, "temperature": 2.0, "top_k": 0, "max_new_tokens": 12, "seed": 0}"#,
            r#"{"max_new_tokens": 12}"#,
        ],
        notice: "Temperature 0.1 reads almost like greedy (compare lane 4); 2.0 flattens the \
            distribution until the text stops being English — watch the entropy in each step's \
            funnel.",
        printed: &[
            Printed {
                lane: 0,
                text: COLD_SEED_0,
            },
            Printed {
                lane: 1,
                text: " to study seven different basic languages spoken in \"tree\" (",
            },
            Printed {
                lane: 2,
                text:
                    " along gritty pilot Definitionave Girls PROGRAM is \"tree shaping bipartisan",
            },
            Printed {
                lane: 3,
                text: GREEDY_12,
            },
        ],
    },
    Preset {
        name: "Top-k vs top-p",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"do_sample": true, "top_k": 5, "max_new_tokens": 12, "seed": 0}"#,
            r#"{"do_sample": true, "top_k": 50, "max_new_tokens": 12, "seed": 0}"#,
            r#"{"do_sample": true, "top_k": 0, "top_p": 0.9, "max_new_tokens": 12, "seed": 0}"#,
            r#"{"max_new_tokens": 12}"#,
        ],
        notice: "top-k keeps a fixed number of candidates whatever the model's confidence; \
            top-p keeps as many as it takes to reach 90% — few when the model is sure, many \
            when it is not (see 'kept' in each table).",
        printed: &[
            Printed {
                lane: 0,
                text: " to read the code of the program you are programming with.",
            },
            Printed {
                lane: 1,
                text: " to study it with our students and teach them the basics,",
            },
            Printed {
                lane: 2,
                text: " to study it with basic materials and is \"why\" (",
            },
            Printed {
                lane: 3,
                text: GREEDY_12,
            },
        ],
    },
    Preset {
        name: "Repetition: penalty and stop",
        prompt: "The history of computers is",
        lanes: [
            r#"{"max_new_tokens": 40}"#,
            r#"{"repetition_penalty": 1.3, "max_new_tokens": 40}"#,
            r#"{"repetition_penalty": 1.8, "max_new_tokens": 30}"#,
            r#"{"repetition_penalty": 1.3, "eos_token_id": 13, "max_new_tokens": 40}"#,
        ],
        notice: "Greedy walks into a loop; a repetition penalty lowers every token already in \
            the text, the prompt's included — HF divides a positive logit by it and multiplies \
            a negative one, so 1.3 is a nudge and 1.8 a shove; making '.' (id 13) the eos token \
            ends the answer at the first full stop.",
        printed: &[
            Printed {
                lane: 0,
                text:
                    " a fascinating one. It is a fascinating one. It is a fascinating one. It is a \
                    fascinating one. It is a fascinating one. It is a fascinating one. It is a \
                    fascinating one.",
            },
            Printed {
                lane: 1,
                text:
                    " a fascinating one. It's not just about the speed and complexity, it's also \
                    how much time we spend on our computer every day in order to make sure that \
                    everything works out for us all.\"",
            },
            Printed {
                lane: 2,
                text:
                    " a fascinating one. It's not just about the speed and complexity, it also has \
                    its own unique characteristics that make computing interesting to people who \
                    are interested",
            },
            Printed {
                lane: 3,
                text: " a fascinating one.",
            },
        ],
    },
    Preset {
        name: "The do_sample pitfall",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"temperature": 0.7, "top_p": 0.9, "max_new_tokens": 30}"#,
            r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "max_new_tokens": 30, "seed": 0}"#,
            r#"{"max_new_tokens": 30}"#,
            r#"{"do_sample": true, "max_new_tokens": 30, "seed": 0}"#,
        ],
        notice: "Lanes 1 and 3 write the same text: without do_sample, HF decodes greedily and \
            temperature and top_p do nothing (lane 1's warnings say so); lane 2 samples with \
            them; lane 4 samples with HF's defaults alone — top_k 50 included.",
        printed: &[],
    },
    Preset {
        name: "The context window",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"no_repeat_ngram_size": 3, "max_new_tokens": 300, "eos_token_id": []}"#,
            r#"{"do_sample": true, "temperature": 0.8, "max_new_tokens": 300, "eos_token_id": [], "seed": 0}"#,
            r#"{"max_length": 64, "eos_token_id": []}"#,
            r#"{"max_new_tokens": 64, "eos_token_id": []}"#,
        ],
        notice: "The bundled model sees 256 positions: lanes 1 and 2 ask for 300 new tokens and \
            stop with context_full once the prompt and their text fill all 256 — HF stops there, \
            where the lesson's loop crops the oldest tokens to block_size and goes on. Lane 3's \
            max_length 64 counts the prompt's tokens; lane 4's max_new_tokens 64 does not.",
        printed: &[],
    },
    Preset {
        name: "Greedy = top-k 1",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"max_new_tokens": 12}"#,
            r#"{"do_sample": true, "top_k": 1, "max_new_tokens": 12, "seed": 0}"#,
            r#"{"do_sample": true, "top_k": 1, "max_new_tokens": 12, "seed": 1}"#,
            r#"{"do_sample": true, "top_k": 2, "max_new_tokens": 12, "seed": 0}"#,
        ],
        notice: "Sampling from one candidate is greedy, whatever the seed; allow two \
            candidates and the randomness is back.",
        printed: &[
            Printed {
                lane: 0,
                text: GREEDY_12,
            },
            Printed {
                lane: 1,
                text: GREEDY_12,
            },
        ],
    },
    Preset {
        name: "Seeds at low temperature",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"do_sample": true, "temperature": 0.1, "top_k": 0, "max_new_tokens": 12, "seed": 0}"#,
            r#"{"do_sample": true, "temperature": 0.1, "top_k": 0, "max_new_tokens": 12, "seed": 1}"#,
            r#"{"do_sample": true, "temperature": 0.1, "top_k": 0, "max_new_tokens": 12, "seed": 2}"#,
            r#"{"max_new_tokens": 12}"#,
        ],
        notice: "At temperature 0.1 different seeds mostly agree with greedy, and split only \
            where the model is torn between two tokens.",
        printed: &[
            Printed {
                lane: 0,
                text: COLD_SEED_0,
            },
            Printed {
                lane: 1,
                text: GREEDY_12,
            },
            Printed {
                lane: 2,
                text: " to learn from the people who teach you.\n\n\n",
            },
            Printed {
                lane: 3,
                text: GREEDY_12,
            },
        ],
    },
    Preset {
        name: "Beam search vs greedy",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"max_new_tokens": 20}"#,
            r#"{"num_beams": 4, "max_new_tokens": 20}"#,
            r#"{"num_beams": 4, "no_repeat_ngram_size": 2, "num_return_sequences": 3, "max_new_tokens": 20}"#,
            r#"{"num_beams": 8, "length_penalty": 2.0, "early_stopping": true, "max_new_tokens": 20}"#,
        ],
        notice: "Beam search keeps several hypotheses and returns the one with the best total \
            log-probability — often blander than greedy; each step's table lists every \
            continuation it weighed.",
        printed: &[],
    },
    Preset {
        name: "Watermark: one more knob",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"do_sample": true, "top_k": 0, "max_new_tokens": 40, "seed": 0}"#,
            r#"{"do_sample": true, "top_k": 0, "max_new_tokens": 40, "seed": 0, "watermarking_config": {"bias": 2.0}}"#,
            r#"{"max_new_tokens": 40, "watermarking_config": {"bias": 4.0}}"#,
            r#"{"max_new_tokens": 40}"#,
        ],
        notice: "A watermark is one more knob on the next-token distribution: lanes 2 and 3 add \
            a bias to a 'green' quarter of the vocabulary, drawn afresh from the token before. \
            Every lane is checked with lane 2's key — marked text is mostly green (z far above \
            3), unmarked text about a quarter (z near 0); 'Score in every lane' checks a text \
            of your own.",
        printed: &[],
    },
    Preset {
        name: "Contrastive search",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"max_new_tokens": 40}"#,
            r#"{"penalty_alpha": 0.6, "top_k": 4, "max_new_tokens": 40}"#,
            r#"{"penalty_alpha": 0.3, "top_k": 6, "max_new_tokens": 40}"#,
            r#"{"do_sample": true, "top_p": 0.9, "top_k": 0, "max_new_tokens": 40, "seed": 0}"#,
        ],
        notice: "Contrastive search stays deterministic like greedy but penalises candidates \
            whose hidden state resembles what was already said, so it avoids greedy's loop \
            without sampling.",
        printed: &[],
    },
    Preset {
        name: "Same knobs, two ecosystems",
        prompt: "The best way to learn programming is",
        lanes: [
            r#"{"do_sample": true, "temperature": 0.8, "top_k": 40, "top_p": 0.95, "min_p": 0.05, "repetition_penalty": 1.1, "max_new_tokens": 30, "seed": 0}"#,
            r#"{"semantics": "llama.cpp", "temperature": 0.8, "top_k": 40, "top_p": 0.95, "min_p": 0.05, "repeat_penalty": 1.1, "n_predict": 30, "seed": 0}"#,
            r#"{"do_sample": true, "max_new_tokens": 30, "seed": 0}"#,
            r#"{"semantics": "llama.cpp", "n_predict": 30, "seed": 0}"#,
        ],
        notice: "The same numbers mean different things: HF divides by the temperature first and \
            then cuts, llama.cpp cuts with top-k, top-p and min-p first and divides the survivors \
            last — open a step and compare the two funnels' order and what each kept. Its \
            repeat_penalty sees only the last 64 tokens; its defaults (lane 4) already cut with top-k \
            40, top-p 0.95 and min-p 0.05 where HF's (lane 3) keep top-k 50 alone; and each draws \
            from its own random stream.",
        printed: &[],
    },
];

pub fn lanes(p: &Preset) -> [LaneConfig; 4] {
    p.lanes
        .map(|j| LaneConfig::from_json(j).expect("presets are valid"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_lane_validates() {
        for p in PRESETS {
            for l in lanes(p) {
                l.validate().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            }
            assert!(!p.notice.is_empty() && p.notice.ends_with('.'));
            assert!(
                !p.notice.contains("  "),
                "{}: a line break left a double space",
                p.name
            );
        }
    }
}
