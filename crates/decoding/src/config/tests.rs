use super::intake::{IGNORED_KEYS, UNSUPPORTED_KEYS};
use super::*;
use crate::config_error::ConfigError;
use crate::knob::Knob;
use crate::mode::Mode;

/// Every field of HF's `GenerationConfig()` in transformers 5.24.
const HF_5_24_FIELDS: &[&str] = &[
    "_from_model_config",
    "assistant_confidence_threshold",
    "assistant_early_exit",
    "assistant_ensemble_weight",
    "assistant_lookbehind",
    "bad_words_ids",
    "begin_suppress_tokens",
    "bos_token_id",
    "cache_config",
    "cache_implementation",
    "compile_config",
    "constraints",
    "continuous_batching_config",
    "decoder_start_token_id",
    "disable_compile",
    "diversity_penalty",
    "do_sample",
    "dola_layers",
    "early_stopping",
    "encoder_no_repeat_ngram_size",
    "encoder_repetition_penalty",
    "eos_token_id",
    "epsilon_cutoff",
    "eta_cutoff",
    "exponential_decay_length_penalty",
    "force_words_ids",
    "forced_bos_token_id",
    "forced_eos_token_id",
    "guidance_scale",
    "is_assistant",
    "length_penalty",
    "low_memory",
    "max_cache_len",
    "max_length",
    "max_matching_ngram_size",
    "max_new_tokens",
    "max_time",
    "min_length",
    "min_new_tokens",
    "min_p",
    "no_repeat_ngram_size",
    "num_assistant_tokens",
    "num_assistant_tokens_schedule",
    "num_beam_groups",
    "num_beams",
    "num_return_sequences",
    "output_attentions",
    "output_hidden_states",
    "output_logits",
    "output_scores",
    "pad_token_id",
    "penalty_alpha",
    "prefill_chunk_size",
    "prompt_lookup_num_tokens",
    "remove_invalid_values",
    "renormalize_logits",
    "repetition_penalty",
    "return_dict_in_generate",
    "sequence_bias",
    "speculation_type",
    "stop_strings",
    "suppress_tokens",
    "target_lookbehind",
    "temperature",
    "token_healing",
    "top_h",
    "top_k",
    "top_p",
    "transformers_version",
    "typical_p",
    "use_cache",
    "use_mtp",
    "watermarking_config",
];

#[test]
fn dola_layers_read_as_hf_writes_them_and_apply_to_greedy_and_sampling_only() {
    let v = |j: &str| GenerationConfig::from_json(j).unwrap().validate();
    assert_eq!(
        v(r#"{"dola_layers": "high"}"#).unwrap().dola_layers,
        Some(DolaLayers::Part(crate::dola::DolaPart::High))
    );
    assert_eq!(
        v(r#"{"dola_layers": [0, 2], "do_sample": true}"#)
            .unwrap()
            .dola_layers,
        Some(DolaLayers::List(vec![0, 2]))
    );
    // HF warns and runs the beam search without it.
    assert_eq!(
        v(r#"{"dola_layers": "low", "num_beams": 2}"#)
            .unwrap()
            .dola_layers,
        None
    );
    for bad in [r#"{"dola_layers": []}"#, r#"{"dola_layers": [-1]}"#] {
        assert_eq!(v(bad).unwrap_err().field(), Some("dola_layers"), "{bad}");
    }
    let e = GenerationConfig::from_json(r#"{"dola_layers": "middle"}"#).unwrap_err();
    assert_eq!(e.field(), Some("dola_layers"), "{e}");
}

#[test]
fn force_words_select_constrained_beam_search_and_are_checked_as_hf_4_55_checks_them() {
    let v = |j: &str| GenerationConfig::from_json(j).unwrap().validate();
    let c = v(r#"{"num_beams": 3, "force_words_ids": [[5, 6], [[7], [8, 9]]]}"#).unwrap();
    assert_eq!((c.mode, c.force_words.len()), (Mode::ConstrainedBeam, 2));
    for (json, field) in [
        (r#"{"force_words_ids": [[5]]}"#, "num_beams"),
        (
            r#"{"num_beams": 2, "do_sample": true, "force_words_ids": [[5]]}"#,
            "do_sample",
        ),
        (
            r#"{"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1, "force_words_ids": [[5]]}"#,
            "num_beam_groups",
        ),
        (
            r#"{"num_beams": 2, "force_words_ids": [[[5, 6], [5]]]}"#,
            "force_words_ids",
        ),
        (
            r#"{"num_beams": 2, "force_words_ids": [[]]}"#,
            "force_words_ids",
        ),
        (
            r#"{"num_beams": 2, "force_words_ids": []}"#,
            "force_words_ids",
        ),
        (
            r#"{"num_beams": 2, "force_words_ids": [[-3]]}"#,
            "force_words_ids",
        ),
    ] {
        assert_eq!(v(json).unwrap_err().field(), Some(field), "{json}");
    }
}

#[test]
fn diverse_beam_search_is_checked_as_hf_4_55_checks_it() {
    let ok = |j: &str| GenerationConfig::from_json(j).unwrap().validate();
    let v = ok(r#"{"num_beams": 6, "num_beam_groups": 3, "diversity_penalty": 0.5}"#).unwrap();
    assert_eq!((v.mode, v.num_beam_groups), (Mode::GroupBeam, 3));
    for (json, field, words) in [
        (
            r#"{"num_beams": 4, "num_beam_groups": 3, "diversity_penalty": 1}"#,
            "num_beam_groups",
            "divisible",
        ),
        (
            r#"{"num_beams": 4, "num_beam_groups": 8, "diversity_penalty": 1}"#,
            "num_beam_groups",
            "smaller or equal",
        ),
        (
            r#"{"num_beams": 4, "num_beam_groups": 2}"#,
            "diversity_penalty",
            "identical",
        ),
        (
            r#"{"num_beams": 4, "diversity_penalty": 1}"#,
            "num_beam_groups",
            "num_beam_groups` > 1",
        ),
        (
            r#"{"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": -1}"#,
            "diversity_penalty",
            "larger than 0",
        ),
        (
            r#"{"num_beams": 4, "num_beam_groups": 0}"#,
            "num_beam_groups",
            "strictly positive",
        ),
        (
            r#"{"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1, "do_sample": true}"#,
            "do_sample",
            "cannot be used in sampling mode",
        ),
    ] {
        let e = ok(json).unwrap_err();
        assert_eq!(e.field(), Some(field), "{json}: {e}");
        assert!(e.to_string().contains(words), "{json}: {e}");
    }
    // Without beams HF warns and decodes greedily; the warnings list says so.
    assert_eq!(
        ok(r#"{"num_beam_groups": 2, "diversity_penalty": 1}"#)
            .unwrap()
            .mode,
        Mode::Greedy
    );
}

#[test]
fn every_hf_field_is_applied_refused_by_name_or_unable_to_change_decoding() {
    for field in HF_5_24_FIELDS {
        let applied = field.parse::<Knob>().is_ok();
        let ignored = IGNORED_KEYS.contains(field);
        let refused = UNSUPPORTED_KEYS.iter().any(|(k, _)| k == field);
        assert_eq!(
            [applied, ignored, refused].iter().filter(|&&b| b).count(),
            1,
            "`{field}`: applied {applied}, ignored {ignored}, refused {refused}"
        );
    }
}

#[test]
fn a_knob_hf_applies_and_this_engine_does_not_is_refused_by_name() {
    let e = GenerationConfig::from_json(r#"{"num_beams": 4, "constraints": []}"#).unwrap_err();
    assert_eq!(e.field(), Some("constraints"));
    assert!(e.to_string().contains("force_words_ids"), "{e}");
    let e = GenerationConfig::from_json(r#"{"prompt_lookup_num_tokens": 3}"#).unwrap_err();
    assert!(matches!(e, ConfigError::Unsupported { .. }), "{e}");
    // What used to be accepted and dropped is now applied.
    let c = GenerationConfig::from_json(
        r#"{"renormalize_logits": true, "remove_invalid_values": true}"#,
    )
    .unwrap();
    assert!(c.renormalize_logits && c.remove_invalid_values);
}

#[test]
fn token_rules_refuse_empty_lists_negative_ids_and_a_bad_decay() {
    let err = |j: &str| {
        GenerationConfig::from_json(j)
            .unwrap()
            .validate()
            .unwrap_err()
    };
    assert_eq!(
        err(r#"{"bad_words_ids": []}"#).knob(),
        Some(Knob::BadWordsIds)
    );
    assert_eq!(
        err(r#"{"bad_words_ids": [[1], []]}"#).knob(),
        Some(Knob::BadWordsIds)
    );
    assert_eq!(
        err(r#"{"suppress_tokens": [-1]}"#).knob(),
        Some(Knob::SuppressTokens)
    );
    assert_eq!(
        err(r#"{"exponential_decay_length_penalty": [-2, 1.5]}"#).knob(),
        Some(Knob::ExponentialDecayLengthPenalty)
    );
    assert_eq!(err(r#"{"top_h": 0}"#).knob(), Some(Knob::TopH));
    let ok = GenerationConfig::from_json(
        r#"{"sequence_bias": [[[10, 45], -2.0], [[64], 3]], "forced_eos_token_id": [1, 2]}"#,
    )
    .unwrap()
    .validate()
    .unwrap();
    assert_eq!(
        ok.rules.sequence_bias,
        vec![(vec![10, 45], -2.0), (vec![64], 3.0)]
    );
    assert_eq!(ok.rules.forced_eos_token_ids, vec![1, 2]);
    // A sequence_bias entry must be a pair of ids and a number.
    assert!(GenerationConfig::from_json(r#"{"sequence_bias": [[10, -2.0]]}"#).is_err());
}

#[test]
fn defaults_are_hf_defaults() {
    let c = GenerationConfig::from_json("{}").unwrap();
    assert_eq!(c, GenerationConfig::default());
    let v = c.validate().unwrap();
    assert_eq!(v.mode, Mode::Greedy);
    assert_eq!(v.top_k, 50);
    assert_eq!(v.new_token_budget(7), 20);
    assert_eq!(
        v.clone().with_model_eos(&[50256]).eos_token_ids,
        vec![50256]
    );
}

#[test]
fn sampling_with_zero_temperature_is_rejected_with_hf_message() {
    let e = GenerationConfig::from_json(r#"{"do_sample": true, "temperature": 0}"#)
        .unwrap()
        .validate()
        .unwrap_err();
    assert_eq!(e.field(), Some("temperature"));
    assert!(
        e.to_string()
            .contains("has to be a strictly positive float"),
        "{}",
        e.to_string()
    );
}

#[test]
fn greedy_with_several_return_sequences_is_an_error() {
    let e = GenerationConfig::from_json(r#"{"num_return_sequences": 2}"#)
        .unwrap()
        .validate()
        .unwrap_err();
    assert!(
        e.to_string().contains("Greedy methods without beam search"),
        "{}",
        e.to_string()
    );
}

#[test]
fn more_return_sequences_than_beams_is_an_error() {
    let e = GenerationConfig::from_json(r#"{"num_beams": 2, "num_return_sequences": 3}"#)
        .unwrap()
        .validate()
        .unwrap_err();
    assert_eq!(e.field(), Some("num_return_sequences"));
}

#[test]
fn typo_names_the_field_and_suggests_the_right_one() {
    let e = GenerationConfig::from_json(r#"{"temprature": 0.7}"#).unwrap_err();
    assert_eq!(e.field(), Some("temprature"));
    assert!(
        e.to_string().contains("did you mean `temperature`"),
        "{}",
        e.to_string()
    );
}

#[test]
fn wrong_type_names_the_field() {
    let e = GenerationConfig::from_json(r#"{"top_k": "fifty"}"#).unwrap_err();
    assert_eq!(e.field(), Some("top_k"));
    let e = GenerationConfig::from_json(r#"{"top_k": -3}"#)
        .unwrap()
        .validate()
        .unwrap_err();
    assert_eq!(e.field(), Some("top_k"));
}

#[test]
fn top_p_outside_unit_interval_is_rejected() {
    for p in ["0", "1.5", "-0.1"] {
        let e = GenerationConfig::from_json(&format!(r#"{{"do_sample": true, "top_p": {p}}}"#))
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(e.field(), Some("top_p"), "top_p={p}");
    }
}

/// The knob rows of the bad-input matrix: each refused at the boundary with
/// the field it concerns, never a panic later.
#[test]
fn bad_knobs_are_refused_by_field() {
    let cases: &[(&str, &str)] = &[
        (r#"{"do_sample": true, "temperature": -0.5}"#, "temperature"),
        (r#"{"do_sample": true, "temperature": 0}"#, "temperature"),
        (r#"{"do_sample": true, "top_p": 0}"#, "top_p"),
        (r#"{"do_sample": true, "top_p": 1.01}"#, "top_p"),
        (r#"{"top_k": -1}"#, "top_k"),
        (r#"{"num_beams": 0}"#, "num_beams"),
        (r#"{"num_beams": 100000}"#, "num_beams"),
        (
            r#"{"num_beams": 2, "num_return_sequences": 3}"#,
            "num_return_sequences",
        ),
        (r#"{"temperature": "hot"}"#, "temperature"),
        (r#"{"temperature": null}"#, "temperature"),
        (r#"{"top_k": "NaN"}"#, "top_k"),
        (r#"{"max_new_tokens": -5}"#, "max_new_tokens"),
        (r#"{"max_new_tokens": 1e30}"#, "max_new_tokens"),
        (r#"{"repetition_penalty": 0}"#, "repetition_penalty"),
        (r#"{"no_repeat_ngram_size": -2}"#, "no_repeat_ngram_size"),
        (r#"{"eos_token_id": "."}"#, "eos_token_id"),
    ];
    for (json, field) in cases {
        let e = GenerationConfig::from_json(json)
            .and_then(|c| c.validate().map(|_| c))
            .expect_err(json);
        assert_eq!(e.field(), Some(*field), "{json}: {e}");
        assert!(!e.to_string().is_empty());
    }
    // JSON has no NaN; a literal one is a parse error with a message, not a panic.
    assert!(GenerationConfig::from_json(r#"{"temperature": NaN}"#)
        .unwrap_err()
        .to_string()
        .contains("not valid JSON"));
    assert!(GenerationConfig::from_json("[1, 2]").is_err());
}

/// Found by fuzzing (generation_config target): a long decimal parsed one
/// ULP off, so an exported config did not import back equal.
#[test]
fn configs_round_trip_exactly_through_json() {
    let text = r#"{"do_sample": true, "temperature": 888888888888888888888888888888888888888888888880.7, "top_p": 0, "eos_token_id": [13, 50256]}"#;
    let c = GenerationConfig::from_json(text).unwrap();
    assert_eq!(GenerationConfig::from_json(&c.to_json()).unwrap(), c);
    for t in [
        "0.1",
        "0.7000000000000001",
        "1e-300",
        "2.2250738585072014e-308",
    ] {
        let c = GenerationConfig::from_json(&format!(r#"{{"temperature": {t}}}"#)).unwrap();
        assert_eq!(GenerationConfig::from_json(&c.to_json()).unwrap(), c, "{t}");
    }
}

#[test]
fn contradictory_settings_warn_but_run() {
    // Temperature with greedy: HF ignores it; we run and the page warns.
    let c = GenerationConfig::from_json(r#"{"temperature": 0.7, "top_p": 0.5}"#).unwrap();
    assert!(c.validate().is_ok());
    assert!(crate::warnings::config_warnings(&c)
        .iter()
        .any(|w| w.field == Knob::Temperature));
}

#[test]
fn mode_selection_follows_hf() {
    let mode = |j: &str| GenerationConfig::from_json(j).unwrap().mode();
    assert_eq!(mode(r#"{"do_sample": true}"#), Mode::Sample);
    assert_eq!(mode(r#"{"num_beams": 4}"#), Mode::Beam);
    assert_eq!(
        mode(r#"{"penalty_alpha": 0.6, "top_k": 4}"#),
        Mode::Contrastive
    );
    assert_eq!(mode(r#"{"penalty_alpha": 0.6, "top_k": 1}"#), Mode::Greedy);
}

#[test]
fn early_stopping_round_trips_all_three_forms() {
    for (json, want) in [
        ("false", EarlyStopping::Heuristic),
        ("true", EarlyStopping::Always),
        ("\"never\"", EarlyStopping::Never),
    ] {
        let c = GenerationConfig::from_json(&format!(r#"{{"early_stopping": {json}}}"#)).unwrap();
        assert_eq!(c.early_stopping, want);
        assert_eq!(GenerationConfig::from_json(&c.to_json()).unwrap(), c);
    }
}

#[test]
fn real_generation_config_files_load() {
    let c = GenerationConfig::from_json(r#"{"_from_model_config": true, "bos_token_id": 50256, "eos_token_id": 50256, "transformers_version": "4.26.0.dev0"}"#).unwrap();
    assert_eq!(c.eos_token_id, Some(TokenIds::One(50256)));
}

#[test]
fn max_length_counts_the_prompt() {
    let v = GenerationConfig::from_json(r#"{"max_length": 30}"#)
        .unwrap()
        .validate()
        .unwrap();
    assert_eq!(v.new_token_budget(7), 23);
    let v = GenerationConfig::from_json(r#"{"min_length": 10}"#)
        .unwrap()
        .validate()
        .unwrap();
    assert_eq!(v.min_new_tokens_for(7), 3);
}
