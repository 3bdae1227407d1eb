use super::*;
use serde_json::json;
use serde_json::Value;

fn minimal() -> Value {
    json!({
        "version": 1,
        "title": "Greedy vs sampling",
        "language": "en",
        "steps": [
            {"prose": "Watch lane 2.", "prompt": "The best way to learn programming is",
             "lanes": [{"max_new_tokens": 8}, {"do_sample": true, "seed": 0}]},
            {"prompt": "Once upon a time", "lanes": [{}],
             "questions": [{"kind": "next_token", "lane": 1}]}
        ]
    })
}

fn parse_value(v: &Value) -> Result<Lesson, LessonError> {
    parse(v.to_string().as_bytes())
}

fn refused(v: Value) -> (Option<String>, String) {
    let e = parse_value(&v).expect_err("refused");
    (e.path().map(String::from), e.to_string())
}

#[test]
fn a_minimal_lesson_opens_with_the_bundled_model_and_round_trips() {
    let l = parse_value(&minimal()).unwrap();
    assert_eq!(l.model, "bundled");
    assert_eq!(l.steps.len(), 2);
    assert_eq!(
        l.steps[1].questions[0],
        Question::NextToken {
            lane: 1,
            step: 1,
            explanation: String::new()
        }
    );
    assert_eq!(parse(l.to_json().as_bytes()).unwrap(), l);
}

#[test]
fn a_question_about_a_lane_that_does_not_exist_names_its_field() {
    let mut v = minimal();
    v["steps"][1]["questions"][0]["lane"] = json!(3);
    let (path, msg) = refused(v);
    assert_eq!(path.as_deref(), Some("steps[1].questions[0].lane"));
    assert!(
        msg.contains("lane 3 does not exist: this step has lanes 1 to 1"),
        "{msg}"
    );
}

#[test]
fn a_field_of_the_wrong_type_names_its_path() {
    let mut v = minimal();
    v["steps"][0]["prompt"] = json!(7);
    let (path, msg) = refused(v);
    assert_eq!(path.as_deref(), Some("steps[0].prompt"));
    assert!(msg.contains("invalid type"), "{msg}");
    let mut v = minimal();
    v["steps"][0]["colour"] = json!("red");
    assert_eq!(refused(v).0.as_deref(), Some("steps[0].colour"));
}

#[test]
fn an_unknown_knob_is_refused_with_the_lane_it_sits_in() {
    let mut v = minimal();
    v["steps"][0]["lanes"][1]["temprature"] = json!(0.7);
    let (path, msg) = refused(v);
    assert_eq!(path.as_deref(), Some("steps[0].lanes[1]"));
    assert!(
        msg.contains("temperature"),
        "suggests the knob meant: {msg}"
    );
}

#[test]
fn other_versions_non_json_and_oversized_files_say_what_they_are() {
    let mut v = minimal();
    v["version"] = json!(2);
    assert!(refused(v)
        .1
        .contains("lesson format 2; this page reads format 1"));
    let mut v = minimal();
    v.as_object_mut().unwrap().remove("version");
    assert!(matches!(parse_value(&v), Err(LessonError::NoVersion)));
    assert!(matches!(parse(b"<html>"), Err(LessonError::NotJson(_))));
    assert!(matches!(parse(b"[1, 2]"), Err(LessonError::NotAnObject)));
    let big = vec![b' '; MAX_LESSON_BYTES + 1];
    assert!(parse(&big)
        .unwrap_err()
        .to_string()
        .contains("at most 2 MB"));
}

#[test]
fn recordings_must_sit_beside_the_lesson_and_belong_to_their_step() {
    for bad in [
        "../secret.json",
        "/etc/passwd.json",
        "https://evil.example/run.json",
        "recordings/run.txt",
        "a//b.json",
        "C:\\run.json",
    ] {
        let mut v = minimal();
        v["steps"][0]["recording"] = json!(bad);
        assert_eq!(refused(v).0.as_deref(), Some("steps[0].recording"), "{bad}");
    }
    let mut v = minimal();
    v["steps"][0]["recording"] = json!("recordings/step-1.json");
    assert!(parse_value(&v).is_ok());
    let mut v = minimal();
    v["steps"][0]["recording"] = json!({"prompt_ids": [1], "prompt": "Another prompt", "runs": []});
    assert!(refused(v).1.contains("has 0 lanes and the step 2"));
    let mut v = minimal();
    v["steps"][0]["recording"] = json!({"prompt_ids": "x", "runs": []});
    assert_eq!(
        refused(v).0.as_deref(),
        Some("steps[0].recording.prompt_ids")
    );
}

#[test]
fn choices_need_options_and_an_answer_among_them() {
    let mut v = minimal();
    v["steps"][0]["questions"] = json!([{"kind": "choice", "ask": "Will lane 1 repeat?",
        "options": ["yes", "no"], "answer": 3}]);
    assert_eq!(
        refused(v).0.as_deref(),
        Some("steps[0].questions[0].answer")
    );
    let mut v = minimal();
    v["steps"][0]["questions"] =
        json!([{"kind": "choice", "ask": "?", "options": ["only"], "answer": 1}]);
    assert_eq!(
        refused(v).0.as_deref(),
        Some("steps[0].questions[0].options")
    );
    let mut v = minimal();
    v["steps"][0]["questions"] =
        json!([{"kind": "which_lane", "ask": "Which lane is greedy?", "answer": 1}]);
    assert!(parse_value(&v).is_ok());
}

#[test]
fn a_model_is_bundled_or_a_hub_repo_and_a_language_is_a_tag() {
    let mut v = minimal();
    v["model"] = json!("https://evil.example/model");
    assert_eq!(refused(v).0.as_deref(), Some("model"));
    let mut v = minimal();
    v["language"] = json!("english please");
    assert_eq!(refused(v).0.as_deref(), Some("language"));
    let mut v = minimal();
    v["language"] = json!("zh-CN");
    v["model"] = json!("Qwen/Qwen2.5-0.5B");
    assert!(parse_value(&v).is_ok());
}

#[test]
fn printed_output_is_matched_by_repo_or_by_its_bare_name() {
    let p = Printed {
        source: "Inference and Decoding".into(),
        model: "distilbert/distilgpt2".into(),
        lanes: vec![],
    };
    assert!(p.printed_on("distilbert/distilgpt2"));
    assert!(p.printed_on("distilgpt2"));
    assert!(!p.printed_on("someone/distilgpt2"));
    assert!(!p.printed_on("gpt2"));
}

/// The schema shipped at `dist/lesson.schema.json`.
const SCHEMA: &str = include_str!("../../../../www/lesson.schema.json");

#[test]
fn the_schema_lists_exactly_the_knobs_the_page_takes() {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    let names = |i: usize| -> Vec<String> {
        let mut v: Vec<String> = schema["$defs"]["lane"]["anyOf"][i]["propertyNames"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    let mut hf: Vec<String> = ntl_decoding::Knob::ALL
        .iter()
        .map(|k| <&str>::from(*k).to_string())
        .chain(["semantics".to_string()])
        .collect();
    hf.sort();
    let mut llama: Vec<String> = ntl_decoding::llama_cpp::LlamaCppKnob::ALL
        .iter()
        .map(|k| <&str>::from(*k).to_string())
        .collect();
    llama.sort();
    assert_eq!(names(0), hf);
    assert_eq!(names(1), llama);
    let mut tutorial: Vec<String> = ntl_decoding::tutorial::config::FIELDS
        .iter()
        .map(|f| f.to_string())
        .chain(["semantics".to_string()])
        .collect();
    tutorial.sort();
    assert_eq!(names(2), tutorial);
    assert_eq!(schema["properties"]["version"]["const"], FORMAT_VERSION);
    assert_eq!(
        schema["$defs"]["step"]["properties"]["lanes"]["maxItems"],
        crate::share::MAX_LANES
    );
}

#[test]
fn the_guides_complete_example_opens() {
    let guide = include_str!("../../../../docs/lessons.md");
    let json = guide
        .split("```json\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("docs/lessons.md has a JSON example");
    let l = parse(json.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.steps.len(), 2);
    assert_eq!(l.steps[0].questions.len(), 2);
    assert!(matches!(l.steps[0].recording, Some(Recording::File(_))));
}

#[test]
fn a_step_may_open_a_token_with_the_lens_counted_from_one() {
    let mut v = minimal();
    v["steps"][0]["open"] = json!({"step": 3, "lens": true});
    let l = parse_value(&v).unwrap();
    assert_eq!(
        l.steps[0].open,
        Some(OpenStep {
            step: 3,
            lens: true
        })
    );
    assert_eq!(parse(l.to_json().as_bytes()).unwrap(), l);
    v["steps"][0]["open"] = json!({"step": 0});
    let (path, msg) = refused(v.clone());
    assert_eq!(path.as_deref(), Some("steps[0].open.step"));
    assert!(msg.contains("counted from 1"), "{msg}");
    v["steps"][0]["open"] = json!({"step": 1, "layer": 2});
    assert!(refused(v).1.contains("layer"));
}

#[test]
fn a_step_may_grow_a_lanes_tree_within_the_trees_limits() {
    let mut v = minimal();
    let lanes = v["steps"][0]["lanes"].as_array().unwrap().len();
    v["steps"][0]["tree"] = json!({"lane": 1, "samples": 1000, "tokens": 4});
    let l = parse_value(&v).unwrap();
    assert_eq!(
        l.steps[0].tree,
        Some(TreeStep {
            lane: 1,
            samples: 1000,
            tokens: 4
        })
    );
    assert_eq!(parse(l.to_json().as_bytes()).unwrap(), l);
    for (tree, path, says) in [
        (
            json!({"lane": lanes + 1, "samples": 10, "tokens": 2}),
            "steps[0].tree.lane",
            "does not exist".to_string(),
        ),
        (
            json!({"lane": 1, "samples": 1001, "tokens": 2}),
            "steps[0].tree.samples",
            "it is 1001; it must be 1 to 1000".into(),
        ),
        (
            json!({"lane": 1, "samples": 10, "tokens": 0}),
            "steps[0].tree.tokens",
            "it is 0; it must be 1 to 16".into(),
        ),
    ] {
        v["steps"][0]["tree"] = tree;
        let (at, msg) = refused(v.clone());
        assert_eq!(at.as_deref(), Some(path));
        assert!(msg.contains(&says), "{msg}");
    }
    v["steps"][0]["tree"] = json!({"lane": 1, "samples": 10, "tokens": 2, "seed": 4});
    assert!(refused(v).1.contains("seed"));
}

#[test]
fn a_steps_lane_models_round_trip_and_a_hostile_or_extra_one_names_its_path() {
    let mut v = minimal();
    v["steps"][0]["lane_models"] = json!([null, "models/tutorial-minigpt/"]);
    let l = parse_value(&v).unwrap();
    assert_eq!(
        l.steps[0].lane_models,
        [None, Some("models/tutorial-minigpt/".to_string())]
    );
    assert_eq!(
        parse_value(&serde_json::from_str(&l.to_json()).unwrap()).unwrap(),
        l
    );
    v["steps"][0]["lane_models"] = json!([null, "../../secret/"]);
    let (path, message) = refused(v.clone());
    assert_eq!(
        path.as_deref(),
        Some("steps[0].lane_models[1]"),
        "{message}"
    );
    v["steps"][0]["lane_models"] = json!([null, null, "bundled"]);
    let (path, message) = refused(v);
    assert_eq!(path.as_deref(), Some("steps[0].lane_models"), "{message}");
}
