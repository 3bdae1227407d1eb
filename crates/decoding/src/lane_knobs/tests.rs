use super::fields::{copy_hf, copy_llama_cpp, same_hf};
use super::*;
use serde_json::json;

/// A value unlike the default for every HF knob.
fn every_hf_knob() -> GenerationConfig {
    GenerationConfig::from_json(
        r#"{
        "max_new_tokens": 7, "max_length": 90, "min_new_tokens": 2, "min_length": 3,
        "do_sample": true, "temperature": 0.7, "top_k": 9, "top_p": 0.9, "min_p": 0.1,
        "typical_p": 0.8, "epsilon_cutoff": 0.01, "eta_cutoff": 0.02,
        "repetition_penalty": 1.2, "no_repeat_ngram_size": 3, "num_beams": 4,
        "length_penalty": 0.5, "early_stopping": "never", "num_return_sequences": 2,
        "penalty_alpha": 0.6, "eos_token_id": [1, 2], "stop_strings": ".", "seed": 5,
        "frequency_penalty": 0.3, "presence_penalty": 0.4, "top_h": 0.5,
        "bad_words_ids": [[3]], "sequence_bias": [[[4], 1.5]], "suppress_tokens": [5],
        "begin_suppress_tokens": [6], "forced_bos_token_id": 7, "forced_eos_token_id": 8,
        "exponential_decay_length_penalty": [2, 1.1], "renormalize_logits": true,
        "remove_invalid_values": true, "watermarking_config": {"bias": 2.0},
        "guidance_scale": 1.5, "num_beam_groups": 2, "diversity_penalty": 0.7,
        "dola_layers": "high", "force_words_ids": [[9]]
    }"#,
    )
    .unwrap()
}

/// `copied` holds `full`'s value for `knob` and the default for every other field.
fn only_field_copied(knob: &str, copied: &impl serde::Serialize, full: &Value, default: &Value) {
    let v = serde_json::to_value(copied).unwrap();
    for (name, value) in v.as_object().unwrap() {
        let expected = if name == knob {
            &full[name]
        } else {
            &default[name]
        };
        assert_eq!(value, expected, "copying {knob} touched {name}");
    }
}

#[test]
fn each_knob_name_copies_its_own_field_and_no_other() {
    let full = every_hf_knob();
    let full_value = serde_json::to_value(&full).unwrap();
    let default_value = serde_json::to_value(GenerationConfig::default()).unwrap();
    for &k in Knob::ALL {
        let mut c = GenerationConfig::default();
        assert!(!same_hf(k, &full, &c), "{k} differs before the copy");
        copy_hf(k, &full, &mut c);
        assert!(same_hf(k, &full, &c), "{k}");
        only_field_copied(k.name(), &c, &full_value, &default_value);
    }
}

#[test]
fn each_llama_cpp_knob_name_copies_its_own_field() {
    let full = LlamaCppConfig::from_value(
        serde_json::from_str(
            r#"{
        "temperature": 0.5, "dynatemp_range": 0.1, "dynatemp_exponent": 2.0, "top_k": 3,
        "top_p": 0.5, "min_p": 0.2, "typical_p": 0.5, "top_n_sigma": 1.0,
        "xtc_probability": 0.5, "xtc_threshold": 0.2, "repeat_penalty": 1.3,
        "repeat_last_n": 8, "presence_penalty": 0.1, "frequency_penalty": 0.2,
        "dry_multiplier": 0.8, "dry_base": 2.0, "dry_allowed_length": 3,
        "dry_penalty_last_n": 9, "dry_sequence_breakers": ["x"], "mirostat": 2,
        "mirostat_tau": 4.0, "mirostat_eta": 0.2, "adaptive_target": 0.5,
        "adaptive_decay": 0.8, "min_keep": 2, "logit_bias": [[1, 2.0]], "n_predict": 5,
        "stop": ["."], "ignore_eos": true, "seed": 9, "samplers": ["top_k"]
    }"#,
        )
        .unwrap(),
    )
    .unwrap();
    let full_value = serde_json::to_value(&full).unwrap();
    let default_value = serde_json::to_value(LlamaCppConfig::default()).unwrap();
    for &k in LlamaCppKnob::ALL {
        if k == LlamaCppKnob::Semantics {
            continue;
        }
        let mut c = LlamaCppConfig::default();
        copy_llama_cpp(k, &full, &mut c);
        assert_ne!(
            serde_json::to_value(&c).unwrap(),
            default_value,
            "{k} copied nothing"
        );
        only_field_copied(k.name(), &c, &full_value, &default_value);
    }
}

#[test]
fn a_lane_writes_back_the_knobs_it_set_sorted_and_no_bookkeeping() {
    let l = LaneKnobs::from_json(
        r#"{"top_p": 0.9, "do_sample": true, "transformers_version": "4.0", "top_k": null}"#,
    )
    .unwrap();
    assert_eq!(
        l.to_value(),
        json!({"do_sample": true, "top_k": null, "top_p": 0.9})
    );
    assert_eq!(l.set_names(), ["do_sample", "top_k", "top_p"]);
    assert_eq!(LaneKnobs::from_value(l.to_value()).unwrap(), l);
    assert_eq!(l.hf().unwrap().top_k, None, "null: no top-k");
    assert_eq!(l.mode(), Mode::Sample);
}

#[test]
fn a_knob_set_to_its_default_stays_set() {
    // It still overrides the model's generation_config.json, as in HF.
    let l = LaneKnobs::from_json(r#"{"top_k": 50}"#).unwrap();
    assert!(l.is_set("top_k"));
    assert_eq!(l.to_value(), json!({"top_k": 50}));
    assert_eq!(l.hf(), Some(&GenerationConfig::default()));
}

#[test]
fn setting_and_clearing_a_knob_keeps_value_and_set_in_step() {
    let mut l = LaneKnobs::default();
    l.set(Knob::Temperature, json!(0.7)).unwrap();
    l.set(Knob::StopStrings, json!(".")).unwrap();
    assert_eq!(
        l.to_value(),
        json!({"stop_strings": ".", "temperature": 0.7})
    );
    assert_eq!(l.hf().unwrap().temperature, 0.7);
    l.clear(Knob::Temperature);
    assert!(!l.is_set("temperature"));
    assert_eq!(l.hf().unwrap().temperature, 1.0);
}

#[test]
fn a_refused_value_names_its_knob_and_changes_nothing() {
    let mut l = LaneKnobs::from_json(r#"{"top_k": 5}"#).unwrap();
    let before = l.clone();
    let e = l.set(Knob::TopK, json!("ten")).unwrap_err();
    assert_eq!(e.knob(), Some(Knob::TopK));
    assert_eq!(l, before);
    let mut llama = LaneKnobs::llama_cpp();
    let e = llama
        .set_llama_cpp(LlamaCppKnob::TopK, json!("many"))
        .unwrap_err();
    assert_eq!(e.field(), Some("top_k"));
    assert_eq!(llama, LaneKnobs::llama_cpp());
}

#[test]
fn mode_switches_set_the_knobs_hf_reads() {
    let mut l = LaneKnobs::default();
    l.set(Knob::DolaLayers, json!("high")).unwrap();
    l.set_mode(Mode::Contrastive);
    assert_eq!(l.mode(), Mode::Contrastive);
    assert_eq!(l.to_value(), json!({"penalty_alpha": 0.6, "top_k": 4}));
    l.set_mode(Mode::Beam);
    assert_eq!(l.mode(), Mode::Beam);
    assert!(!l.is_set("penalty_alpha"), "contrastive's knob goes");
    l.set_mode(Mode::GroupBeam);
    assert_eq!(l.mode(), Mode::GroupBeam);
    assert!(l.validate().is_ok(), "two groups of two, a penalty of 1");
    l.set_mode(Mode::Beam);
    assert!(!l.is_set("num_beam_groups") && !l.is_set("diversity_penalty"));
    l.set_mode(Mode::BeamSample);
    assert_eq!(l.mode(), Mode::BeamSample);
    assert!(l.validate().is_ok(), "HF's beam sampling runs");
    l.set_mode(Mode::Beam);
    assert!(
        !l.is_set("do_sample"),
        "back to beam search: do_sample goes"
    );
    l.set_mode(Mode::Sample);
    assert_eq!(l.mode(), Mode::Sample);
    assert!(!l.is_set("num_beams"));
    l.set_mode(Mode::Greedy);
    assert_eq!(l.mode(), Mode::Greedy);
    assert!(!l.is_set("do_sample"));
}

#[test]
fn switching_ecosystem_carries_what_means_the_same_and_translates_the_rest() {
    let mut l = LaneKnobs::from_json(
        r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "repetition_penalty": 1.2,
                "max_new_tokens": 30, "num_return_sequences": 2, "seed": 4}"#,
    )
    .unwrap();
    l.set_semantics(Semantics::LlamaCpp);
    assert_eq!(l.mode(), Mode::LlamaCpp);
    assert_eq!(
        l.to_value(),
        json!({"semantics": "llama.cpp", "temperature": 0.7, "top_p": 0.9,
               "repeat_penalty": 1.2, "n_predict": 30, "seed": 4}),
        "renamed, not dropped; num_return_sequences has no llama.cpp form"
    );
    assert!(l.validate().is_ok());
    l.set_semantics(Semantics::Transformers);
    assert_eq!(l.mode(), Mode::Sample);
    assert_eq!(
        l.to_value(),
        json!({"do_sample": true, "temperature": 0.7, "top_p": 0.9,
               "repetition_penalty": 1.2, "max_new_tokens": 30, "seed": 4})
    );
}

#[test]
fn greedy_becomes_temperature_zero_and_back_and_a_random_seed_stays_behind() {
    let mut l = LaneKnobs::from_json(r#"{"max_new_tokens": 12, "top_k": null}"#).unwrap();
    l.set_semantics(Semantics::LlamaCpp);
    assert_eq!(
        l.to_value(),
        json!({"semantics": "llama.cpp", "temperature": 0.0, "n_predict": 12, "top_k": 0})
    );
    l.set_llama_cpp(LlamaCppKnob::Seed, json!(-1)).unwrap();
    l.set_llama_cpp(LlamaCppKnob::NPredict, json!(-1)).unwrap();
    l.set_semantics(Semantics::Transformers);
    assert_eq!(l.mode(), Mode::Greedy);
    assert_eq!(l.to_value(), json!({"top_k": 0}), "-1 has no HF meaning");
}

#[test]
fn a_recorded_config_reads_as_the_knobs_that_differ_from_the_defaults() {
    let ran =
        LaneConfig::from_value(json!({"do_sample": true, "top_k": 50, "top_p": 0.8})).unwrap();
    let l = LaneKnobs::differing(&ran);
    assert_eq!(l.to_value(), json!({"do_sample": true, "top_p": 0.8}));
    assert_eq!(l.config(), ran);
    let llama = LaneConfig::from_value(json!({"semantics": "llama.cpp", "top_k": 3})).unwrap();
    assert_eq!(
        LaneKnobs::differing(&llama).to_value(),
        json!({"semantics": "llama.cpp", "top_k": 3})
    );
}

#[test]
fn a_lane_travels_in_serde_as_its_config_object() {
    let l =
        LaneKnobs::from_json(r#"{"semantics": "llama.cpp", "stop": "\n", "seed": null}"#).unwrap();
    assert!(!l.is_set("seed"), "llama-server's null is its default");
    let text = serde_json::to_string(&l).unwrap();
    assert_eq!(text, r#"{"semantics":"llama.cpp","stop":"\n"}"#);
    assert_eq!(serde_json::from_str::<LaneKnobs>(&text).unwrap(), l);
    let e = serde_json::from_str::<LaneKnobs>(r#"{"temprature": 1}"#).unwrap_err();
    assert!(e.to_string().contains("`temperature`"), "{e}");
}

#[test]
fn a_drawn_seed_kept_is_the_lanes_own_in_its_ecosystem() {
    let hf = LaneKnobs::from_json(r#"{"do_sample": true}"#).unwrap();
    assert_eq!(hf.seed(), None, "no seed: a new one each run");
    let kept = hf.with_seed(77);
    assert_eq!(kept.seed(), Some(77));
    assert!(kept.is_set("seed"));
    let llama = LaneKnobs::llama_cpp();
    assert_eq!(llama.seed(), None, "-1: a new one each run");
    let kept = llama.with_seed(u32::MAX - 1);
    assert_eq!(kept.seed(), Some(u32::MAX as u64 - 1));
    assert_eq!(kept.semantics(), Semantics::LlamaCpp);
}

#[test]
fn a_tutorial_lane_reads_edits_and_switches_to_hf_with_its_shared_knobs() {
    let mut lane = LaneKnobs::from_value(
        serde_json::json!({"semantics": "tutorial", "temperature": 0.8, "top_k": 5, "seed": 3}),
    )
    .unwrap();
    assert_eq!(lane.mode(), Mode::Tutorial);
    assert_eq!(lane.set_names(), ["seed", "temperature", "top_k"]);
    lane.set_tutorial("top_p", Some(serde_json::json!(0.9)))
        .unwrap();
    lane.set_tutorial("top_k", None).unwrap();
    assert_eq!(
        lane.to_value(),
        serde_json::json!({"semantics": "tutorial", "temperature": 0.8, "top_p": 0.9, "seed": 3})
    );
    let e = lane
        .set_tutorial("top_p", Some(serde_json::json!("high")))
        .unwrap_err();
    assert_eq!(e.field(), Some("top_p"));
    assert_eq!(lane.with_seed(9).seed(), Some(9));
    lane.set_semantics(Semantics::Transformers);
    assert_eq!(
        lane.to_value(),
        serde_json::json!({"do_sample": true, "temperature": 0.8, "top_p": 0.9, "seed": 3})
    );
    // And back: seed 004's arguments HF also has carry over.
    lane.set_semantics(Semantics::Tutorial);
    assert_eq!(
        lane.to_value(),
        serde_json::json!({"semantics": "tutorial", "do_sample": true, "temperature": 0.8, "top_p": 0.9, "seed": 3})
    );
    lane.set_semantics(Semantics::LlamaCpp);
    assert_eq!(lane.mode(), Mode::LlamaCpp);
}
