use super::*;

#[test]
fn typed_values_become_hf_fields_and_empty_resets() {
    let mut c = LaneConfig::default();
    c.set(Knob::Temperature, "0.7").unwrap();
    c.set(Knob::StopStrings, ".").unwrap();
    // Keys come out sorted, so a lane's JSON is stable however it was edited.
    assert_eq!(
        c.to_json(),
        "{\n  \"stop_strings\": \".\",\n  \"temperature\": 0.7\n}"
    );
    assert_eq!(c.hf().unwrap().temperature, 0.7);
    c.set(Knob::Temperature, "").unwrap();
    assert!(c.fields().get("temperature").is_none());
    assert_eq!(
        c.hf().unwrap().temperature,
        1.0,
        "the parsed config follows the fields"
    );
}

#[test]
fn a_bad_value_names_its_field_and_changes_nothing() {
    let mut c = LaneConfig::default();
    let e = c.set(Knob::TopK, "many").unwrap_err();
    assert_eq!(e.field(), Some("top_k"));
    assert!(c.fields().is_empty());
    let e = c.set(Knob::TopK, "\"ten\"").unwrap_err();
    assert_eq!(e.knob(), Some(Knob::TopK));
    assert_eq!(c, LaneConfig::default());
}

#[test]
fn dola_layers_take_low_and_high_without_quotes_and_lists_as_json() {
    let mut c = LaneConfig::default();
    c.set(Knob::DolaLayers, "high").unwrap();
    assert_eq!(c.text(Knob::DolaLayers), "high");
    assert!(c.validate().unwrap().dola_layers.is_some());
    c.set(Knob::DolaLayers, "[0, 2]").unwrap();
    assert_eq!(c.text(Knob::DolaLayers), "[0,2]");
    assert!(c.set(Knob::DolaLayers, "middle").is_err());
    assert!(knobs_for(Mode::Greedy).contains(&Knob::DolaLayers));
    c.set_mode(Mode::Beam);
    assert!(
        c.fields().get("dola_layers").is_none(),
        "DoLa does not ride on beams"
    );
}

#[test]
fn mode_switches_set_the_knobs_hf_reads() {
    let mut c = LaneConfig::default();
    c.set_mode(Mode::Contrastive);
    assert_eq!(c.mode(), Mode::Contrastive);
    c.set_mode(Mode::Beam);
    assert_eq!(c.mode(), Mode::Beam);
    c.set_mode(Mode::GroupBeam);
    assert_eq!(c.mode(), Mode::GroupBeam);
    assert!(c.validate().is_ok(), "two groups of two, a penalty of 1");
    c.set_mode(Mode::Beam);
    assert_eq!(c.mode(), Mode::Beam);
    assert!(c.fields().get("num_beam_groups").is_none());
    assert!(c.fields().get("diversity_penalty").is_none());
    c.set_mode(Mode::BeamSample);
    assert_eq!(c.mode(), Mode::BeamSample);
    assert!(c.validate().is_ok(), "HF's beam sampling runs");
    assert_eq!(c.fields().get("do_sample"), Some(&true.into()));
    c.set_mode(Mode::Beam);
    assert_eq!(c.mode(), Mode::Beam, "back to beam search: do_sample goes");
    c.set_mode(Mode::Sample);
    assert_eq!(c.mode(), Mode::Sample);
    c.set_mode(Mode::Greedy);
    assert_eq!(c.mode(), Mode::Greedy);
}

#[test]
fn a_folded_lane_reads_as_its_mode_and_the_knobs_set() {
    let c = LaneConfig::from_json(
        r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "seed": 1}"#,
    )
    .unwrap();
    assert_eq!(c.summary(), "sample · seed 1 · temperature 0.7 · top_p 0.9");
    assert_eq!(LaneConfig::default().summary(), "greedy");
    let c = LaneConfig::from_json(r#"{"stop_strings": ".", "num_beams": 4}"#).unwrap();
    assert_eq!(
        c.summary(),
        r#"beam search · num_beams 4 · stop_strings ".""#
    );
}

#[test]
fn json_round_trips_and_ignores_bookkeeping_keys() {
    let c = LaneConfig::from_json(
        r#"{"do_sample": true, "top_p": 0.9, "transformers_version": "4.0"}"#,
    )
    .unwrap();
    assert_eq!(LaneConfig::from_json(&c.to_json()).unwrap(), c);
    assert_eq!(c.mode(), Mode::Sample);
    assert!(c.fields().get("transformers_version").is_none());
}

#[test]
fn switching_ecosystem_carries_what_means_the_same_and_translates_the_rest() {
    let mut c = LaneConfig::from_json(
        r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "repetition_penalty": 1.2,
                "max_new_tokens": 30, "num_return_sequences": 2, "seed": 4}"#,
    )
    .unwrap();
    c.set_semantics(Semantics::LlamaCpp);
    assert_eq!(c.semantics(), Semantics::LlamaCpp);
    assert_eq!(c.mode(), Mode::LlamaCpp);
    let f = c.fields();
    assert_eq!(f["semantics"], "llama.cpp");
    assert_eq!(f["temperature"], 0.7);
    assert_eq!(f["top_p"], 0.9);
    assert_eq!(f["repeat_penalty"], 1.2, "renamed, not dropped");
    assert_eq!(f["n_predict"], 30);
    assert_eq!(f["seed"], 4);
    assert!(
        f.get("num_return_sequences").is_none(),
        "no such knob there"
    );
    assert!(c.validate().is_ok());
    c.set_semantics(Semantics::Transformers);
    assert_eq!(c.mode(), Mode::Sample);
    assert_eq!(c.fields()["repetition_penalty"], 1.2);
    assert_eq!(c.fields()["max_new_tokens"], 30);
}

#[test]
fn greedy_becomes_temperature_zero_and_back() {
    let mut c = LaneConfig::from_json(r#"{"max_new_tokens": 12}"#).unwrap();
    c.set_semantics(Semantics::LlamaCpp);
    assert_eq!(c.fields()["temperature"], 0);
    c.set_semantics(Semantics::Transformers);
    assert_eq!(c.mode(), Mode::Greedy);
}

#[test]
fn a_llama_lanes_knobs_take_llama_server_names_and_refuse_hf_ones() {
    let mut c = LaneConfig::default();
    c.set_semantics(Semantics::LlamaCpp);
    c.set_llama_cpp(LlamaCppKnob::RepeatLastN, "-1").unwrap();
    c.set_llama_cpp(LlamaCppKnob::Samplers, "top_k, temperature")
        .unwrap();
    assert_eq!(c.text_of("samplers"), r#"["top_k","temperature"]"#);
    // A JSON string is read as one: how a newline is typed.
    c.set_llama_cpp(LlamaCppKnob::Stop, r#""\n""#).unwrap();
    assert_eq!(c.fields()["stop"], "\n");
    let e = c.set_llama_cpp(LlamaCppKnob::TopK, "many").unwrap_err();
    assert_eq!(e.field(), Some("top_k"));
    assert_eq!(
        c.summary(),
        r#"llama.cpp · repeat_last_n -1 · samplers ["top_k","temperature"] · stop "\n" · temperature 0"#
    );
    assert_eq!(LaneConfig::llama_cpp_default_text(LlamaCppKnob::TopK), "40");
    let json = c.to_json();
    assert_eq!(
        LaneConfig::from_json(&json).unwrap(),
        c,
        "its JSON reads back"
    );
}
