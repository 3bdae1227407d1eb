use super::*;
use crate::i18n::I18n;
use ntl_decoding::{Mode, Semantics};
use serde_json::json;

#[test]
fn typed_values_become_hf_fields_and_empty_resets() {
    let mut c = LaneKnobs::default();
    c.set_text(Knob::Temperature, "0.7").unwrap();
    c.set_text(Knob::StopStrings, ".").unwrap();
    // Keys come out sorted, so a lane's JSON is stable however it was edited.
    assert_eq!(
        c.to_json(),
        "{\n  \"stop_strings\": \".\",\n  \"temperature\": 0.7\n}"
    );
    assert_eq!(c.text(Knob::Temperature), "0.7");
    assert_eq!(c.text(Knob::StopStrings), ".", "plain text, no quotes");
    c.set_text(Knob::Temperature, " ").unwrap();
    assert!(!c.is_set("temperature"));
    assert_eq!(c.hf().unwrap().temperature, 1.0);
    assert_eq!(
        c.text(Knob::Temperature),
        "",
        "the default is the placeholder"
    );
    assert_eq!(default_text(Knob::Temperature), "1.0");
}

#[test]
fn a_bad_value_names_its_field_and_changes_nothing() {
    let mut c = LaneKnobs::default();
    let e = c.set_text(Knob::TopK, "many").unwrap_err();
    assert_eq!(e.field(), Some("top_k"));
    let e = c.set_text(Knob::TopK, "\"ten\"").unwrap_err();
    assert_eq!(e.knob(), Some(Knob::TopK));
    assert_eq!(c, LaneKnobs::default());
}

#[test]
fn dola_layers_take_low_and_high_without_quotes_and_lists_as_json() {
    let mut c = LaneKnobs::default();
    c.set_text(Knob::DolaLayers, "high").unwrap();
    assert_eq!(c.text(Knob::DolaLayers), "high");
    assert!(c.validate().unwrap().dola_layers.is_some());
    c.set_text(Knob::DolaLayers, "[0, 2]").unwrap();
    assert_eq!(c.text(Knob::DolaLayers), "[0,2]");
    assert!(c.set_text(Knob::DolaLayers, "middle").is_err());
    assert!(knobs_for(Mode::Greedy).contains(&Knob::DolaLayers));
    c.set_mode(Mode::Beam);
    assert!(!c.is_set("dola_layers"), "DoLa does not ride on beams");
}

#[test]
fn early_stopping_takes_never_without_quotes() {
    let mut c = LaneKnobs::default();
    c.set_text(Knob::EarlyStopping, "never").unwrap();
    assert_eq!(c.to_value(), json!({"early_stopping": "never"}));
}

#[test]
fn a_folded_lane_reads_as_its_mode_and_the_knobs_set() {
    let c =
        LaneKnobs::from_json(r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "seed": 1}"#)
            .unwrap();
    assert_eq!(
        c.summary(&I18n::default()),
        "sample · seed 1 · temperature 0.7 · top_p 0.9"
    );
    assert_eq!(LaneKnobs::default().summary(&I18n::default()), "greedy");
    let c = LaneKnobs::from_json(r#"{"stop_strings": ".", "num_beams": 4}"#).unwrap();
    assert_eq!(
        c.summary(&I18n::default()),
        r#"beam search · num_beams 4 · stop_strings ".""#
    );
}

#[test]
fn a_llama_lanes_knobs_take_llama_server_names_and_refuse_hf_ones() {
    let mut c = LaneKnobs::default();
    c.set_semantics(Semantics::LlamaCpp);
    c.set_llama_cpp_text(LlamaCppKnob::RepeatLastN, "-1")
        .unwrap();
    c.set_llama_cpp_text(LlamaCppKnob::Samplers, "top_k, temperature")
        .unwrap();
    assert_eq!(c.text_of("samplers"), r#"["top_k","temperature"]"#);
    // A JSON string is read as one: how a newline is typed.
    c.set_llama_cpp_text(LlamaCppKnob::Stop, r#""\n""#).unwrap();
    assert_eq!(c.to_value()["stop"], "\n");
    let e = c
        .set_llama_cpp_text(LlamaCppKnob::TopK, "many")
        .unwrap_err();
    assert_eq!(e.field(), Some("top_k"));
    assert_eq!(
        c.summary(&I18n::default()),
        r#"llama.cpp · repeat_last_n -1 · samplers ["top_k","temperature"] · stop "\n" · temperature 0.0"#
    );
    assert_eq!(llama_cpp_default_text(LlamaCppKnob::TopK), "40");
    c.set_llama_cpp_text(LlamaCppKnob::RepeatLastN, "").unwrap();
    assert!(!c.is_set("repeat_last_n"));
    assert_eq!(
        LaneKnobs::from_json(&c.to_json()).unwrap(),
        c,
        "its JSON reads back"
    );
}
