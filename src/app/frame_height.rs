//! An embedded page tells the page around it how tall it is, so a course
//! page can size its iframe: in the lab's own message and in the one that
//! Canvas and other LMSs already honour (`lti.frameResize`). Nothing is
//! sent when the page is not in a frame, or when its height is unchanged.

use wasm_bindgen::JsValue;

/// `{type: "next-token-lab:height", height}`: the lab's own message.
pub const MESSAGE_TYPE: &str = "next-token-lab:height";

fn message(key: &str, value: &str, height: i32) -> JsValue {
    let m = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&m, &key.into(), &value.into());
    let _ = js_sys::Reflect::set(&m, &"height".into(), &height.into());
    m.into()
}

/// Posts the page's height to its parent when it changed since `last`.
pub fn tell_parent(last: &mut i32) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if js_sys::Object::is(&parent, &window) {
        return;
    }
    // The root element's own box: its scrollHeight never drops below the
    // frame's height, so a frame sized by it could only grow.
    let Some(height) = window
        .document()
        .and_then(|d| d.document_element())
        .map(|e| e.get_bounding_client_rect().height().ceil() as i32)
    else {
        return;
    };
    if height == *last || height <= 0 {
        return;
    }
    *last = height;
    // The height is no secret: any parent may read it.
    let _ = parent.post_message(&message("type", MESSAGE_TYPE, height), "*");
    let _ = parent.post_message(&message("subject", "lti.frameResize", height), "*");
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embed_codes_listener_reads_the_message_the_frame_sends() {
        assert!(crate::page_url::HEIGHT_LISTENER.contains(super::MESSAGE_TYPE));
    }
}
