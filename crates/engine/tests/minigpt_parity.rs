//! Seed 004's MiniGPT, read from the `minigpt.pt` a student saves, against
//! dnnlpy's own forward pass (fixtures by tests/reference/make_minigpt_fixtures.py:
//! dnnlpy 2026.10.2, torch 2.14, CPU): the tutorial's options (tied head,
//! biases), an untied model without biases and two heads (from its
//! config.json), and one saved in F16.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use ntl_engine::{Engine, LoadError, Precision};

macro_rules! fixture {
    ($dir:literal, $file:literal) => {
        include_bytes!(concat!(
            "../../../tests/fixtures/minigpt/",
            $dir,
            "/",
            $file
        ))
    };
}

struct Case {
    name: &'static str,
    pt: &'static [u8],
    config: Option<&'static [u8]>,
    tokenizer: &'static [u8],
    expected: &'static [u8],
}

const CASES: [Case; 3] = [
    Case {
        name: "tiny",
        pt: fixture!("tiny", "minigpt.pt"),
        config: None,
        tokenizer: fixture!("tiny", "tokenizer.json"),
        expected: fixture!("tiny", "expected.json"),
    },
    Case {
        name: "untied",
        pt: fixture!("untied", "minigpt.pt"),
        config: Some(fixture!("untied", "config.json")),
        tokenizer: fixture!("untied", "tokenizer.json"),
        expected: fixture!("untied", "expected.json"),
    },
    Case {
        name: "half",
        pt: fixture!("half", "minigpt.pt"),
        config: None,
        tokenizer: fixture!("half", "tokenizer.json"),
        expected: fixture!("half", "expected.json"),
    },
];

fn load(c: &Case) -> Engine {
    Engine::load_torch(c.pt, c.config, None, c.tokenizer, Precision::AsStored)
        .unwrap_or_else(|e| panic!("{}: {e}", c.name))
}

fn expected(c: &Case) -> serde_json::Value {
    serde_json::from_slice(c.expected).unwrap()
}

fn ids(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// The largest |ours − dnnlpy's| over every position's logits of the fixture's sequence.
fn max_logit_gap(c: &Case) -> f32 {
    let e = load(c);
    let x = expected(c);
    let seq = ids(&x["sequence"]);
    let mut worst = 0f32;
    for (pos, row) in x["logits"].as_array().unwrap().iter().enumerate() {
        let ours = e.logits(&seq[..=pos]).unwrap();
        for (a, b) in ours.iter().zip(row.as_array().unwrap()) {
            worst = worst.max((a - b.as_f64().unwrap() as f32).abs());
        }
    }
    worst
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[test]
fn logits_match_dnnlpy_at_every_position() {
    for c in &CASES {
        let gap = max_logit_gap(c);
        eprintln!("{}: largest logit gap {gap:e}", c.name);
        // Measured: 1.9e-6 (tiny), 4.3e-6 (untied), 2.4e-6 (half), natively:
        // float rounding in another summation order, logits of magnitude ~10.
        assert!(gap < 2e-5, "{}: logits differ by {gap}", c.name);
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[test]
fn the_tutorials_greedy_loop_past_the_block_size_matches() {
    // Seed 004's generate(do_sample=False): the last block_size ids, argmax.
    for c in &CASES {
        let e = load(c);
        let x = expected(c);
        let want = ids(&x["greedy"]);
        let mut got = ids(&x["prompt"]);
        let block = e.info().n_positions;
        while got.len() < want.len() {
            let logits = e.logits(&got[got.len().saturating_sub(block)..]).unwrap();
            let best = (0..logits.len())
                .max_by(|&a, &b| logits[a].total_cmp(&logits[b]).then(b.cmp(&a)))
                .unwrap();
            got.push(best as u32);
        }
        assert!(want.len() > block + 10, "the run must go past the context");
        assert_eq!(got, want, "{}", c.name);
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[test]
fn the_model_line_reads_minigpt_and_its_sizes() {
    let e = load(&CASES[1]);
    let i = e.info();
    assert_eq!(i.architecture, "MiniGPT (dnnlpy)");
    assert_eq!(
        (i.n_layer, i.n_head, i.n_embd, i.vocab_size, i.n_positions),
        (3, 2, 32, 400, 16)
    );
    // 400·32 (embed) + 16·32 (positions) + 3 blocks · (2·32 + 4·32² + 2·32·40)
    // + 32 (final norm) + 400·32 (own head).
    assert_eq!(
        i.parameters,
        12800 + 512 + 3 * (64 + 4096 + 2560) + 32 + 12800
    );
    assert!(!ntl_decoding::LanguageModel::tied_head(&e));
    assert_eq!(load(&CASES[2]).info().storage_dtype, "F16");
}

fn load_err(pt: &[u8], config: Option<&[u8]>, heads: Option<usize>, tok: &[u8]) -> LoadError {
    match Engine::load_torch(pt, config, heads, tok, Precision::AsStored) {
        Ok(_) => panic!("loaded"),
        Err(e) => e,
    }
}

#[test]
fn a_head_count_that_does_not_divide_the_width_is_named() {
    let c = &CASES[0];
    let e = load_err(c.pt, Some(br#"{"num_heads": 5}"#), None, c.tokenizer).to_string();
    assert!(
        e.contains("`num_heads` is 5") && e.contains("width 32"),
        "{e}"
    );
    // The page's field wins over the file beside the model.
    let e = Engine::load_torch(
        c.pt,
        Some(br#"{"num_heads": 5}"#),
        Some(8),
        c.tokenizer,
        Precision::AsStored,
    )
    .unwrap();
    assert_eq!(e.info().n_head, 8);
}

#[test]
fn a_tokenizer_of_another_size_is_refused() {
    let c = &CASES[0];
    let gpt2 = include_bytes!("../../../tests/fixtures/models/tokenizer.json");
    let e = load_err(c.pt, None, None, gpt2).to_string();
    assert!(e.starts_with("tokenizer.json: has 50257 tokens"), "{e}");
}

#[test]
fn a_state_dict_of_another_model_lists_what_is_missing_and_unexpected() {
    // The tiny GPT-2's safetensors is not a .pt at all.
    let st = include_bytes!("../../../tests/fixtures/models/tiny/model.safetensors");
    let e = load_err(st, None, None, CASES[0].tokenizer).to_string();
    assert!(
        e.starts_with("minigpt.pt: it is not a PyTorch zip file"),
        "{e}"
    );
}

#[test]
fn hostile_and_foreign_files_get_one_message_each() {
    let tok = CASES[0].tokenizer;
    let cases: [(&[u8], &str); 4] = [
        (
            fixture!("bad", "evil.pt"),
            "minigpt.pt: its pickle names `posix.system`",
        ),
        (
            fixture!("bad", "linear.pt"),
            "minigpt.pt: it has no `token_embed.weight`; is it a MiniGPT state dict",
        ),
        (fixture!("bad", "list.pt"), "minigpt.pt: it holds a list, not a state dict"),
        (
            fixture!("bad", "renamed.pt"),
            "minigpt.pt: it is not the MiniGPT its tensors describe (2 blocks, width 32, with \
             biases): missing `blocks.1.attn.attn.k_proj.bias`, `blocks.1.attn.attn.k_proj.weight`; \
             unexpected `blocks.1.attn.attn.key.bias`, `blocks.1.attn.attn.key.weight`",
        ),
    ];
    for (pt, want) in cases {
        let e = load_err(pt, None, None, tok).to_string();
        assert!(e.starts_with(want), "{e}\n  wanted: {want}");
    }
}

#[test]
fn a_training_checkpoint_holding_the_state_dict_loads() {
    // torch.save({"model": model.state_dict(), "step": 100}, path)
    let c = &CASES[0];
    let wrapped = fixture!("bad", "wrapped.pt");
    let e = Engine::load_torch(wrapped, None, None, c.tokenizer, Precision::AsStored).unwrap();
    let x = expected(c);
    let seq = ids(&x["sequence"]);
    assert_eq!(e.logits(&seq).unwrap(), load(c).logits(&seq).unwrap());
}

#[test]
fn the_folder_saved_for_hosting_loads_to_the_same_logits() {
    use std::io::Read;
    let c = &CASES[1];
    let folder = ntl_engine::minigpt_import::minigpt_folder(c.pt, c.config, None).unwrap();
    let zipped = folder.zipped("student", c.tokenizer).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(zipped)).unwrap();
    let mut file = |name: &str| {
        let mut out = vec![];
        zip.by_name(&format!("student/{name}"))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .read_to_end(&mut out)
            .unwrap();
        out
    };
    let (config, weights, tokenizer) = (
        file("config.json"),
        file("model.safetensors"),
        file("tokenizer.json"),
    );
    assert_eq!(tokenizer, c.tokenizer);
    let cfg: serde_json::Value = serde_json::from_slice(&config).unwrap();
    assert_eq!(
        (&cfg["model_type"], &cfg["num_heads"], &cfg["weight_tying"]),
        (&"minigpt".into(), &2.into(), &false.into()),
        "the head count travels in the folder's config.json"
    );
    let hosted = Engine::load_sharded_as(
        &config,
        &[&weights.as_slice()],
        &tokenizer,
        Precision::AsStored,
    )
    .unwrap();
    let seq = ids(&expected(c)["sequence"]);
    assert_eq!(hosted.logits(&seq).unwrap(), load(c).logits(&seq).unwrap());
    assert_eq!(hosted.info().architecture, "MiniGPT (dnnlpy)");
}

mod tutorial_lanes {
    use super::*;
    use ntl_decoding::tutorial::filter::filter;
    use ntl_decoding::{LaneConfig, LaneRequest, Options};
    use ntl_engine::RunInput;
    use std::ops::ControlFlow;

    fn lane(json: serde_json::Value) -> LaneRequest {
        LaneRequest {
            config: LaneConfig::from_value(json).unwrap(),
            forced_ids: None,
        }
    }

    fn run(e: &Engine, prompt: Vec<u32>, lanes: Vec<LaneRequest>) -> ntl_decoding::Document {
        let input = RunInput {
            prompt: String::new(),
            prompt_ids: Some(prompt),
            lanes,
            options: Options::default(),
            ..RunInput::default()
        };
        e.run(input, |_| ControlFlow::Continue(())).unwrap()
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[test]
    fn seed_004s_filters_give_dnnlpys_probabilities() {
        // Temperature, top-k, top-p and softmax on dnnlpy's own logits rows,
        // against sample_next_token's up to its draw, for five settings at
        // three positions of each model.
        for c in &CASES {
            let x = expected(c);
            let mut worst = 0f32;
            for row in x["filtered"].as_array().unwrap() {
                let pos = row["position"].as_u64().unwrap() as usize;
                let logits: Vec<f32> = x["logits"][pos]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap() as f32)
                    .collect();
                let f = filter(
                    &logits,
                    row["temperature"].as_f64().unwrap() as f32,
                    row["top_k"].as_i64(),
                    row["top_p"].as_f64().map(|p| p as f32),
                );
                for (ours, theirs) in f.probs.iter().zip(row["probs"].as_array().unwrap()) {
                    let theirs = theirs.as_f64().unwrap() as f32;
                    assert_eq!(*ours == 0.0, theirs == 0.0, "{}: kept sets differ", c.name);
                    worst = worst.max((ours - theirs).abs());
                }
            }
            eprintln!("{}: largest probability gap {worst:e}", c.name);
            // Measured: at most 3.0e-8 (f32 exp and sums in another order).
            assert!(worst < 1e-6, "{}: probabilities differ by {worst}", c.name);
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[test]
    fn a_greedy_tutorial_lane_goes_past_the_context_as_the_tutorials_loop_does() {
        for c in &CASES {
            let e = load(c);
            let x = expected(c);
            let (prompt, want) = (ids(&x["prompt"]), ids(&x["greedy"]));
            let n = want.len() - prompt.len();
            let doc = run(
                &e,
                prompt.clone(),
                vec![
                    lane(
                        serde_json::json!({"semantics": "tutorial", "do_sample": false, "max_new_tokens": n}),
                    ),
                    lane(serde_json::json!({"max_new_tokens": n})),
                ],
            );
            let tutorial = &doc.runs[0];
            assert_eq!(tutorial.token_ids, want[prompt.len()..], "{}", c.name);
            assert_eq!(tutorial.stop_reason, ntl_decoding::StopReason::MaxNewTokens);
            // The HF lane on the same model stops where the context ends (its
            // room for new tokens cropped the shared prompt; not the tutorial's).
            let hf = &doc.runs[1];
            assert_eq!(hf.stop_reason, ntl_decoding::StopReason::ContextFull);
            assert_eq!(
                doc.prompt_ids.len() + hf.token_ids.len(),
                e.info().n_positions
            );
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[test]
    fn a_prompt_longer_than_the_block_is_windowed_not_cropped_for_room() {
        // The tutorial's greedy run from its first 30 ids goes on exactly as
        // from its prompt: each step sees only the last block_size ids. Beside
        // an HF lane, whose room crops the shared prompt, it is the same.
        let c = &CASES[0];
        let e = load(c);
        let want = ids(&expected(c)["greedy"]);
        let tutorial =
            serde_json::json!({"semantics": "tutorial", "do_sample": false, "max_new_tokens": 10});
        for lanes in [
            vec![lane(tutorial.clone())],
            vec![
                lane(serde_json::json!({"max_new_tokens": 4})),
                lane(tutorial.clone()),
            ],
        ] {
            let last = lanes.len() - 1;
            let doc = run(&e, want[..30].to_vec(), lanes);
            assert!(doc.prompt_cropped > 0);
            assert_eq!(doc.runs[last].token_ids, want[30..40]);
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[test]
    fn a_sampling_step_draws_from_seed_004s_distribution_and_a_seed_repeats() {
        let c = &CASES[1];
        let e = load(c);
        let prompt = ids(&expected(c)["prompt"]);
        let config = serde_json::json!({"semantics": "tutorial", "temperature": 0.8, "top_k": 5,
            "top_p": 0.9, "seed": 7, "max_new_tokens": 25});
        let doc = run(&e, prompt.clone(), vec![lane(config.clone()), lane(config)]);
        let (a, b) = (&doc.runs[0], &doc.runs[1]);
        assert_eq!(a.token_ids, b.token_ids, "the same seed, the same tokens");
        let mut seq = prompt.clone();
        let block = e.info().n_positions;
        for (step, &t) in a.steps.iter().zip(&a.token_ids) {
            let logits = e.logits(&seq[seq.len().saturating_sub(block)..]).unwrap();
            let f = filter(&logits, 0.8, Some(5), Some(0.9));
            assert!(f.probs[t as usize] > 0.0, "drawn from the kept tokens");
            assert!((step.chosen_prob - f.probs[t as usize]).abs() < 1e-6);
            let kept = f.probs.iter().filter(|p| **p > 0.0).count();
            assert_eq!(step.kept, kept);
            assert!(kept <= 5);
            seq.push(t);
        }
        assert_eq!(a.config.to_value()["seed"], 7);
    }
}
