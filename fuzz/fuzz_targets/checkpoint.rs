//! The checkpoint loader on arbitrary `model.safetensors` bytes (with a small
//! GPT-2 config): refuse with a message or load, never panic or hang.
#![no_main]
use libfuzzer_sys::fuzz_target;

const CONFIG: &[u8] = br#"{"model_type": "gpt2", "vocab_size": 16, "n_positions": 8, "n_embd": 8, "n_layer": 1, "n_head": 2, "bos_token_id": 0, "eos_token_id": 0}"#;

fuzz_target!(|weights: &[u8]| {
    if let Err(e) = ntl_engine::check_weights(CONFIG, weights) {
        assert!(!e.to_string().is_empty());
    }
});
