//! An embedded page tells the page around it how tall it is, so a course
//! page can size its iframe: in the lab's own message and in the one that
//! Canvas and other LMSs already honour (`lti.frameResize`). A
//! `ResizeObserver` on the root element reports each change after layout,
//! so streaming tokens never force a layout to measure the page. Nothing is
//! sent when the page is not in a frame, or when its height is unchanged.

use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `{type: "next-token-lab:height", height}`: the lab's own message.
pub const MESSAGE_TYPE: &str = "next-token-lab:height";

fn message(key: &str, value: &str, height: i32) -> JsValue {
    let m = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&m, &key.into(), &value.into());
    let _ = js_sys::Reflect::set(&m, &"height".into(), &height.into());
    m.into()
}

/// Watches the page's height while it lives; dropping it stops.
pub struct FrameHeight {
    observer: web_sys::ResizeObserver,
    _on_resize: Closure<dyn FnMut(js_sys::Array)>,
}

impl Drop for FrameHeight {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Starts telling the parent the page's height, when the page is in a frame.
pub fn observe() -> Option<FrameHeight> {
    let window = web_sys::window()?;
    let parent = window.parent().ok().flatten()?;
    if js_sys::Object::is(&parent, &window) {
        return None;
    }
    let root = window.document()?.document_element()?;
    let last = Rc::new(Cell::new(0));
    let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let Some(entry) = entries
            .get(0)
            .dyn_into::<web_sys::ResizeObserverEntry>()
            .ok()
        else {
            return;
        };
        // The root element's own box: its scrollHeight never drops below
        // the frame's height, so a frame sized by it could only grow.
        let height = entry.content_rect().height().ceil() as i32;
        if height == last.get() || height <= 0 {
            return;
        }
        last.set(height);
        // The height is no secret: any parent may read it.
        let _ = parent.post_message(&message("type", MESSAGE_TYPE, height), "*");
        let _ = parent.post_message(&message("subject", "lti.frameResize", height), "*");
    });
    let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
    observer.observe(&root);
    Some(FrameHeight {
        observer,
        _on_resize: on_resize,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embed_codes_listener_reads_the_message_the_frame_sends() {
        assert!(crate::page_url::HEIGHT_LISTENER.contains(super::MESSAGE_TYPE));
    }
}
