//! The engine against HF transformers on the same checkpoints (fixtures made by
//! tests/reference/make_fixtures.py): logits, every knob's token ids, beam
//! scores, contrastive search, and the processed distributions of sampling.

mod common;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use common::*;
use ntl_decoding::{GenerationConfig, LanguageModel};
use ntl_decoding::{LaneRequest, Options};
use ntl_engine::{Engine, RunInput};

const LOGIT_TOL: f32 = 1e-4;
const PROB_TOL: f32 = 1e-4;

fn run_one(
    engine: &Engine,
    prompt: &str,
    config: &serde_json::Value,
    forced: Option<Vec<u32>>,
) -> ntl_decoding::Document {
    let config = GenerationConfig::from_value(config.clone()).expect("fixture config parses");
    let req = RunInput {
        prompt: prompt.into(),
        lanes: vec![LaneRequest {
            config: config.into(),
            forced_ids: forced,
        }],
        options: Options {
            top_n: 64,
            shared_seed: None,
            negative_prompt: None,
            full_prompt: None,
            lens: false,
        },
        ..Default::default()
    };
    engine
        .run(req, |_| std::ops::ControlFlow::Continue(()))
        .expect("run")
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn tokenizer_matches_hf_ids_including_the_lesson_prompt() {
    let e = engine("tiny");
    assert_eq!(
        e.encode("The best way to learn programming is").unwrap(),
        vec![464, 1266, 835, 284, 2193, 8300, 318]
    );
    for case in hf("tiny.json")["tokenization"].as_array().unwrap() {
        let text = case["text"].as_str().unwrap();
        assert_eq!(e.encode(text).unwrap(), ids(&case["ids"]), "text {text:?}");
    }
}

fn check_logits(model: &str, fixture: &str) {
    let e = engine(model);
    let doc = hf(fixture);
    let probes: Vec<usize> = ids(&doc["logits"]["probe_ids"])
        .into_iter()
        .map(|i| i as usize)
        .collect();
    let mut checked = 0;
    for case in doc["logits"]["cases"].as_array().unwrap() {
        let prompt = ids(&case["prompt_ids"]);
        let greedy = ids(&case["greedy_ids"]);
        let mut fwd = e.prefill(&prompt).unwrap();
        for (s, want) in case["steps"].as_array().unwrap().iter().enumerate() {
            let row = &fwd.logits;
            for (id, v) in ids(&want["top_ids"])
                .iter()
                .zip(floats(&want["top_values"]))
            {
                assert!(
                    (row[*id as usize] - v).abs() <= LOGIT_TOL,
                    "{model} {} step {s} id {id}: {} vs HF {v}",
                    case["prompt"],
                    row[*id as usize]
                );
            }
            for (id, v) in probes.iter().zip(floats(&want["probe_values"])) {
                assert!(
                    (row[*id] - v).abs() <= LOGIT_TOL,
                    "{model} step {s} probe {id}: {} vs HF {v}",
                    row[*id]
                );
            }
            let lse = ntl_decoding::scores::logsumexp(row);
            assert!(
                (lse - want["logsumexp"].as_f64().unwrap() as f32).abs() <= LOGIT_TOL,
                "{model} step {s} logsumexp"
            );
            checked += 1;
            if s + 1 < greedy.len() {
                fwd = e.step(&fwd.cache, &greedy[s..s + 1]).unwrap();
            }
        }
    }
    assert!(checked >= 20, "only {checked} logit rows checked");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn logits_match_hf_through_the_kv_cache_f16_checkpoint() {
    check_logits("tiny", "tiny.json");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn logits_match_hf_bf16_checkpoint() {
    check_logits("tiny-bf16", "tiny-bf16.json");
}

/// Every HF run on the tiny checkpoint: the first wave's knobs, then the
/// token-level knobs and top-h (`tiny-knobs.json`).
fn tiny_runs() -> Vec<serde_json::Value> {
    ["tiny.json", "tiny-knobs.json"]
        .iter()
        .flat_map(|f| hf(f)["runs"].as_array().unwrap().clone())
        .collect()
}

/// The runs of `tiny-strategies.json` (transformers 4.55.4) that set `knob`.
fn strategy_runs(knob: &str) -> Vec<serde_json::Value> {
    let doc = hf("tiny-strategies.json");
    let runs = doc["runs"].as_array().unwrap();
    runs.iter()
        .filter(|r| r["config"].get(knob).is_some())
        .cloned()
        .collect()
}

fn is_sampling(cfg: &serde_json::Value) -> bool {
    cfg.get("do_sample")
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// One deterministic HF run: the same prompt ids, every returned sequence,
/// and beam scores within 1e-4.
fn check_deterministic_run(e: &ntl_engine::Engine, run: &serde_json::Value) -> ntl_decoding::Run {
    let name = run["name"].as_str().unwrap();
    let doc = run_one(e, prompt_text(name), &run["config"], None);
    assert_eq!(
        doc.prompt_ids,
        ids(&run["prompt_ids"]),
        "{name}: prompt ids"
    );
    let got = doc.runs.into_iter().next().expect("one lane");
    let want: Vec<Vec<u32>> = run["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(ids)
        .collect();
    let got_seqs: Vec<Vec<u32>> = got.sequences.iter().map(|s| s.token_ids.clone()).collect();
    assert_eq!(got_seqs, want, "{name}: sequences");
    assert_eq!(got.token_ids, want[0], "{name}: best sequence");
    if let Some(scores) = run.get("sequences_scores") {
        for (g, w) in got.sequences.iter().zip(floats(scores)) {
            let g = g.score.expect("beam score");
            assert!(
                (g - w).abs() <= 1e-4 * w.abs().max(1.0),
                "{name}: score {g} vs HF {w}"
            );
        }
    }
    got
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn deterministic_modes_match_hf_token_ids_and_beam_scores() {
    let e = engine("tiny");
    let mut n = 0;
    let mut new_knobs = 0;
    for run in &tiny_runs() {
        if is_sampling(&run["config"]) {
            continue;
        }
        check_deterministic_run(&e, run);
        n += 1;
        new_knobs += usize::from(run["config"].as_object().unwrap().keys().any(|k| {
            [
                "bad_words_ids",
                "sequence_bias",
                "suppress_tokens",
                "begin_suppress_tokens",
                "forced_bos_token_id",
                "forced_eos_token_id",
                "exponential_decay_length_penalty",
                "renormalize_logits",
                "remove_invalid_values",
            ]
            .contains(&k.as_str())
        }));
    }
    assert!(n >= 40, "only {n} deterministic runs checked");
    assert!(
        new_knobs >= 30,
        "only {new_knobs} runs of the token-level knobs"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn contrastive_search_matches_transformers_4_55() {
    let e = engine("tiny");
    let runs = hf("tiny-contrastive.json");
    let runs = runs["runs"].as_array().unwrap();
    assert!(runs.len() >= 6);
    for run in runs {
        let name = run["name"].as_str().unwrap();
        let doc = run_one(&e, prompt_text(name), &run["config"], None);
        assert_eq!(doc.runs[0].mode, ntl_decoding::Mode::Contrastive);
        assert_eq!(doc.runs[0].token_ids, ids(&run["sequences"][0]), "{name}");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn diverse_beam_search_matches_transformers_4_55() {
    let e = engine("tiny");
    let mut checked = 0;
    for run in &strategy_runs("num_beam_groups") {
        let got = check_deterministic_run(&e, run);
        assert_eq!(got.mode, ntl_decoding::Mode::GroupBeam);
        checked += 1;
    }
    assert!(checked >= 16, "only {checked} diverse beam runs");
}

/// Beam sampling (HF 5.24, `num_beams` > 1 with `do_sample`). Where the
/// warpers leave each beam as many tokens as the search keeps, every seed
/// gives HF's sequences and scores (the fixture checked four seeds); where the
/// draw matters, the pairs of returned sequences over many seeds come out as
/// often as HF's (total variation between the two frequency tables).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn beam_sampling_matches_hf() {
    let e = engine("tiny");
    let doc = hf("tiny-beam-sample.json");
    let runs = doc["runs"].as_array().unwrap();
    let (mut exact, mut counted) = (0, 0);
    for run in runs.iter().filter(|r| r["kind"] == "exact") {
        let got = check_deterministic_run(&e, run);
        assert_eq!(got.mode, ntl_decoding::Mode::BeamSample);
        let mut other = run.clone();
        other["config"]["seed"] = 7.into();
        check_deterministic_run(&e, &other);
        exact += 1;
    }
    // Fewer seeds in the browser, where the suite runs on one thread.
    // (At 100 seeds the distance is 0.08 on the first prompt; a search that
    // did not draw, always keeping the best, is 0.52 away.)
    let seeds: u64 = if cfg!(target_arch = "wasm32") {
        100
    } else {
        1000
    };
    let tolerance = if cfg!(target_arch = "wasm32") {
        0.2
    } else {
        0.08
    };
    for run in runs.iter().filter(|r| r["kind"] == "counts") {
        let name = run["name"].as_str().unwrap();
        let hf_seeds = run["seeds"].as_f64().unwrap();
        let mut want = std::collections::HashMap::<Vec<Vec<u32>>, f64>::new();
        for pair in run["counts"].as_array().unwrap() {
            let seqs: Vec<Vec<u32>> = pair[0].as_array().unwrap().iter().map(ids).collect();
            want.insert(seqs, pair[1].as_f64().unwrap() / hf_seeds);
        }
        let mut got = std::collections::HashMap::<Vec<Vec<u32>>, f64>::new();
        for seed in 0..seeds {
            let mut cfg = run["config"].clone();
            cfg["seed"] = seed.into();
            let lane = run_one(&e, prompt_text(name), &cfg, None).runs.remove(0);
            let seqs = lane.sequences.iter().map(|s| s.token_ids.clone()).collect();
            *got.entry(seqs).or_default() += 1.0 / seeds as f64;
        }
        let keys: std::collections::HashSet<_> = want.keys().chain(got.keys()).collect();
        let tv: f64 = keys
            .iter()
            .map(|k| (want.get(*k).unwrap_or(&0.0) - got.get(*k).unwrap_or(&0.0)).abs())
            .sum::<f64>()
            / 2.0;
        assert!(
            tv < tolerance,
            "{name}: total variation {tv:.3} from HF's frequencies\nHF {want:?}\nours {got:?}"
        );
        counted += 1;
    }
    assert_eq!((exact, counted), (10, 2));
}

/// Constrained beam search (`force_words_ids`: phrases, several phrases,
/// choices of phrases, a shared prefix, eos, the three `early_stopping`s):
/// every returned sequence and score as HF 4.55.4's scorer gives them.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn constrained_beam_search_matches_transformers_4_55() {
    let e = engine("tiny");
    let mut checked = 0;
    for run in &strategy_runs("force_words_ids") {
        let got = check_deterministic_run(&e, run);
        assert_eq!(got.mode, ntl_decoding::Mode::ConstrainedBeam);
        let beams = got.steps[0].beams.as_ref().expect("beam records");
        assert!(beams.iter().all(|b| b.constraints.is_some()));
        checked += 1;
    }
    assert!(checked >= 18, "only {checked} constrained runs");
}

/// Greedy DoLa: token ids as HF 4.55.4's `_dola_decoding` chooses them, from
/// the layer lists "low", "high", one layer (the embeddings) and two layers
/// chosen between by divergence; every step records its premature layer.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn dola_greedy_matches_transformers_4_55() {
    let e = engine("tiny");
    let mut checked = 0;
    let mut layers_seen = std::collections::BTreeSet::new();
    for run in &strategy_runs("dola_layers") {
        if is_sampling(&run["config"]) {
            continue;
        }
        let got = check_deterministic_run(&e, run);
        for s in &got.steps {
            let d = s.dola.as_ref().expect("a DoLa step record");
            assert!(d.candidates.contains(&d.premature_layer));
            assert_eq!(
                d.divergences.len(),
                if d.candidates.len() > 1 {
                    d.candidates.len()
                } else {
                    0
                }
            );
            layers_seen.insert(d.premature_layer);
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} DoLa runs");
    assert_eq!(
        layers_seen.into_iter().collect::<Vec<_>>(),
        [0, 1],
        "both layers were contrasted with"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn sampling_distributions_match_hf_at_every_step_on_hf_sampled_tokens() {
    let e = engine("tiny");
    let mut steps_checked = 0;
    let mut runs_checked = 0;
    let mut fragile = 0;
    let mut dola_runs = 0;
    // The first wave's and the token-level knobs' sampling runs, and sampled DoLa.
    let strategies = hf("tiny-strategies.json")["runs"]
        .as_array()
        .unwrap()
        .clone();
    for run in tiny_runs().iter().chain(&strategies) {
        if !is_sampling(&run["config"]) {
            continue;
        }
        let name = run["name"].as_str().unwrap();
        let forced = ids(&run["sequences"][0]);
        let doc = run_one(&e, prompt_text(name), &run["config"], Some(forced.clone()));
        let got = &doc.runs[0];
        assert_eq!(got.token_ids, forced, "{name}: followed HF's tokens");
        if run["config"].get("dola_layers").is_some() {
            assert!(
                got.steps.iter().all(|s| s.dola.is_some()),
                "{name}: DoLa steps"
            );
            dola_runs += 1;
        }
        let want_steps = run["steps"].as_array().unwrap();
        assert_eq!(got.steps.len(), want_steps.len(), "{name}: step count");
        for (s, (g, w)) in got.steps.iter().zip(want_steps).enumerate() {
            let want_kept = w["kept"].as_u64().unwrap() as i64;
            if w["fragile"].as_bool().unwrap_or(false) {
                // A token sits on the cutoff within f32 noise (the fixture script checked
                // by perturbing HF's logits by 1e-5): allow it to fall either way.
                assert!(
                    (g.kept as i64 - want_kept).abs() <= 2,
                    "{name} step {s}: kept {} vs HF {want_kept} (fragile)",
                    g.kept
                );
                fragile += 1;
            } else {
                assert_eq!(
                    g.kept as i64,
                    want_kept,
                    "{name} step {s}: kept tokens (funnel {:?})",
                    g.funnel
                        .iter()
                        .map(|f| (&f.name, f.kept))
                        .collect::<Vec<_>>()
                );
            }
            // Our table holds the top 64 by processed probability; HF's too.
            let table: std::collections::HashMap<u32, f32> =
                g.top.iter().map(|c| (c.id, c.prob)).collect();
            for (id, p) in ids(&w["ids"]).into_iter().zip(floats(&w["probs"])) {
                // The order of a tail of near-zero probabilities (DoLa's sharp
                // contrasts leave some at 1e-39) is noise: such a one may sit
                // just outside our table.
                let Some(ours) = table.get(&id).copied() else {
                    assert!(
                        p < 1e-9,
                        "{name} step {s}: HF's candidate {id} (p={p}) missing"
                    );
                    continue;
                };
                assert!(
                    (ours - p).abs() <= PROB_TOL,
                    "{name} step {s} id {id}: p {ours} vs HF {p}"
                );
            }
            steps_checked += 1;
        }
        runs_checked += 1;
    }
    assert!(
        runs_checked >= 20 && steps_checked >= 400,
        "{runs_checked} runs / {steps_checked} steps"
    );
    assert!(dola_runs >= 4, "only {dola_runs} sampled DoLa runs");
    // Typical-p's boundary on this small random model lies among thousands of
    // near-equal tail tokens, so ties are common there; anything beyond 5% would
    // mean the detector is hiding a real mismatch.
    assert!(
        fragile * 20 <= steps_checked,
        "{fragile} of {steps_checked} steps are cutoff ties: too many to be chance"
    );
}

/// HF's `WatermarkDetector` on texts with and without the watermark (both
/// seeding schemes, several context widths): the same green counts, z-scores
/// and p-values.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_watermark_detector_matches_hf() {
    use ntl_decoding::watermark::{Watermark, WatermarkConfig};
    let fixture = hf("tiny-knobs.json");
    let cases = fixture["detections"].as_array().unwrap();
    assert!(cases.len() >= 18);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let config: WatermarkConfig = serde_json::from_value(case["config"].clone()).unwrap();
        let w = Watermark::new(config).unwrap();
        let d = w.detect(&ids(&case["ids"]), Some(50256), 50257, 3.0);
        assert_eq!(
            (d.num_tokens_scored, d.num_green_tokens),
            (
                case["num_tokens_scored"].as_u64().unwrap() as usize,
                case["num_green_tokens"].as_u64().unwrap() as usize
            ),
            "{name} {}",
            case["config"]
        );
        let z = case["z_score"].as_f64().unwrap();
        assert!(
            (d.z_score - z).abs() <= 1e-4,
            "{name}: z {} vs HF {z}",
            d.z_score
        );
        let p = case["p_value"].as_f64().unwrap();
        assert!(
            (d.p_value - p).abs() <= 1e-6 * p.max(1e-300) + 1e-12,
            "{name}: p {} vs HF {p}",
            d.p_value
        );
        assert_eq!(
            d.prediction,
            case["prediction"].as_bool().unwrap(),
            "{name}"
        );
    }
}

/// Classifier-free guidance as HF's unbatched processor: greedy token ids,
/// and sampling's guided distributions on HF's own tokens, with and without
/// a negative prompt.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn guidance_matches_hf_with_and_without_a_negative_prompt() {
    let e = engine("tiny");
    let fixture = hf("tiny-knobs.json");
    let runs = fixture["guidance"].as_array().unwrap();
    assert!(runs.len() >= 8);
    for run in runs {
        let name = run["name"].as_str().unwrap();
        let config = GenerationConfig::from_value(run["config"].clone()).unwrap();
        let want = ids(&run["sequences"][0]);
        let sampling = is_sampling(&run["config"]);
        let input = RunInput {
            prompt: prompt_text(name).into(),
            lanes: vec![LaneRequest {
                config: config.into(),
                forced_ids: sampling.then(|| want.clone()),
            }],
            negative_prompt: run["negative_prompt"].as_str().map(Into::into),
            options: Options {
                top_n: 64,
                shared_seed: None,
                negative_prompt: None,
                full_prompt: None,
                lens: false,
            },
            ..Default::default()
        };
        let doc = e
            .run(input, |_| std::ops::ControlFlow::Continue(()))
            .unwrap();
        let got = &doc.runs[0];
        assert_eq!(got.token_ids, want, "{name}");
        if !sampling {
            continue;
        }
        for (s, (g, w)) in got
            .steps
            .iter()
            .zip(run["steps"].as_array().unwrap())
            .enumerate()
        {
            assert_eq!(
                g.kept as u64,
                w["kept"].as_u64().unwrap(),
                "{name} step {s}"
            );
            let table: std::collections::HashMap<u32, f32> =
                g.top.iter().map(|c| (c.id, c.prob)).collect();
            for (id, p) in ids(&w["ids"]).into_iter().zip(floats(&w["probs"])) {
                let ours = table[&id];
                assert!(
                    (ours - p).abs() <= PROB_TOL,
                    "{name} step {s} id {id}: {ours} vs HF {p}"
                );
            }
        }
    }
}

/// Each step of a run that followed HF's sampled tokens against HF's: the
/// tokens kept (unless a cutoff tie makes it fragile) and the top
/// probabilities within 1e-4. Returns the steps checked.
fn check_steps(what: &str, got: &[ntl_decoding::Step], want: &serde_json::Value) -> usize {
    let want = want.as_array().unwrap();
    assert_eq!(got.len(), want.len(), "{what}: step count");
    for (s, (g, w)) in got.iter().zip(want).enumerate() {
        if !w["fragile"].as_bool().unwrap_or(false) {
            assert_eq!(
                g.kept as u64,
                w["kept"].as_u64().unwrap(),
                "{what} step {s}: kept"
            );
        }
        let table: std::collections::HashMap<u32, f32> =
            g.top.iter().map(|c| (c.id, c.prob)).collect();
        for (id, p) in ids(&w["ids"]).into_iter().zip(floats(&w["probs"])) {
            let Some(ours) = table.get(&id).copied() else {
                assert!(p < 1e-9, "{what} step {s}: HF's {id} (p={p}) missing");
                continue;
            };
            assert!(
                (ours - p).abs() <= PROB_TOL,
                "{what} step {s} id {id}: p {ours} vs HF {p}"
            );
        }
    }
    want.len()
}

/// The Llama family (issue #19): `LlamaForCausalLM` with grouped-query
/// attention and a tied head in F32, `Qwen2ForCausalLM` with q/k/v biases,
/// one key/value head and its own head in BF16 — logits through the cache,
/// then every greedy, penalty and beam run and every sampling step's
/// distribution as HF computed them.
fn check_family(model: &str, architecture: ntl_engine::Architecture) {
    let fixture = format!("{model}.json");
    let doc = hf(&fixture);
    assert_eq!(doc["architecture"], architecture.class_name());
    let e = engine(model);
    assert_eq!(e.info().architecture, architecture.class_name());
    assert_eq!(
        e.info().parameters as u64,
        doc["parameters"].as_u64().unwrap(),
        "{model}: HF's num_parameters() (a tied head counted once)"
    );
    check_logits(model, &fixture);
    let (mut deterministic, mut sampled_steps) = (0, 0);
    for run in doc["runs"].as_array().unwrap() {
        let name = run["name"].as_str().unwrap();
        if !is_sampling(&run["config"]) {
            check_deterministic_run(&e, run);
            deterministic += 1;
            continue;
        }
        let forced = ids(&run["sequences"][0]);
        let got = run_one(&e, prompt_text(name), &run["config"], Some(forced.clone()));
        let got = &got.runs[0];
        assert_eq!(got.token_ids, forced, "{model} {name}");
        sampled_steps += check_steps(&format!("{model} {name}"), &got.steps, &run["steps"]);
    }
    assert!(
        deterministic >= 15,
        "{model}: only {deterministic} deterministic runs"
    );
    assert!(
        sampled_steps >= 250,
        "{model}: only {sampled_steps} sampled steps"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn llama_with_grouped_heads_and_a_tied_head_matches_hf() {
    check_family("tiny-llama", ntl_engine::Architecture::Llama);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn qwen2_with_qkv_biases_and_its_own_head_in_bf16_matches_hf() {
    check_family("tiny-qwen2", ntl_engine::Architecture::Qwen2);
}

/// A repo's `generation_config.json` under every lane, as HF's `generate()`
/// puts the model's file under the call's arguments: a lane that says
/// nothing samples with the file's temperature, top-k, top-p and
/// repetition penalty; a lane's own knobs win. Token ids (greedy) and every
/// step's distribution (sampling, on HF's tokens) as HF computed them.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_models_generation_config_is_under_each_lane_as_in_hf() {
    use ntl_decoding::{Defaults, ModelDefaults};
    let e = engine("tiny-qwen2");
    let fixture = hf("tiny-qwen2.json");
    let file = serde_json::to_vec(&fixture["model_defaults"]["generation_config"]).unwrap();
    let e = e.with_generation_config(&file).unwrap();
    let defaults: ModelDefaults = e.info().generation_defaults.clone().unwrap();
    assert_eq!(defaults.beyond_eos().len(), 5, "{defaults:?}");
    let (mut sampled, mut greedy) = (0, 0);
    for run in fixture["model_defaults"]["runs"].as_array().unwrap() {
        let name = run["name"].as_str().unwrap();
        let config = defaults
            .lane_config(&run["config"].to_string(), Defaults::Model)
            .unwrap();
        let sampling = !run["config"].get("do_sample").is_some_and(|v| v == false);
        let want = ids(&run["sequences"][0]);
        let input = RunInput {
            prompt: prompt_text(name).into(),
            lanes: vec![LaneRequest {
                config,
                forced_ids: sampling.then(|| want.clone()),
            }],
            options: Options {
                top_n: 64,
                shared_seed: None,
                negative_prompt: None,
                full_prompt: None,
                lens: false,
            },
            ..Default::default()
        };
        let doc = e
            .run(input, |_| std::ops::ControlFlow::Continue(()))
            .unwrap();
        let got = &doc.runs[0];
        assert_eq!(got.token_ids, want, "{name}");
        if !sampling {
            // The model's repetition penalty applied to a greedy lane.
            assert!(got.steps[0].funnel.iter().any(
                |f| f.name == ntl_decoding::Stage::Knob(ntl_decoding::Knob::RepetitionPenalty)
            ));
            greedy += 1;
            continue;
        }
        assert_eq!(got.mode, ntl_decoding::Mode::Sample, "{name}");
        check_steps(name, &got.steps, &run["steps"]);
        sampled += 1;
    }
    assert_eq!((sampled, greedy), (4, 2));
}
