//! Model files the user picks or drops, read into buffers for the worker:
//! the ones `ntl_protocol::picked` says make the model, in its order.

use crate::page_error::PageError;
use ntl_protocol::picked::picked_layout;
use wasm_bindgen::JsCast;

/// The files' names and bytes, or why they cannot be used.
pub type PickedFiles = Result<(Vec<String>, Vec<js_sys::ArrayBuffer>), PageError>;

/// Reads the picked files the model needs (a whole repo folder may be dropped).
pub async fn read_model_files(files: Vec<web_sys::File>) -> PickedFiles {
    let all: Vec<String> = files.iter().map(|f| f.name()).collect();
    let layout = picked_layout(&all)?;
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
