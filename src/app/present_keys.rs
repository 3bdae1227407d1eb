//! Projector mode's keys, heard on the whole window while the mode is on
//! (the listener goes when it is dropped). A key typed into a field stays
//! the field's, and Space on a button reached by keyboard stays the
//! button's; so does a key an element already handled (the compare view's
//! arrows, a token's Enter). A button that was clicked keeps focus but not
//! Space: after clicking Run, Space still reveals instead of running again.

use crate::state::projector::PresentKey;
use gloo_events::{EventListener, EventListenerOptions};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::Callback;

/// Elements whose keys are their own.
const TYPING: &str = "input, textarea, select, [contenteditable]";
/// Elements that Space and Enter activate.
const PRESSABLE: &str = "button, a, summary, label, [role=button]";

/// The keys' listener and the focus tracking it needs; dropped, all go.
pub struct PresentKeys {
    _listeners: [EventListener; 4],
}

/// Whether focus last arrived by a pointer (a click) or otherwise (Tab, a
/// script). `:focus-visible` cannot tell: a key pressed on a clicked button
/// makes it match.
#[derive(Default)]
struct FocusOrigin {
    /// Between a pointer's press and its release: focus moving now is its.
    pressing: Cell<bool>,
    by_pointer: Cell<bool>,
}

pub fn listen(on: Callback<PresentKey>) -> Option<PresentKeys> {
    let window = web_sys::window()?;
    let origin = Rc::new(FocusOrigin::default());
    let pressing = |down: bool| {
        let origin = Rc::clone(&origin);
        move |_: &web_sys::Event| origin.pressing.set(down)
    };
    let down = EventListener::new(&window, "pointerdown", pressing(true));
    let up = EventListener::new(&window, "pointerup", pressing(false));
    let focus = {
        let origin = Rc::clone(&origin);
        EventListener::new(&window, "focusin", move |_| {
            origin.by_pointer.set(origin.pressing.get());
        })
    };
    // Not passive: a handled Space or Page Down must not also scroll.
    let options = EventListenerOptions::enable_prevent_default();
    let keys = EventListener::new_with_options(&window, "keydown", options, move |event| {
        let Some(e) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
            return;
        };
        if e.default_prevented() || e.ctrl_key() || e.alt_key() || e.meta_key() {
            return;
        }
        let key = e.key();
        let Some(meaning) = PresentKey::from_key(&key) else {
            return;
        };
        let target = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let within = |selector: &str| {
            target
                .as_ref()
                .and_then(|t| t.closest(selector).ok().flatten())
                .is_some()
        };
        let by_keyboard = !origin.by_pointer.get();
        if within(TYPING) || (key == " " && within(PRESSABLE) && by_keyboard) {
            return;
        }
        e.prevent_default();
        on.emit(meaning);
    });
    Some(PresentKeys {
        _listeners: [down, up, focus, keys],
    })
}

/// Where a key's change is best seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScrollTo {
    /// A new lesson step: its prose, from the top.
    Top,
    /// A revealed answer: its verdict and explanation, the lanes under them.
    Questions,
}

impl ScrollTo {
    pub fn after(key: PresentKey) -> Option<ScrollTo> {
        match key {
            PresentKey::NextStep | PresentKey::PreviousStep => Some(ScrollTo::Top),
            PresentKey::Reveal => Some(ScrollTo::Questions),
            // The compare view scrolls itself into sight when it opens.
            _ => None,
        }
    }
}

pub fn scroll(to: ScrollTo) {
    let Some(window) = web_sys::window() else {
        return;
    };
    match to {
        ScrollTo::Top => window.scroll_to_with_x_and_y(0.0, 0.0),
        ScrollTo::Questions => {
            let quiz = window
                .document()
                .and_then(|d| d.query_selector("[data-testid=\"quiz\"]").ok().flatten());
            if let Some(quiz) = quiz {
                quiz.scroll_into_view();
            }
        }
    }
}
