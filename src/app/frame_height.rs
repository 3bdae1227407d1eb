//! An embedded page tells the page around it how tall it is, so a course
//! page can size its iframe: in the lab's own message, in the one that
//! Canvas and other LMSs already honour (`lti.frameResize`), and through
//! H5P's resizer handshake for pages that load `h5p-resizer.js` (Moodle,
//! WordPress course sites): the frame says `hello`; once the parent answers,
//! each new height goes as `prepareResize`, the parent answers
//! `resizePrepared`, and the frame sends `resize` with the height (every
//! message `{context: "h5p", action, …}`). A `ResizeObserver` on the root
//! element reports each change after layout, so streaming tokens never
//! force a layout to measure the page. Nothing is sent when the page is not
//! in a frame, or when its height is unchanged.

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

/// `{context: "h5p", action}`, with the height where the action carries one.
fn h5p(action: &str, height: Option<i32>) -> JsValue {
    let m = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&m, &"context".into(), &"h5p".into());
    let _ = js_sys::Reflect::set(&m, &"action".into(), &action.into());
    if let Some(h) = height {
        let _ = js_sys::Reflect::set(&m, &"scrollHeight".into(), &h.into());
        let _ = js_sys::Reflect::set(&m, &"clientHeight".into(), &h.into());
    }
    m.into()
}

/// A field of a message's data, as text.
fn field(data: &JsValue, key: &str) -> Option<String> {
    js_sys::Reflect::get(data, &key.into()).ok()?.as_string()
}

/// Watches the page's height while it lives; dropping it stops.
pub struct FrameHeight {
    observer: web_sys::ResizeObserver,
    window: web_sys::Window,
    _on_resize: Closure<dyn FnMut(js_sys::Array)>,
    on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl Drop for FrameHeight {
    fn drop(&mut self) {
        self.observer.disconnect();
        let _ = self.window.remove_event_listener_with_callback(
            "message",
            self.on_message.as_ref().unchecked_ref(),
        );
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
    // The parent answered H5P's `hello`: it runs the resizer.
    let h5p_parent = Rc::new(Cell::new(false));
    let on_message = {
        let (parent, last, h5p_parent) = (parent.clone(), last.clone(), h5p_parent.clone());
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            // Only the frame's own parent speaks for the course page.
            let from_parent = e.source().is_some_and(|s| js_sys::Object::is(&s, &parent));
            let data = e.data();
            if !from_parent || field(&data, "context").as_deref() != Some("h5p") {
                return;
            }
            let height = Some(last.get()).filter(|h| *h > 0);
            let reply = match field(&data, "action").as_deref() {
                // The resizer starts (it greets frames it knows as H5P's).
                Some("ready") => h5p("hello", None),
                Some("hello") => {
                    h5p_parent.set(true);
                    match height {
                        Some(h) => h5p("prepareResize", Some(h)),
                        None => return,
                    }
                }
                Some("resizePrepared") => h5p("resize", height),
                // The course page's window changed size.
                Some("resize") => h5p("prepareResize", height),
                _ => return,
            };
            let _ = parent.post_message(&reply, "*");
        })
    };
    window
        .add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref())
        .ok()?;
    let _ = parent.post_message(&h5p("hello", None), "*");
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
        if h5p_parent.get() {
            let _ = parent.post_message(&h5p("prepareResize", Some(height)), "*");
        }
    });
    let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
    observer.observe(&root);
    Some(FrameHeight {
        observer,
        window,
        _on_resize: on_resize,
        on_message,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embed_codes_listener_reads_the_message_the_frame_sends() {
        assert!(crate::page_url::HEIGHT_LISTENER.contains(super::MESSAGE_TYPE));
    }
}
