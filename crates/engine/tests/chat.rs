//! Chat templates against HF's `apply_chat_template` (fixtures made by
//! tests/reference/make_family_fixtures.py --chat): SmolLM2-Instruct's and
//! Qwen2.5-Instruct's templates over conversations with and without a
//! system turn, later system turns, several turns, text with markup and
//! non-ASCII, each with and without the generation prompt — the rendered
//! text and its token ids, special tokens taken from the text.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use ntl_decoding::chat::ChatMessage;
use ntl_engine::chat_template::ChatTemplate;
use ntl_engine::tokenizer::TextTokenizer;

macro_rules! fixture {
    ($path:literal) => {
        include_bytes!(concat!("../../../tests/fixtures/", $path))
    };
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn renders_and_ids_match_hf_apply_chat_template() {
    let renders: serde_json::Value = serde_json::from_slice(fixture!("chat/renders.json")).unwrap();
    let tokenizer = TextTokenizer::from_bytes(fixture!("chat/tokenizer.json"), 50259).unwrap();
    let templates = [
        (
            "smollm2",
            &fixture!("chat/smollm2/tokenizer_config.json")[..],
        ),
        (
            "qwen2.5",
            &fixture!("chat/qwen2.5/tokenizer_config.json")[..],
        ),
    ];
    let mut checked = 0;
    for case in renders["cases"].as_array().unwrap() {
        let name = case["template"].as_str().unwrap();
        let config = templates.iter().find(|(n, _)| *n == name).unwrap().1;
        let template = ChatTemplate::from_tokenizer_config(config)
            .unwrap()
            .expect("an Instruct model's template");
        let messages: Vec<ChatMessage> = serde_json::from_value(case["messages"].clone()).unwrap();
        let generation = case["add_generation_prompt"].as_bool().unwrap();
        let what = format!("{name} {} {generation}", case["conversation"]);
        let text = template.render(&messages, generation).unwrap();
        assert_eq!(text, case["text"].as_str().unwrap(), "{what}");
        let want: Vec<u32> = case["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(tokenizer.encode(&text).unwrap(), want, "{what}");
        assert_eq!(
            want[0], 50257,
            "{what}: starts with <|im_start|> as one token"
        );
        checked += 1;
    }
    assert_eq!(checked, 16);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn an_engine_renders_with_its_repos_template_and_a_base_model_says_it_has_none() {
    let renders: serde_json::Value = serde_json::from_slice(fixture!("chat/renders.json")).unwrap();
    let load = || {
        ntl_engine::Engine::load_from(
            fixture!("models/tiny-qwen2/config.json"),
            &&fixture!("models/tiny-qwen2/model.safetensors")[..],
            fixture!("models/tokenizer.json"),
        )
        .unwrap()
    };
    let engine = load()
        .with_tokenizer_config(fixture!("chat/qwen2.5/tokenizer_config.json"))
        .unwrap();
    assert!(engine.info().chat_template);
    let case = renders["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["template"] == "qwen2.5" && c["add_generation_prompt"] == true)
        .unwrap();
    let messages: Vec<ChatMessage> = serde_json::from_value(case["messages"].clone()).unwrap();
    assert_eq!(
        engine.render_chat(&messages, true).unwrap(),
        case["text"].as_str().unwrap()
    );

    // A base model's tokenizer_config.json: no template, and a clear word.
    let base = load()
        .with_tokenizer_config(br#"{"bos_token": "<|endoftext|>", "model_max_length": 1024}"#)
        .unwrap();
    assert!(!base.info().chat_template);
    let err = base.render_chat(&messages, true).unwrap_err().to_string();
    assert!(err.contains("no chat template"), "{err}");
    // A template that does not parse is named at load.
    let broken = load().with_tokenizer_config(br#"{"chat_template": "{% for m in messages %}"}"#);
    assert!(broken.is_err());
}
