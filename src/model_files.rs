//! Model files the user picks or drops, read into buffers for the worker.

use wasm_bindgen::JsCast;

/// The three files' names and bytes, or why they cannot be used.
pub type PickedFiles = Result<(Vec<String>, Vec<js_sys::ArrayBuffer>), String>;

/// Reads picked files as buffers, matched by name to the three HF files.
pub async fn read_model_files(files: Vec<web_sys::File>) -> PickedFiles {
    let mut found: [Option<web_sys::File>; 3] = Default::default();
    for f in files {
        let name = f.name();
        let slot = if name.ends_with(".safetensors") {
            1
        } else if name == "tokenizer.json" {
            2
        } else if name.ends_with(".json") && name.contains("config") {
            0
        } else {
            return Err(format!(
                "`{name}` is not one of config.json, model.safetensors, tokenizer.json"
            ));
        };
        found[slot] = Some(f);
    }
    let missing: Vec<&str> = ["config.json", "model.safetensors", "tokenizer.json"]
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(n, _)| *n)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "missing {}: pick all three files together",
            missing.join(" and ")
        ));
    }
    let mut names = vec![];
    let mut buffers = vec![];
    for f in found.into_iter().flatten() {
        names.push(f.name());
        let buf = wasm_bindgen_futures::JsFuture::from(f.array_buffer())
            .await
            .map_err(|_| format!("could not read {}", f.name()))?;
        buffers.push(buf.unchecked_into());
    }
    Ok((names, buffers))
}
