use super::*;
use serde_json::json;

#[test]
fn a_refused_knob_is_reported_next_to_it_and_blocks_the_run() {
    let mut e = Editor::default();
    e.set_knob(1, Knob::Temperature, "0");
    let err = e.errors[1].clone().expect("temperature 0 while sampling");
    assert!(e.open[1], "the editor unfolds to show the knob at fault");
    assert_eq!(err.field.as_deref(), Some("temperature"));
    assert!(
        err.message.to_string().contains("strictly positive"),
        "{}",
        err.message
    );
    assert_eq!(e.lane_requests(None), None);
    e.set_knob(1, Knob::Temperature, "0.5");
    assert_eq!(e.errors[1], None);
    let lanes = e.lane_requests(None).expect("all valid");
    assert_eq!(lanes[1].config.transformers().unwrap().temperature, 0.5);
}

/// Qwen2.5-0.5B-Instruct's generation_config.json.
fn qwen_instruct() -> ModelDefaults {
    ModelDefaults::from_json(
        br#"{"bos_token_id": 151643, "do_sample": true, "eos_token_id": [151645, 151643],
        "repetition_penalty": 1.1, "temperature": 0.7, "top_p": 0.8, "top_k": 20,
        "transformers_version": "4.37.0"}"#,
    )
    .unwrap()
}

#[test]
fn every_preset_runs_over_an_instruct_models_generation_config_and_its_beams_sample() {
    let model = qwen_instruct();
    let steps: Vec<(String, LessonStep)> = lessons::built_in(|all| {
        all.iter()
            .flat_map(|b| {
                b.lesson
                    .steps
                    .iter()
                    .map(|s| (b.lesson.title.clone(), s.clone()))
            })
            .collect()
    });
    for (title, step) in steps {
        let mut e = Editor::default();
        e.apply_step(&step);
        let lanes = e.lane_requests(Some(&model));
        assert!(
            lanes.is_some(),
            "{title}: {:?}",
            e.errors.iter().flatten().collect::<Vec<_>>()
        );
    }
    let mut e = Editor::default();
    e.apply_step(&lessons::built_in_step("Beam search vs greedy", 0));
    let modes: Vec<Mode> = (0..LANES)
        .map(|l| {
            e.outlook(l, Some(&model))
                .starts_from
                .clone()
                .expect("the file sets knobs")
                .mode
        })
        .collect();
    assert_eq!(
        modes,
        [
            Mode::Sample,
            Mode::BeamSample,
            Mode::BeamSample,
            Mode::BeamSample
        ],
        "HF's generate() samples every lane here, the beams included"
    );
}

#[test]
fn warnings_read_the_knobs_as_the_lane_runs_them_over_the_models_file() {
    let model = qwen_instruct();
    let mut e = Editor::default();
    e.set_json(0, r#"{"temperature": 0.5}"#);
    let fields = |e: &Editor| -> Vec<&'static str> {
        e.outlook(0, Some(&model))
            .warnings
            .iter()
            .map(|n| n.field)
            .collect()
    };
    // The file's do_sample makes the lane sample: its temperature acts.
    assert!(!fields(&e).contains(&"temperature"), "{:?}", fields(&e));
    // From the library's defaults alone it decodes greedily, and says so.
    e.set_starts_from(0, Defaults::Library);
    assert!(fields(&e).contains(&"temperature"));
    // Greedy over the file: the file's warpers do nothing, and the
    // warning says where they came from.
    e.set_starts_from(0, Defaults::Model);
    e.set_json(0, r#"{"do_sample": false}"#);
    let outlook = e.outlook(0, Some(&model));
    let top_p = outlook
        .warnings
        .iter()
        .find(|n| n.field == "top_p")
        .expect("top_p from the file does nothing while greedy");
    assert!(top_p.from_file, "{top_p:?}");
}

#[test]
fn an_outlook_is_kept_until_the_lane_its_choice_or_the_model_changes() {
    let model = qwen_instruct();
    let mut e = Editor::default();
    let first = e.outlook(1, Some(&model));
    assert!(
        first == e.outlook(1, Some(&model)),
        "same pointer while nothing changed"
    );
    e.set_knob(1, Knob::Temperature, "0.3");
    let after_knob = e.outlook(1, Some(&model));
    assert!(first != after_knob);
    e.set_starts_from(1, Defaults::Library);
    assert!(after_knob != e.outlook(1, Some(&model)));
    let plain = e.outlook(1, None);
    assert_eq!(
        plain.starts_from, None,
        "no model file, nothing to start from"
    );
}

#[test]
fn a_lane_that_sets_nothing_runs_with_the_models_generation_config_as_generate_does() {
    let model = qwen_instruct();
    let mut e = Editor::default();
    e.set_json(0, "{}");
    let starts = e
        .outlook(0, Some(&model))
        .starts_from
        .clone()
        .expect("the file sets knobs");
    assert_eq!(starts.choice, Defaults::Model);
    assert_eq!(starts.mode, Mode::Sample);
    assert_eq!(starts.other_mode, Some(Mode::Greedy));
    assert!(
        starts.taken.contains(&"temperature 0.7".to_string()),
        "{:?}",
        starts.taken
    );
    let lanes = e.lane_requests(Some(&model)).expect("valid");
    let c = lanes[0].config.transformers().unwrap();
    assert!(c.do_sample);
    assert_eq!((c.temperature, c.top_k, c.top_p), (0.7, Some(20), 0.8));
    assert_eq!(c.repetition_penalty, 1.1);
    // The end-of-turn token stops it, as the file says.
    assert_eq!(
        lanes[0].config.to_value()["eos_token_id"],
        json!([151645, 151643])
    );

    // The library's defaults alone: greedy, as without the file.
    e.set_starts_from(0, Defaults::Library);
    let lanes = e.lane_requests(Some(&model)).expect("valid");
    assert!(!lanes[0].config.transformers().unwrap().do_sample);
    let starts = e.outlook(0, Some(&model)).starts_from.clone().unwrap();
    assert_eq!(
        (starts.mode, starts.other_mode),
        (Mode::Greedy, Some(Mode::Sample))
    );
}

#[test]
fn the_lanes_own_knobs_win_and_a_file_with_only_eos_is_not_mentioned() {
    let model = qwen_instruct();
    let mut e = Editor::default();
    e.set_json(0, r#"{"do_sample": false, "temperature": 1.3}"#);
    let starts = e.outlook(0, Some(&model)).starts_from.clone().unwrap();
    assert_eq!(starts.mode, Mode::Greedy);
    assert!(!starts
        .taken
        .iter()
        .any(|k| k.starts_with("temperature") || k.starts_with("do_sample")));
    let lanes = e.lane_requests(Some(&model)).expect("valid");
    let c = lanes[0].config.transformers().unwrap();
    assert_eq!(
        (c.do_sample, c.temperature, c.top_k),
        (false, 1.3, Some(20))
    );
    let gpt2 =
        ModelDefaults::from_json(br#"{"bos_token_id": 50256, "eos_token_id": 50256}"#).unwrap();
    assert_eq!(e.outlook(0, Some(&gpt2)).starts_from.clone(), None);
    assert_eq!(e.outlook(0, None).starts_from.clone(), None);
}

#[test]
fn a_share_link_keeps_which_lanes_start_from_the_librarys_defaults() {
    let mut e = Editor::default();
    e.set_starts_from(2, Defaults::Library);
    let link = e.shared(Some("Qwen/Qwen2.5-0.5B-Instruct".into()), false);
    assert_eq!(link.library_defaults, [2]);
    let mut other = Editor::default();
    other.set_starts_from(0, Defaults::Library);
    other.apply_shared(ntl_protocol::share::decode(&ntl_protocol::share::encode(&link)).unwrap());
    assert_eq!(other.starts_from, e.starts_from);
    let hostile = Shared {
        library_defaults: vec![1, 99],
        ..link
    };
    other.apply_shared(hostile);
    assert_eq!(
        other.starts_from,
        [
            Defaults::Model,
            Defaults::Library,
            Defaults::Model,
            Defaults::Model
        ]
    );
}

#[test]
fn a_lane_valid_alone_but_not_over_the_models_knobs_is_refused_next_to_it() {
    let model = qwen_instruct();
    let mut e = Editor::default();
    e.set_json(2, r#"{"temperature": 0}"#);
    assert_eq!(e.errors[2], None, "greedy alone: temperature is unused");
    assert_eq!(e.lane_requests(Some(&model)), None);
    let err = e.errors[2].clone().expect("sampling with temperature 0");
    assert_eq!(err.field.as_deref(), Some("temperature"));
    assert!(e.open[2]);
    e.set_starts_from(2, Defaults::Library);
    assert!(e.lane_requests(Some(&model)).is_some());
}

#[test]
fn reroll_moves_every_sampling_seed_and_the_shared_one_on() {
    let mut e = Editor::default();
    let seeds = |e: &Editor| {
        e.lanes
            .iter()
            .map(|l| l.hf().unwrap().seed)
            .collect::<Vec<_>>()
    };
    assert_eq!(seeds(&e), [None, Some(0), Some(0), None]);
    e.reroll();
    assert_eq!(seeds(&e), [None, Some(1), Some(1), None]);
    assert_eq!(e.shared_seed, 1);
}

#[test]
fn a_preset_comparing_seeds_turns_shared_randomness_off() {
    let mut e = Editor {
        shared_randomness: true,
        ..Default::default()
    };
    assert!(
        !e.seeds_differ(),
        "the first preset's sampling lanes share seed 0"
    );
    e.apply_step(&lessons::built_in_step("Seeds at low temperature", 0));
    assert!(e.seeds_differ());
    assert!(
        !e.shared_randomness,
        "three identical lanes would teach nothing"
    );
    e.shared_randomness = true;
    e.apply_step(&lessons::built_in_step("Four runs, one prompt", 0));
    assert!(
        e.shared_randomness,
        "a preset with one seed leaves it as it was"
    );
}

#[test]
fn editing_the_prompt_drops_a_branchs_ids() {
    let mut e = Editor::default();
    e.branch_to("text".into(), vec![1, 2]);
    e.set_prompt("other".into());
    assert_eq!(e.branch_ids, None);
}

#[test]
fn a_share_link_round_trips_and_a_link_with_fewer_lanes_shows_that_many() {
    let mut e = Editor::default();
    e.set_knob(0, Knob::MaxNewTokens, "7");
    e.shared_randomness = true;
    e.score_text = " to read".into();
    e.set_knob(1, Knob::GuidanceScale, "2");
    e.negative_prompt = "a dull answer".into();
    let link = e.shared(Some("bundled".into()), true);
    let mut other = Editor::default();
    other.apply_step(&lessons::built_in_step("Repetition: penalty and stop", 0));
    assert!(other.apply_shared(link));
    assert_eq!(other.lanes, e.lanes);
    assert_eq!(
        other.negative_prompt, "a dull answer",
        "guided lanes keep their negative prompt"
    );
    assert_eq!(
        (other.shared_seed(), other.score_text.as_str()),
        (Some(0), " to read")
    );

    let one_lane = Shared {
        lanes: vec![LaneKnobs::from_value(json!({"do_sample": true})).unwrap()],
        ..Default::default()
    };
    assert!(!other.apply_shared(one_lane));
    assert_eq!(other.lanes[0].mode(), Mode::Sample);
    assert_eq!(other.count, 1, "the link's one lane, not four");
    assert_eq!(other.lane_requests(None).map(|l| l.len()), Some(1));
    assert_eq!(other.shared(None, false).lanes.len(), 1, "and back");
    // The others keep the first preset's configs, for *Add a lane*.
    assert_eq!(other.lanes[3], Editor::default().lanes[3]);
    let no_lanes = Shared::default();
    let _ = other.apply_shared(no_lanes);
    assert_eq!(other.count, LANES, "an empty list: the default four");
}

#[test]
fn a_lesson_step_runs_and_links_its_own_lanes_and_a_lane_can_be_added_and_removed() {
    let mut e = Editor::default();
    let two = lessons::built_in_step("Logits and the four knobs between them and words", 1);
    assert_eq!(two.lanes.len(), 2);
    e.apply_step(&two);
    assert_eq!(e.count, 2);
    assert_eq!(e.lane_requests(None).map(|l| l.len()), Some(2));
    assert_eq!(e.shared(None, false).lanes.len(), 2);
    // A fault in a lane that does not run cannot stop the run.
    e.set_knob(3, Knob::Temperature, "0");
    e.set_knob(3, Knob::DoSample, "true");
    assert!(e.errors[3].is_some(), "lane 4 is at fault");
    assert_eq!(e.lane_requests(None).map(|l| l.len()), Some(2));

    e.add_lane();
    assert_eq!(e.count, 3);
    assert_eq!(e.lanes[2], e.lanes[1], "a copy of the last lane");
    e.add_lane();
    e.add_lane();
    assert_eq!(e.count, LANES, "at most four");
    for _ in 0..5 {
        e.remove_lane();
    }
    assert_eq!(e.count, 1, "one stays");
    assert_eq!(e.lane_requests(None).map(|l| l.len()), Some(1));
}

#[test]
fn a_pasted_config_that_is_not_json_is_reported_and_the_lane_kept() {
    let mut e = Editor::default();
    let before = e.lanes[2].clone();
    e.set_json(2, "{not json");
    assert!(e.errors[2]
        .as_ref()
        .unwrap()
        .message
        .to_string()
        .contains("not valid JSON"));
    assert_eq!(e.lanes[2], before);
}
