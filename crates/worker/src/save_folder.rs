//! A student's MiniGPT, read from its `.pt`, saved as the model folder a
//! teacher hosts beside the page: the one answer that is bytes, not JSON
//! (see `ntl_protocol::saved_folder`).

use crate::post::post;
use ntl_engine::minigpt_import::MiniGptFolder;
use ntl_protocol::{saved_folder, FromWorker};

/// The folder the loaded MiniGPT makes, and the tokenizer it came with.
pub struct Kept {
    pub folder: MiniGptFolder,
    pub tokenizer: Vec<u8>,
}

/// Posts `{ saved_folder: "<name>.zip", bytes }`, the buffer transferred,
/// or a `SaveFailed` saying why not.
pub fn save(kept: &Option<Kept>, name: &str) {
    let failed = |why: String| post(&FromWorker::SaveFailed { why });
    let Some(kept) = kept else {
        return failed("no MiniGPT read from a .pt file is loaded".into());
    };
    // The name becomes a folder on a web server: plain letters only.
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "-_".contains(*c))
        .take(60)
        .collect();
    let name = if name.is_empty() {
        "minigpt".into()
    } else {
        name
    };
    let zip = match kept.folder.zipped(&name, &kept.tokenizer) {
        Ok(z) => z,
        Err(e) => return failed(e.to_string()),
    };
    let bytes = js_sys::Uint8Array::from(&zip[..]).buffer();
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(
        &message,
        &saved_folder::NAME.into(),
        &format!("{name}.zip").into(),
    );
    let _ = js_sys::Reflect::set(&message, &saved_folder::BYTES.into(), &bytes);
    let _ = super::scope().post_message_with_transfer(&message, &js_sys::Array::of1(&bytes));
}
