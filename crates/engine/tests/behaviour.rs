//! The lessons' facts and the engine's own promises: determinism, seeds,
//! context limits, prompts at the edges, streaming and cancel.

mod common;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use common::*;
use ntl_decoding::{Event, LaneConfig, StopReason};
use ntl_decoding::{LaneRequest, Options};
use ntl_engine::{Engine, RunInput};
use std::ops::ControlFlow;

fn cfg(json: &str) -> LaneConfig {
    LaneConfig::from_json(json).unwrap()
}

fn run(e: &Engine, prompt: &str, configs: &[&str]) -> ntl_decoding::Document {
    let lanes = configs
        .iter()
        .map(|c| LaneRequest {
            config: cfg(c),
            forced_ids: None,
        })
        .collect();
    e.run(
        RunInput {
            prompt: prompt.into(),
            lanes,
            options: Options {
                top_n: 10,
                shared_seed: None,
                negative_prompt: None,
                full_prompt: None,
                lens: false,
            },
            ..Default::default()
        },
        |_| ControlFlow::Continue(()),
    )
    .unwrap()
}

const P: &str = "The best way to learn programming is";

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn greedy_twice_gives_the_same_text() {
    let e = engine("tiny");
    let a = run(&e, P, &[r#"{"max_new_tokens": 12}"#]);
    let b = run(&e, P, &[r#"{"max_new_tokens": 12}"#]);
    assert_eq!(a.runs[0].text, b.runs[0].text);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn top_k_1_sampling_equals_greedy() {
    let e = engine("tiny");
    let d = run(
        &e,
        P,
        &[
            r#"{"max_new_tokens": 12}"#,
            r#"{"max_new_tokens": 12, "do_sample": true, "top_k": 1, "seed": 9}"#,
        ],
    );
    assert_eq!(d.runs[0].token_ids, d.runs[1].token_ids);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn same_seed_same_text_different_seeds_different_text() {
    let e = engine("tiny");
    let d = run(
        &e,
        P,
        &[
            r#"{"max_new_tokens": 12, "do_sample": true, "seed": 1}"#,
            r#"{"max_new_tokens": 12, "do_sample": true, "seed": 1}"#,
            r#"{"max_new_tokens": 12, "do_sample": true, "seed": 2}"#,
        ],
    );
    assert_eq!(d.runs[0].token_ids, d.runs[1].token_ids);
    assert_ne!(d.runs[0].token_ids, d.runs[2].token_ids);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn four_lanes_batched_equal_each_lane_run_alone() {
    let e = engine("tiny");
    batched_equals_alone(
        &e,
        &[
            r#"{"max_new_tokens": 10}"#,
            r#"{"max_new_tokens": 10, "do_sample": true, "temperature": 0.7, "top_p": 0.9, "seed": 4}"#,
            r#"{"max_new_tokens": 10, "num_beams": 3}"#,
            r#"{"max_new_tokens": 10, "penalty_alpha": 0.6, "top_k": 4}"#,
        ],
    );
}

/// Runs `configs` as lanes of one batch and each alone: the same tokens and,
/// step by step, the same table. Returns the batched run.
fn batched_equals_alone(e: &Engine, configs: &[&str]) -> ntl_decoding::Document {
    let together = run(e, P, configs);
    for (i, c) in configs.iter().enumerate() {
        let alone = run(e, P, &[c]);
        assert_eq!(
            together.runs[i].token_ids, alone.runs[0].token_ids,
            "lane {i}"
        );
        for (a, b) in together.runs[i].steps.iter().zip(&alone.runs[0].steps) {
            for (x, y) in a.top.iter().zip(&b.top) {
                assert_eq!(x.id, y.id);
                assert!(
                    (x.prob - y.prob).abs() < 1e-5,
                    "lane {i}: batched probabilities drift"
                );
            }
        }
    }
    together
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn generation_stops_with_context_full_at_n_positions() {
    let e = engine("tiny"); // 64 positions
                            // An empty eos list: nothing ends the run but the context.
    let d = run(&e, P, &[r#"{"max_new_tokens": 500, "eos_token_id": []}"#]);
    let r = &d.runs[0];
    assert_eq!(
        r.stop_reason,
        StopReason::ContextFull,
        "{:?}",
        r.stop_reason
    );
    assert_eq!(d.prompt_ids.len() + r.token_ids.len(), 64);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn an_over_long_prompt_is_cropped_from_the_left_and_reported() {
    let e = engine("tiny");
    let long = "word ".repeat(200);
    let d = run(&e, &long, &[r#"{"max_new_tokens": 10}"#]);
    assert!(d.prompt_cropped > 0);
    assert_eq!(d.prompt_ids.len() + 10, 64, "room left for the new tokens");
    assert_eq!(d.runs[0].token_ids.len(), 10);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn an_empty_prompt_starts_from_endoftext() {
    let e = engine("tiny");
    let d = run(&e, "", &[r#"{"max_new_tokens": 3}"#]);
    assert_eq!(d.prompt_ids, vec![50256]);
    assert_eq!(d.runs[0].token_ids.len(), 3);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn endoftext_typed_in_the_prompt_is_the_special_token() {
    let e = engine("tiny");
    assert_eq!(e.encode("<|endoftext|>").unwrap(), vec![50256]);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn probabilities_in_a_table_never_sum_above_one_and_the_funnel_ends_at_kept() {
    let e = engine("tiny");
    let d = run(
        &e,
        P,
        &[
            r#"{"max_new_tokens": 6, "do_sample": true, "top_k": 30, "top_p": 0.8, "temperature": 0.9, "seed": 2}"#,
        ],
    );
    for s in &d.runs[0].steps {
        let sum: f32 = s.top.iter().map(|c| c.prob).sum();
        assert!(sum <= 1.0 + 1e-5);
        assert_eq!(
            s.funnel.iter().map(|f| f.name.name()).collect::<Vec<_>>(),
            ["model", "temperature", "top_k", "top_p"]
        );
        assert_eq!(s.funnel.last().unwrap().kept, s.kept);
        assert!(s.funnel[2].kept <= 30 && s.funnel[3].kept <= s.funnel[2].kept);
        assert!(
            s.top
                .iter()
                .any(|c| c.id == s.token_id && c.score.is_some()),
            "the chosen token was kept"
        );
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn events_stream_every_step_and_a_break_cancels_all_lanes() {
    let e = engine("tiny");
    let lanes = vec![
        LaneRequest {
            config: cfg(r#"{"max_new_tokens": 30}"#),
            forced_ids: None,
        },
        LaneRequest {
            config: cfg(r#"{"max_new_tokens": 30, "num_beams": 2}"#),
            forced_ids: None,
        },
    ];
    let mut steps = 0;
    let doc = e
        .run(
            RunInput {
                prompt: P.into(),
                lanes,
                options: Options {
                    top_n: 5,
                    shared_seed: None,
                    negative_prompt: None,
                    full_prompt: None,
                    lens: false,
                },
                ..Default::default()
            },
            |ev| {
                if let Event::Step { .. } = ev {
                    steps += 1;
                }
                if steps >= 6 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
    assert!(doc
        .runs
        .iter()
        .all(|r| r.stop_reason == StopReason::Cancelled));
    assert!(
        doc.runs.iter().all(|r| r.steps.len() <= 4),
        "stopped within a step"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn shared_randomness_makes_identical_sampling_lanes_identical_whatever_their_seeds() {
    let e = engine("tiny");
    let lanes = vec![
        LaneRequest {
            config: cfg(r#"{"max_new_tokens": 10, "do_sample": true, "seed": 1}"#),
            forced_ids: None,
        },
        LaneRequest {
            config: cfg(r#"{"max_new_tokens": 10, "do_sample": true, "seed": 2}"#),
            forced_ids: None,
        },
    ];
    let d = e
        .run(
            RunInput {
                prompt: P.into(),
                lanes,
                options: Options {
                    top_n: 5,
                    shared_seed: Some(7),
                    negative_prompt: None,
                    full_prompt: None,
                    lens: false,
                },
                ..Default::default()
            },
            |_| ControlFlow::Continue(()),
        )
        .unwrap();
    assert_eq!(d.runs[0].token_ids, d.runs[1].token_ids);
    assert!(d.runs[0]
        .steps
        .iter()
        .zip(&d.runs[1].steps)
        .all(|(a, b)| a.draw == b.draw && a.draw.is_some()));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn invalid_knobs_are_reported_with_their_lane_and_field() {
    let e = engine("tiny");
    let lanes = vec![
        LaneRequest {
            config: cfg("{}"),
            forced_ids: None,
        },
        LaneRequest {
            config: cfg(r#"{"do_sample": true, "top_p": 1.5}"#),
            forced_ids: None,
        },
    ];
    let err = e
        .run(
            RunInput {
                prompt: P.into(),
                lanes,
                options: Options {
                    top_n: 5,
                    shared_seed: None,
                    negative_prompt: None,
                    full_prompt: None,
                    lens: false,
                },
                ..Default::default()
            },
            |_| ControlFlow::Continue(()),
        )
        .unwrap_err();
    match err {
        ntl_engine::RunError::Config { lane, source } => {
            assert_eq!((lane, source.field()), (1, Some("top_p")))
        }
        other => panic!("{other:?}"),
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn streamed_text_never_shows_a_broken_character() {
    let e = engine("tiny");
    // Force a crab emoji split over byte-level tokens.
    let forced = e.encode(" I like 🦀 crabs").unwrap();
    assert!(forced.len() > 4);
    let lanes = vec![LaneRequest {
        config: cfg("{}"),
        forced_ids: Some(forced),
    }];
    let mut texts = vec![];
    let doc = e
        .run(
            RunInput {
                prompt: P.into(),
                lanes,
                options: Options {
                    top_n: 5,
                    shared_seed: None,
                    negative_prompt: None,
                    full_prompt: None,
                    lens: false,
                },
                ..Default::default()
            },
            |ev| {
                if let Event::Step { text, .. } = ev {
                    texts.push(text);
                }
                ControlFlow::Continue(())
            },
        )
        .unwrap();
    assert!(texts.iter().all(|t| !t.contains('\u{FFFD}')), "{texts:?}");
    assert_eq!(texts.last().unwrap(), " I like 🦀 crabs");
    assert_eq!(doc.runs[0].text, " I like 🦀 crabs");
    assert_eq!(doc.runs[0].stop_reason, StopReason::ForcedEnd);
}

/// The same seed must give the same tokens natively and in wasm: these ids were
/// recorded natively (tests/fixtures/native-sampling.json) and both targets check them.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn seeded_sampling_gives_the_recorded_tokens_on_every_target() {
    let e = engine("tiny");
    let want = hf("native-sampling.json");
    for case in want["cases"].as_array().unwrap() {
        let config = case["config"].to_string();
        let d = run(&e, P, &[config.as_str()]);
        assert_eq!(d.runs[0].token_ids, ids(&case["token_ids"]), "{config}");
        let p0 = case["first_step_top_prob"].as_f64().unwrap() as f32;
        assert!((d.runs[0].steps[0].top[0].prob - p0).abs() < 1e-5);
    }
}

/// A sample tree grown natively (tests/fixtures/native-trees.json, made by
/// tests/reference/make_native_trees.py) grows the same on every target:
/// the same branches, the same counts.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_seeded_sample_tree_grows_the_recorded_branches_on_every_target() {
    let e = engine("tiny");
    let want = hf("native-trees.json");
    let case = &want["trees"][0];
    assert_eq!(case["model"], "tests/fixtures/models/tiny");
    let doc = e
        .tree(
            ntl_engine::TreeInput {
                prompt: case["prompt"].as_str().unwrap().into(),
                prompt_ids: None,
                lane: LaneRequest {
                    config: cfg(&case["config"].to_string()),
                    forced_ids: None,
                },
                samples: case["samples"].as_u64().unwrap() as usize,
                tokens: case["tokens"].as_u64().unwrap() as usize,
            },
            |_| ControlFlow::Continue(()),
        )
        .unwrap();
    let got: Vec<serde_json::Value> = doc
        .tree
        .nodes
        .iter()
        .map(|n| serde_json::json!([n.parent.map_or(-1, |p| p as i64), n.token_id, n.count]))
        .collect();
    assert_eq!(got, *case["nodes"].as_array().unwrap());
    assert_eq!(doc.tree.rows as u64, case["rows"].as_u64().unwrap());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_branch_from_given_ids_continues_like_the_run_it_came_from() {
    // Branching at step 4 with the token greedy chose there must reproduce greedy's tail.
    let e = engine("tiny");
    let whole = run(&e, P, &[r#"{"max_new_tokens": 10}"#]);
    let mut ids = whole.prompt_ids.clone();
    ids.extend(&whole.runs[0].token_ids[..5]);
    let req = RunInput {
        prompt: "ignored when ids are given".into(),
        lanes: vec![LaneRequest {
            config: cfg(r#"{"max_new_tokens": 5}"#),
            forced_ids: None,
        }],
        prompt_ids: Some(ids.clone()),
        ..Default::default()
    };
    let branch = e.run(req.clone(), |_| ControlFlow::Continue(())).unwrap();
    assert_eq!(branch.prompt_ids, ids);
    assert_eq!(branch.runs[0].token_ids, whole.runs[0].token_ids[5..]);
    let bad = RunInput {
        prompt_ids: Some(vec![1, 99_999]),
        ..req
    };
    assert!(e
        .run(bad, |_| ControlFlow::Continue(()))
        .unwrap_err()
        .to_string()
        .contains("outside the vocabulary"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_scored_text_is_followed_by_every_lane_with_each_lanes_own_probabilities() {
    let e = engine("tiny");
    let lanes = vec![
        LaneRequest {
            config: cfg("{}"),
            forced_ids: None,
        },
        LaneRequest {
            config: cfg(r#"{"do_sample": true, "top_k": 2}"#),
            forced_ids: None,
        },
    ];
    let req = RunInput {
        prompt: P.into(),
        lanes,
        forced_text: Some(" to read and write code".into()),
        ..Default::default()
    };
    let d = e.run(req.clone(), |_| ControlFlow::Continue(())).unwrap();
    let want = e.encode(" to read and write code").unwrap();
    for r in &d.runs {
        assert_eq!(r.token_ids, want);
        assert_eq!(r.stop_reason, StopReason::ForcedEnd);
        assert!(r.steps.iter().all(|s| s.forced));
    }
    // Greedy leaves every token possible; top_k=2 makes most of them impossible.
    assert!(d.runs[0].steps.iter().all(|s| s.chosen_prob > 0.0));
    let impossible = d.runs[1]
        .steps
        .iter()
        .filter(|s| s.chosen_prob == 0.0)
        .count();
    assert!(
        impossible > 0,
        "top_k=2 should exclude some of the text's tokens on a random model"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_whitespace_only_prompt_runs() {
    let d = run(&engine("tiny"), "  \n\t ", &[r#"{"max_new_tokens": 4}"#]);
    assert!(!d.prompt_ids.is_empty());
    assert_eq!(d.runs[0].token_ids.len(), 4);
}

/// Softmax rows use a hand-written `simd128` exp in wasm: it must give the
/// scalar `exp`'s bits (the ones native builds use), edges included, or seeded
/// runs recorded natively would not replay in the browser.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_row_exp_gives_the_scalar_exps_bits_on_every_target() {
    use ntl_decoding::exp::{exp, exp_shifted};
    let mut row: Vec<f32> = (0..20_003)
        .map(|i| -95.0 + 190.0 * i as f32 / 20_003.0)
        .collect();
    row.extend([
        f32::NEG_INFINITY,
        f32::INFINITY,
        f32::NAN,
        0.0,
        -0.0,
        -87.33,
        -87.3299,
        88.72,
        88.7201,
        1e-30,
    ]);
    for shift in [0.0f32, 3.25, -1.5] {
        let mut out = vec![0.0; row.len()];
        exp_shifted(&row, shift, &mut out);
        for (x, got) in row.iter().zip(&out) {
            let want = exp(x - shift);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "exp({x} - {shift}): {got} vs {want}"
            );
        }
    }
}

/// In wasm, up to 16 rows go through the small-batch kernel and longer
/// prompts through candle's gemm on the transposed weights (the HF parity
/// prompts are shorter): a 30-plus-token prompt in one pass must give the
/// logits that feeding it token by token through the cache gives.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_long_prompt_in_one_pass_matches_feeding_it_token_by_token() {
    use ntl_decoding::LanguageModel;
    let e = engine("tiny");
    let ids = e.encode("In the beginning God created the heaven and the earth. And the earth was without form, and void; and darkness was upon the face of the deep.").unwrap();
    assert!(ids.len() > 30, "{} tokens", ids.len());
    let whole = e.prefill(&ids).unwrap().logits;
    let mut f = e.prefill(&ids[..1]).unwrap();
    for &id in &ids[1..] {
        f = e.step(&f.cache, &[id]).unwrap();
    }
    let worst = whole
        .iter()
        .zip(&f.logits)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(worst <= 1e-4, "largest difference {worst}");
}

/// A run asks the cache for room and its steps then write in place: the
/// logits must be those of a cache grown by copying, for two lanes' rows,
/// and for two continuations of one cache (a value: neither sees the
/// other's positions).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_cache_with_room_gives_the_logits_of_one_grown_by_copying() {
    use ntl_decoding::LanguageModel;
    for name in ["tiny", "tiny-llama"] {
        let e = engine(name);
        let pre = e.prefill(&[464, 3290, 286, 262]).unwrap();
        let copied = e.select(&pre.cache, &[0, 0]).unwrap();
        let roomy = e
            .select(&e.with_room(pre.cache.clone(), 6).unwrap(), &[0, 0])
            .unwrap();
        let (mut a, mut b) = (copied, roomy);
        for step in 0..8u32 {
            let tokens = [11 + step, 40 + step];
            let fa = e.step(&a, &tokens).unwrap();
            let fb = e.step(&b, &tokens).unwrap();
            assert_eq!(fa.logits, fb.logits, "{name} step {step}");
            // A second continuation of `b`, before `b`'s own goes on.
            let other = e.step(&b, &[7, 7]).unwrap();
            let again = e.step(&a, &[7, 7]).unwrap();
            assert_eq!(
                other.logits, again.logits,
                "{name} step {step}, the other way"
            );
            (a, b) = (fa.cache, fb.cache);
        }
    }
}

/// The sandbox moves knobs over one step's distribution: for the same
/// context and knobs it must show what a lane run with them recorded.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_sandbox_on_a_recorded_step_shows_what_the_lane_recorded() {
    use ntl_decoding::observe::Input;
    use ntl_decoding::processors::Context;
    use ntl_decoding::sandbox::{config, what_if, Keeping};
    use ntl_decoding::step_context::step_context;
    use ntl_decoding::Knob;
    let e = engine("tiny");
    let same_table = |shown: &ntl_decoding::Step, recorded: &ntl_decoding::Step, what: &str| {
        assert_eq!(shown.kept, recorded.kept, "{what}");
        for c in &recorded.top {
            let d = shown.top.iter().find(|d| d.id == c.id).expect("same table");
            assert!(
                (c.prob - d.prob).abs() <= 1e-6 && (c.raw_prob - d.raw_prob).abs() <= 1e-6,
                "{what} token {}: recorded {} / {}, sandbox {} / {}",
                c.id,
                c.raw_prob,
                c.prob,
                d.raw_prob,
                d.prob
            );
        }
    };
    // Beam lanes: a table is one beam's row, the knobs act on
    // log-probabilities, and when beams sample each warper leaves one token
    // more than the lane's eos ids (the model's when it names none).
    let model_eos = Keeping::PerBeam {
        eos_token_ids: e.eos_token_ids().to_vec(),
    };
    let two_eos = Keeping::PerBeam {
        eos_token_ids: vec![13, 50256],
    };
    // (the lane, the same knobs in the sandbox, what its beams keep)
    type BeamLane<'a> = (&'a str, &'a [(Knob, f64)], &'a Keeping);
    let beam_lanes: [BeamLane; 3] = [
        (
            r#"{"num_beams": 3, "repetition_penalty": 1.3, "max_new_tokens": 8}"#,
            &[(Knob::RepetitionPenalty, 1.3)],
            &model_eos,
        ),
        (
            r#"{"num_beams": 3, "do_sample": true, "top_k": 0, "temperature": 0.7,
                "top_p": 0.3, "eos_token_id": [13, 50256], "max_new_tokens": 8, "seed": 5}"#,
            &[(Knob::Temperature, 0.7), (Knob::TopP, 0.3)],
            &two_eos,
        ),
        (
            r#"{"num_beams": 2, "do_sample": true, "top_k": 0, "min_p": 0.6,
                "max_new_tokens": 8, "seed": 2}"#,
            &[(Knob::MinP, 0.6)],
            &model_eos,
        ),
    ];
    let mut floor_binds = 0;
    for (lane, settings, keeping) in beam_lanes {
        let doc = run(&e, P, &[lane]);
        let cfg = config(settings, keeping).unwrap();
        let one = config(settings, &Keeping::One).unwrap();
        let steps = &doc.runs[0].steps;
        for (at, recorded) in steps.iter().enumerate() {
            let mut ids = doc.prompt_ids.clone();
            ids.extend(step_context(steps, at).unwrap());
            let ctx = Context::new(&ids, doc.prompt_ids.len());
            let logits = e.logits(&ids).unwrap();
            let shown = |cfg| {
                what_if(
                    &logits,
                    ctx,
                    Some(recorded.token_id),
                    Input::LogProbs,
                    cfg,
                    &e.tokenizer_vocab(),
                    10,
                )
            };
            same_table(&shown(&cfg), recorded, &format!("{lane} step {at}"));
            if shown(&one).kept < recorded.kept {
                floor_binds += 1;
            }
        }
    }
    // The floor is what made the sampling beams' tables differ from a
    // sampling lane's: the test must see it act.
    assert!(
        floor_binds > 0,
        "no step kept more than a sampling lane would"
    );
    let settings: [&[(Knob, f64)]; 3] = [
        &[(Knob::Temperature, 0.7), (Knob::TopP, 0.9)],
        &[(Knob::RepetitionPenalty, 1.3), (Knob::TopK, 10.0)],
        &[
            (Knob::Temperature, 1.5),
            (Knob::MinP, 0.05),
            (Knob::TypicalP, 0.9),
        ],
    ];
    for s in settings {
        let mut json =
            serde_json::json!({ "do_sample": true, "top_k": 0, "max_new_tokens": 6, "seed": 3 });
        for (knob, v) in s {
            json[knob.name()] = serde_json::json!(v);
        }
        if let Some(k) = s.iter().find(|(k, _)| *k == Knob::TopK) {
            json["top_k"] = serde_json::json!(k.1 as i64);
        }
        let doc = run(&e, P, &[&json.to_string()]);
        let lane = &doc.runs[0];
        let cfg = config(s, &Keeping::One).unwrap();
        for (at, recorded) in lane.steps.iter().enumerate() {
            let mut ids = doc.prompt_ids.clone();
            ids.extend(&lane.token_ids[..at]);
            let logits = e.logits(&ids).unwrap();
            let ctx = Context::new(&ids, doc.prompt_ids.len());
            let shown = what_if(
                &logits,
                ctx,
                Some(recorded.token_id),
                Input::Logits,
                &cfg,
                &e.tokenizer_vocab(),
                10,
            );
            assert_eq!(shown.funnel.len(), recorded.funnel.len(), "{s:?}");
            for (a, b) in shown.funnel.iter().zip(&recorded.funnel) {
                assert_eq!((a.name, a.kept), (b.name, b.kept), "{s:?} step {at}");
            }
            same_table(&shown, recorded, &format!("{s:?} step {at}"));
        }
    }
}

/// The token inspector: after the prompt's last token the model predicts
/// what step 1 of any lane starts from.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn predictions_at_the_last_prompt_position_are_step_ones_raw_table() {
    let e = engine("tiny");
    let doc = run(&e, P, &[r#"{"max_new_tokens": 1}"#]);
    let ids = e.encode(P).unwrap();
    assert_eq!(doc.prompt_ids, ids, "the inspector's ids are the run's");
    let predictions = e.inspect(&ids, 5).unwrap();
    assert_eq!(predictions.len(), ids.len());
    // Every position but the last knows the token that followed.
    for (i, p) in predictions.iter().enumerate() {
        assert_eq!(p.actual.map(|a| a.id), ids.get(i + 1).copied());
        assert_eq!(p.top.len(), 5);
    }
    let last = predictions.last().unwrap();
    let step = &doc.runs[0].steps[0];
    for (guess, row) in last.top.iter().zip(&step.top) {
        assert_eq!(guess.id, row.id);
        assert!(
            (guess.prob - row.raw_prob).abs() <= 1e-6,
            "{} vs {}",
            guess.prob,
            row.raw_prob
        );
    }
    // A position's rank is where its actual token stands in that row.
    let first = &predictions[0];
    let a = first.actual.unwrap();
    assert!(a.rank >= 1 && a.prob <= first.top[0].prob);
    if a.rank == 1 {
        assert_eq!(first.top[0].id, a.id);
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_beam_steps_table_is_the_row_of_the_beam_its_records_trace_back_to() {
    let e = engine("tiny");
    let d = run(&e, P, &[r#"{"max_new_tokens": 12, "num_beams": 4}"#]);
    let steps = &d.runs[0].steps;
    let mut off_the_final_path = 0;
    for (i, s) in steps.iter().enumerate() {
        let ctx = ntl_decoding::step_context::step_context(steps, i).expect("traces back");
        assert_eq!(ctx.len(), i);
        if ctx[..] != d.runs[0].token_ids[..i.min(d.runs[0].token_ids.len())] {
            off_the_final_path += 1;
        }
        let mut ids = d.prompt_ids.clone();
        ids.extend(&ctx);
        let row = e.logits(&ids).unwrap();
        for c in &s.top {
            assert!(
                (row[c.id as usize] - c.logit).abs() < 1e-3,
                "step {i}: token {} has logit {} after the traced beam, the table says {}",
                c.id,
                row[c.id as usize],
                c.logit
            );
        }
    }
    // The run must exercise a best beam that is not the final text's prefix.
    assert!(off_the_final_path > 0, "no step left the final path");
}

/// Guided lanes share one unconditional cache, row per lane: batched with
/// other lanes they decode as they do alone; a negative prompt that cannot
/// fit beside the new tokens is refused with a clear message.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn guided_lanes_batched_equal_each_alone_and_an_overlong_negative_prompt_is_refused() {
    let e = engine("tiny");
    let together = batched_equals_alone(
        &e,
        &[
            r#"{"max_new_tokens": 8, "guidance_scale": 1.5}"#,
            r#"{"max_new_tokens": 8}"#,
            r#"{"max_new_tokens": 5, "do_sample": true, "guidance_scale": 2.5, "seed": 3}"#,
            r#"{"max_new_tokens": 8, "num_beams": 2}"#,
        ],
    );
    assert_ne!(together.runs[0].token_ids, together.runs[1].token_ids);
    let long = RunInput {
        prompt: P.into(),
        lanes: vec![LaneRequest {
            config: cfg(r#"{"max_new_tokens": 40, "guidance_scale": 2.0}"#),
            forced_ids: None,
        }],
        negative_prompt: Some("word ".repeat(40)),
        ..Default::default()
    };
    let err = e.run(long, |_| ControlFlow::Continue(())).unwrap_err();
    assert!(err.to_string().contains("negative prompt"), "{err}");
}

/// DoLa lanes read early exits from their own rows: batched beside a plain
/// lane, a diverse beam lane and a several-samples DoLa lane, each decodes
/// as alone; a layer list the model cannot serve is refused by the knob's name.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn dola_lanes_batched_equal_each_alone_and_a_missing_layer_is_refused() {
    let e = engine("tiny");
    let together = batched_equals_alone(
        &e,
        &[
            r#"{"max_new_tokens": 8, "dola_layers": [0, 1]}"#,
            r#"{"max_new_tokens": 8}"#,
            r#"{"max_new_tokens": 6, "num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1.0}"#,
            r#"{"max_new_tokens": 8, "do_sample": true, "dola_layers": "high", "seed": 2, "num_return_sequences": 2}"#,
        ],
    );
    assert_ne!(together.runs[0].token_ids, together.runs[1].token_ids);
    assert!(together.runs[3].sequences[1]
        .steps
        .iter()
        .all(|s| s.dola.is_some()));
    let far = RunInput {
        prompt: P.into(),
        lanes: vec![LaneRequest {
            config: cfg(r#"{"dola_layers": [2, 5]}"#),
            forced_ids: None,
        }],
        ..Default::default()
    };
    let err = e.run(far, |_| ControlFlow::Continue(())).unwrap_err();
    assert!(
        err.to_string().contains("dola_layers") && err.to_string().contains("from 0 to 1"),
        "{err}"
    );
}

/// `num_return_sequences` with sampling: n samples in one lane, the first
/// the lane's own text (the one-sample lane's, seed for seed), each with its
/// own steps, each from its own random stream.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn sampling_several_sequences_gives_each_its_own_text_and_steps() {
    let e = engine("tiny");
    let one = r#"{"max_new_tokens": 10, "do_sample": true, "top_k": 0, "seed": 5}"#;
    let three = r#"{"max_new_tokens": 10, "do_sample": true, "top_k": 0, "seed": 5, "num_return_sequences": 3}"#;
    let d = run(&e, P, &[one, three, r#"{"max_new_tokens": 10}"#]);
    let (single, many) = (&d.runs[0], &d.runs[1]);
    assert_eq!(many.sequences.len(), 3);
    assert_eq!(
        many.token_ids, single.token_ids,
        "the first sample is the lane's"
    );
    assert_eq!(many.steps.len(), many.token_ids.len());
    for s in &many.sequences[1..] {
        assert_eq!(s.steps.len(), s.token_ids.len());
        assert_ne!(s.token_ids, many.token_ids, "another stream, another text");
    }
    assert_ne!(many.sequences[1].token_ids, many.sequences[2].token_ids);
    // The greedy lane beside them is untouched by the extra rows.
    let greedy = run(&e, P, &[r#"{"max_new_tokens": 10}"#]);
    assert_eq!(d.runs[2].token_ids, greedy.runs[0].token_ids);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_llama_cpp_lane_records_its_chain_in_order_beside_an_hf_lane_with_the_same_names() {
    let e = engine("tiny");
    let same = r#""temperature": 0.8, "top_k": 40, "top_p": 0.95, "min_p": 0.05"#;
    let hf = format!(r#"{{"do_sample": true, "seed": 1, "max_new_tokens": 6, {same}}}"#);
    let llama = format!(
        r#"{{"semantics": "llama.cpp", "seed": 1, "n_predict": 6, "repeat_penalty": 1.1, {same}}}"#
    );
    let doc = run(&e, "The best way to learn programming is", &[&hf, &llama]);
    let (hf_run, llama_run) = (&doc.runs[0], &doc.runs[1]);
    assert_eq!(llama_run.mode, ntl_decoding::Mode::LlamaCpp);
    assert_eq!(llama_run.token_ids.len(), 6);
    let stages: Vec<String> = llama_run.steps[0]
        .funnel
        .iter()
        .map(|f| f.name.to_string())
        .collect();
    assert_eq!(
        stages,
        [
            "model",
            "llama.cpp:penalties",
            "llama.cpp:top_k",
            "llama.cpp:top_p",
            "llama.cpp:min_p",
            "llama.cpp:temperature"
        ],
        "llama.cpp's order: temperature last"
    );
    let hf_stages: Vec<String> = hf_run.steps[0]
        .funnel
        .iter()
        .map(|f| f.name.to_string())
        .collect();
    assert_eq!(hf_stages[1], "temperature", "HF's order: temperature first");
    for step in &llama_run.steps {
        // `kept` is what survives the chain; the table's probabilities are
        // the softmax over the survivors (what dist draws from).
        let kept = step.funnel.last().unwrap().kept;
        assert_eq!(step.kept, kept);
        assert!(step.kept <= 40);
        let listed: f32 = step
            .top
            .iter()
            .filter(|c| c.prob > 0.0)
            .map(|c| c.prob)
            .sum();
        assert!(listed <= 1.0 + 1e-5 && listed > 0.5, "{listed}");
        assert!(step
            .top
            .iter()
            .any(|c| c.id == step.token_id && c.prob > 0.0));
    }
    // The document carries the lane's semantics and reads back.
    let json = serde_json::to_value(&doc).unwrap();
    assert_eq!(json["runs"][1]["config"]["semantics"], "llama.cpp");
    let back: ntl_decoding::Document = serde_json::from_value(json).unwrap();
    assert_eq!(back.runs[1].config, llama_run.config);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_llama_cpp_lane_follows_forced_ids_and_its_temperature_zero_is_greedy_over_the_chain() {
    let e = engine("tiny");
    let prompt = "The history of computers is";
    let greedy = run(&e, prompt, &[r#"{"max_new_tokens": 5}"#]);
    let zero = run(
        &e,
        prompt,
        &[r#"{"semantics": "llama.cpp", "temperature": 0, "n_predict": 5}"#],
    );
    assert_eq!(
        zero.runs[0].token_ids, greedy.runs[0].token_ids,
        "no penalties: plain argmax"
    );
    assert!(zero.runs[0].steps.iter().all(|s| s.kept == 1));
    let forced = vec![11, 290, 262];
    let out = e
        .run(
            RunInput {
                prompt: prompt.into(),
                lanes: vec![LaneRequest {
                    config: cfg(r#"{"semantics": "llama.cpp", "seed": 3}"#),
                    forced_ids: Some(forced.clone()),
                }],
                options: Options::default(),
                ..Default::default()
            },
            |_| ControlFlow::Continue(()),
        )
        .unwrap();
    assert_eq!(out.runs[0].token_ids, forced);
    assert!(out.runs[0].steps.iter().all(|s| s.forced));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_llama_cpp_lanes_bad_knobs_are_refused_by_their_llama_cpp_names() {
    let e = engine("tiny");
    let refuse = |c: &str| {
        e.run(
            RunInput {
                prompt: "Hi".into(),
                lanes: vec![LaneRequest {
                    config: cfg(c),
                    forced_ids: None,
                }],
                ..Default::default()
            },
            |_| ControlFlow::Continue(()),
        )
        .unwrap_err()
        .to_string()
    };
    let m = refuse(r#"{"semantics": "llama.cpp", "logit_bias": [[60000, 1]]}"#);
    assert!(m.contains("outside the vocabulary"), "{m}");
    assert!(
        LaneConfig::from_json(r#"{"semantics": "llama.cpp", "repetition_penalty": 1.1}"#)
            .unwrap_err()
            .to_string()
            .contains("repeat_penalty")
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_beam_lanes_infinite_scores_cross_json_and_read_back() {
    // forced_eos_token_id leaves beams that can only end: their scores are
    // -inf, which serde_json used to write as null and no f32 reads back, so
    // the worker's step could not reach the page.
    let e = engine("tiny");
    let d = run(
        &e,
        P,
        &[r#"{"num_beams": 3, "max_new_tokens": 4, "forced_eos_token_id": 50256}"#],
    );
    let scores: Vec<f32> = d.runs[0]
        .steps
        .iter()
        .flat_map(|s| s.beams.iter().flatten().map(|b| b.score))
        .collect();
    assert!(scores.contains(&f32::NEG_INFINITY), "{scores:?}");
    let json = serde_json::to_string(&d).unwrap();
    assert!(json.contains(r#""score":"-inf""#));
    let back: ntl_decoding::Document = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_llama_cpp_lanes_text_ends_before_its_stop_word_as_llama_servers_content_does() {
    let e = engine("tiny");
    let lane = |stop: &str| {
        format!(r#"{{"semantics": "llama.cpp", "seed": 1, "n_predict": 12, "top_k": 1{stop}}}"#)
    };
    let prompt = "The best way to learn programming is";
    let full = run(&e, prompt, &[&lane("")]).runs.remove(0);
    let word = full.steps[3].token.trim().to_string();
    assert!(!word.is_empty(), "{:?}", full.steps[3].token);
    let stopped = run(&e, prompt, &[&lane(&format!(r#", "stop": ["{word}"]"#))])
        .runs
        .remove(0);
    assert_eq!(stopped.stop_reason, ntl_decoding::StopReason::StopString);
    let at = full.text.find(&word).unwrap();
    assert_eq!(
        stopped.text,
        full.text[..at],
        "the content stops before {word:?}"
    );
    // The tokens that wrote the word were generated, and stay in the record.
    assert!(full.token_ids.starts_with(&stopped.token_ids));
    assert!(stopped.token_ids.len() <= 4);
    assert!(e
        .tokenizer_vocab()
        .decode(&stopped.token_ids)
        .contains(&word));
}
