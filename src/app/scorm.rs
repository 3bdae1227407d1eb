//! SCORM 1.2 reporting: when the page runs inside an LMS that offers the
//! SCORM API (`window.API` in a parent frame or the opener), the open
//! lesson's score and completion go to it; otherwise nothing is said to
//! anyone. What is reported is `state::quiz::Score`.

use crate::state::quiz::Score;
use wasm_bindgen::{JsCast, JsValue};

/// How far up the frames the API is looked for (as ADL's own finder does).
const MAX_FRAMES: usize = 10;

/// The LMS's API object, once `LMSInitialize` said yes.
pub struct Scorm {
    api: js_sys::Object,
    /// The last report, so an unchanged one is not sent again.
    last: Option<(u32, &'static str)>,
    /// `LMSFinish` when the page goes away.
    _finish: Option<gloo_events::EventListener>,
}

/// `window.API` of `w`, when it is there and readable (another origin's
/// frame throws, and is passed over).
fn api_of(w: &JsValue) -> Option<js_sys::Object> {
    let api = js_sys::Reflect::get(w, &"API".into()).ok()?;
    // Not `dyn_into`: the API is the parent frame's object, and `instanceof`
    // this frame's `Object` is false for it.
    if !api.is_object() {
        return None;
    }
    let api: js_sys::Object = api.unchecked_into();
    let init = js_sys::Reflect::get(&api, &"LMSInitialize".into()).ok()?;
    init.is_function().then_some(api)
}

fn find() -> Option<js_sys::Object> {
    let window = web_sys::window()?;
    let mut w: JsValue = window.clone().into();
    for _ in 0..MAX_FRAMES {
        let parent = js_sys::Reflect::get(&w, &"parent".into()).ok()?;
        if parent.is_undefined() || parent.is_null() || js_sys::Object::is(&parent, &w) {
            break;
        }
        if let Some(api) = api_of(&parent) {
            return Some(api);
        }
        w = parent;
    }
    let opener = window.opener().ok()?;
    (!opener.is_null()).then(|| api_of(&opener)).flatten()
}

fn call(api: &js_sys::Object, name: &str, args: &[&str]) -> Option<JsValue> {
    let f = js_sys::Reflect::get(api, &name.into()).ok()?;
    if !f.is_function() {
        return None;
    }
    let f: js_sys::Function = f.unchecked_into();
    let args: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    f.apply(api, &args).ok()
}

/// SCORM 1.2 answers "true" and "false" as strings (some LMSs as booleans).
fn said_yes(v: Option<JsValue>) -> bool {
    v.is_some_and(|v| v.as_string().as_deref() == Some("true") || v.as_bool() == Some(true))
}

impl Scorm {
    /// The LMS's API, initialised, when the page runs inside one.
    pub fn connect() -> Option<Scorm> {
        let api = find()?;
        if !said_yes(call(&api, "LMSInitialize", &[""])) {
            return None;
        }
        let finish = web_sys::window().map(|w| {
            let api = api.clone();
            gloo_events::EventListener::once(&w, "pagehide", move |_| {
                call(&api, "LMSFinish", &[""]);
            })
        });
        Some(Scorm {
            api,
            last: None,
            _finish: finish,
        })
    }

    /// Reports the score (out of 100) and whether the lesson is complete:
    /// every question answered, or, with no questions, its last step seen.
    pub fn report(&mut self, score: Score, last_step_seen: bool) {
        let raw = (100 * score.right)
            .checked_div(score.total)
            .map_or(100, |r| r as u32);
        let complete = if score.total == 0 {
            last_step_seen
        } else {
            score.answered >= score.total
        };
        let status = if complete { "completed" } else { "incomplete" };
        if self.last == Some((raw, status)) {
            return;
        }
        self.last = Some((raw, status));
        let set = |k: &str, v: &str| call(&self.api, "LMSSetValue", &[k, v]);
        if score.total > 0 {
            set("cmi.core.score.min", "0");
            set("cmi.core.score.max", "100");
            set("cmi.core.score.raw", &raw.to_string());
        }
        set("cmi.core.lesson_status", status);
        call(&self.api, "LMSCommit", &[""]);
    }
}
