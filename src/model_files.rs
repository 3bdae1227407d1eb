//! Model files the user picks or drops, read into buffers for the worker:
//! the ones `ntl_protocol::picked` says make the model, in its order.

use crate::page_error::PageError;
use crate::state::memory_need::MemoryNeed;
use crate::state::model::WASM32_BYTES;
use ntl_protocol::picked::{picked_layout, PickedWeights};
use wasm_bindgen::JsCast;

/// The files' names and bytes, or why they cannot be used.
pub type PickedFiles = Result<(Vec<String>, Vec<js_sys::ArrayBuffer>), PageError>;

/// Reads the picked files the model needs (a whole repo folder may be dropped).
pub async fn read_model_files(files: Vec<web_sys::File>) -> PickedFiles {
    let all: Vec<String> = files.iter().map(|f| f.name()).collect();
    let layout = picked_layout(&all)?;
    if let PickedWeights::Torch { pt, .. } = layout.weights {
        if let Some(e) = pt_too_large(&files[pt].name(), files[pt].size() as u64) {
            return Err(e);
        }
    }
    let mut names = vec![];
    let mut buffers = vec![];
    for i in layout.order() {
        let f = &files[i];
        names.push(f.name());
        let buf = wasm_bindgen_futures::JsFuture::from(f.array_buffer())
            .await
            .map_err(|_| PageError::ReadFile { name: f.name() })?;
        buffers.push(buf.unchecked_into());
    }
    Ok((names, buffers))
}

/// A picked `.pt` a tab cannot hold, said before it is read: unlike other
/// weights (read tensor by tensor from the browser's buffer), it is copied
/// into the worker's wasm memory and is there three times while it loads
/// (the file, its tensors, the safetensors built from them).
pub fn pt_too_large(name: &str, bytes: u64) -> Option<PageError> {
    let need = MemoryNeed::estimate(bytes.saturating_mul(3), None).in_wasm();
    (need > WASM32_BYTES).then(|| PageError::TooLarge {
        name: name.into(),
        mb: bytes as f64 / 1e6,
        need_gb: need as f64 / 1e9,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_students_minigpt_passes_and_a_pt_past_the_tab_is_refused_by_name_and_size() {
        assert!(pt_too_large("minigpt.pt", 6_400_000).is_none());
        assert!(pt_too_large("minigpt.pt", 1_000_000_000).is_none());
        let e = pt_too_large("minigpt.pt", 1_500_000_000).expect("refused");
        assert!(
            e.to_string()
                .starts_with("`minigpt.pt` is 1500 MB; loading it needs about 5.1 GB"),
            "{e}"
        );
    }
}
