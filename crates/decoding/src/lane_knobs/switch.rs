//! A lane moved to the other ecosystem, keeping what means the same there:
//! the shared names, the budget (`max_new_tokens` and `n_predict`), stop
//! strings, the repetition penalty, and greedy as temperature 0 (llama.cpp's
//! greedy) and back. A value valid in one ecosystem can be out of range in
//! the other (a budget of -1): it is left at the default there.

use super::LaneKnobs;
use crate::config::GenerationConfig;
use crate::knob::Knob;
use crate::llama_cpp::config::LlamaCppConfig;
use crate::llama_cpp::knob::LlamaCppKnob;
use crate::mode::Mode;
use crate::semantics::Semantics;
use std::collections::BTreeSet;

type Hf = GenerationConfig;
type Llama = LlamaCppConfig;
use crate::tutorial::TutorialConfig;

/// A knob that travels, with how its value crosses over in either
/// direction (`false`: it has no value there, as an HF `null`).
struct Carried {
    hf: Knob,
    llama: LlamaCppKnob,
    across: fn(&Hf, &mut Llama) -> bool,
    back: fn(&Llama, &mut Hf) -> bool,
}

const CARRIED: &[Carried] = &[
    Carried {
        hf: Knob::Temperature,
        llama: LlamaCppKnob::Temperature,
        across: |h, l| {
            l.temperature = h.temperature;
            true
        },
        back: |l, h| {
            h.temperature = l.temperature;
            true
        },
    },
    Carried {
        hf: Knob::TopK,
        llama: LlamaCppKnob::TopK,
        // HF's `null` (no top-k) is llama.cpp's 0.
        across: |h, l| {
            l.top_k = h.top_k.unwrap_or(0);
            true
        },
        back: |l, h| {
            h.top_k = Some(l.top_k);
            true
        },
    },
    Carried {
        hf: Knob::TopP,
        llama: LlamaCppKnob::TopP,
        across: |h, l| {
            l.top_p = h.top_p;
            true
        },
        back: |l, h| {
            h.top_p = l.top_p;
            true
        },
    },
    Carried {
        hf: Knob::MinP,
        llama: LlamaCppKnob::MinP,
        across: |h, l| h.min_p.map(|p| l.min_p = p).is_some(),
        back: |l, h| {
            h.min_p = Some(l.min_p);
            true
        },
    },
    Carried {
        hf: Knob::TypicalP,
        llama: LlamaCppKnob::TypicalP,
        across: |h, l| {
            l.typical_p = h.typical_p;
            true
        },
        back: |l, h| {
            h.typical_p = l.typical_p;
            true
        },
    },
    Carried {
        hf: Knob::Seed,
        llama: LlamaCppKnob::Seed,
        across: |h, l| {
            h.seed
                .and_then(|s| i64::try_from(s).ok())
                .map(|s| l.seed = s)
                .is_some()
        },
        // llama.cpp's -1 (a random seed) has no HF form.
        back: |l, h| {
            u64::try_from(l.seed)
                .ok()
                .map(|s| h.seed = Some(s))
                .is_some()
        },
    },
    Carried {
        hf: Knob::FrequencyPenalty,
        llama: LlamaCppKnob::FrequencyPenalty,
        across: |h, l| {
            l.frequency_penalty = h.frequency_penalty;
            true
        },
        back: |l, h| {
            h.frequency_penalty = l.frequency_penalty;
            true
        },
    },
    Carried {
        hf: Knob::PresencePenalty,
        llama: LlamaCppKnob::PresencePenalty,
        across: |h, l| {
            l.presence_penalty = h.presence_penalty;
            true
        },
        back: |l, h| {
            h.presence_penalty = l.presence_penalty;
            true
        },
    },
    Carried {
        hf: Knob::MaxNewTokens,
        llama: LlamaCppKnob::NPredict,
        across: |h, l| h.max_new_tokens.map(|n| l.n_predict = n).is_some(),
        back: |l, h| {
            h.max_new_tokens = Some(l.n_predict);
            true
        },
    },
    Carried {
        hf: Knob::RepetitionPenalty,
        llama: LlamaCppKnob::RepeatPenalty,
        across: |h, l| {
            l.repeat_penalty = h.repetition_penalty;
            true
        },
        back: |l, h| {
            h.repetition_penalty = l.repeat_penalty;
            true
        },
    },
    Carried {
        hf: Knob::StopStrings,
        llama: LlamaCppKnob::Stop,
        across: |h, l| h.stop_strings.clone().map(|s| l.stop = Some(s)).is_some(),
        back: |l, h| l.stop.clone().map(|s| h.stop_strings = Some(s)).is_some(),
    },
];

impl LaneKnobs {
    /// Moves the lane to the other ecosystem (nothing when it is there).
    pub fn set_semantics(&mut self, to: Semantics) {
        *self = match (&*self, to) {
            (LaneKnobs::Transformers { config, set }, Semantics::LlamaCpp) => {
                to_llama_cpp(config, set)
            }
            (LaneKnobs::LlamaCpp { config, set }, Semantics::Transformers) => {
                to_transformers(config, set)
            }
            (LaneKnobs::Transformers { config, set }, Semantics::Tutorial) => {
                to_tutorial(config, set)
            }
            (LaneKnobs::Tutorial { config, set }, Semantics::Transformers) => {
                from_tutorial(config, set)
            }
            // Between llama.cpp and the tutorial: by way of HF's names.
            (LaneKnobs::LlamaCpp { .. }, Semantics::Tutorial)
            | (LaneKnobs::Tutorial { .. }, Semantics::LlamaCpp) => {
                let mut via = self.clone();
                via.set_semantics(Semantics::Transformers);
                via.set_semantics(to);
                via
            }
            _ => return,
        }
    }
}

/// The tutorial's `generate()` arguments HF also has, carried as they are.
fn to_tutorial(h: &Hf, given: &BTreeSet<Knob>) -> LaneKnobs {
    let mut config = TutorialConfig {
        do_sample: h.mode() == Mode::Sample,
        ..TutorialConfig::default()
    };
    let mut set = BTreeSet::from(["do_sample"]);
    let mut carry = |knob: Knob, name: &'static str, apply: &dyn Fn(&mut TutorialConfig)| {
        if given.contains(&knob) {
            let mut probe = config.clone();
            apply(&mut probe);
            if probe.validate().is_ok() {
                config = probe;
                set.insert(name);
            }
        }
    };
    carry(Knob::Temperature, "temperature", &|c| {
        c.temperature = h.temperature
    });
    carry(Knob::TopK, "top_k", &|c| c.top_k = h.top_k);
    carry(Knob::TopP, "top_p", &|c| c.top_p = Some(h.top_p));
    carry(Knob::MaxNewTokens, "max_new_tokens", &|c| {
        c.max_new_tokens = h.max_new_tokens.unwrap_or(20)
    });
    carry(Knob::Seed, "seed", &|c| c.seed = h.seed);
    LaneKnobs::Tutorial { config, set }
}

fn from_tutorial(t: &TutorialConfig, given: &BTreeSet<&'static str>) -> LaneKnobs {
    let mut config = Hf {
        do_sample: t.do_sample,
        ..Hf::default()
    };
    let mut set = BTreeSet::new();
    if t.do_sample {
        set.insert(Knob::DoSample);
    }
    let mut carry = |name: &str, knob: Knob, apply: &dyn Fn(&mut Hf)| {
        if given.contains(name) {
            let mut probe = config.clone();
            apply(&mut probe);
            if probe.validate().is_ok() {
                config = probe;
                set.insert(knob);
            }
        }
    };
    if t.do_sample {
        carry("temperature", Knob::Temperature, &|c| {
            c.temperature = t.temperature
        });
        carry("top_k", Knob::TopK, &|c| {
            c.top_k = t.top_k.filter(|&k| k > 0)
        });
        carry("top_p", Knob::TopP, &|c| c.top_p = t.top_p.unwrap_or(1.0));
        carry("seed", Knob::Seed, &|c| c.seed = t.seed);
    }
    carry("max_new_tokens", Knob::MaxNewTokens, &|c| {
        c.max_new_tokens = Some(t.max_new_tokens)
    });
    LaneKnobs::Transformers { config, set }
}

fn to_llama_cpp(h: &Hf, given: &BTreeSet<Knob>) -> LaneKnobs {
    let mut config = Llama::default();
    let mut set = BTreeSet::new();
    // HF's greedy (and beams, which llama.cpp has not) is temperature 0 there.
    let greedy = h.mode() != Mode::Sample;
    if greedy {
        config.temperature = 0.0;
        set.insert(LlamaCppKnob::Temperature);
    }
    for c in CARRIED {
        let (hf, llama) = (c.hf, c.llama);
        if !given.contains(&hf) || (greedy && llama == LlamaCppKnob::Temperature) {
            continue;
        }
        let mut probe = config.clone();
        if (c.across)(h, &mut probe) && probe.validate().is_ok() {
            config = probe;
            set.insert(llama);
        }
    }
    LaneKnobs::LlamaCpp { config, set }
}

fn to_transformers(l: &Llama, given: &BTreeSet<LlamaCppKnob>) -> LaneKnobs {
    let mut config = Hf::default();
    let mut set = BTreeSet::new();
    let greedy = l.temperature <= 0.0;
    if !greedy {
        config.do_sample = true;
        set.insert(Knob::DoSample);
    }
    for c in CARRIED {
        let (hf, llama) = (c.hf, c.llama);
        if !given.contains(&llama) || (greedy && hf == Knob::Temperature) {
            continue;
        }
        let mut probe = config.clone();
        if (c.back)(l, &mut probe) && probe.validate().is_ok() {
            config = probe;
            set.insert(hf);
        }
    }
    LaneKnobs::Transformers { config, set }
}
