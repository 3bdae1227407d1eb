//! A help text reachable by tap and keyboard, not by hover alone: a small
//! "?" button beside what it explains shows the text under it and hides it
//! again (Escape too). The `title` it replaces stays on the element for mouse
//! users; a tablet has no hover.

use crate::i18n::I18n;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// What the help says.
    pub text: AttrValue,
    /// What it explains (a knob's name), for the button's accessible name.
    pub about: AttrValue,
    /// Unique on the page: the shown text's element id.
    pub id: AttrValue,
}

#[function_component(Help)]
pub fn help(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let open = use_state(|| false);
    let onclick = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let onkeydown = {
        let open = open.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" && *open {
                e.prevent_default();
                open.set(false);
            }
        })
    };
    let label = tr.t_with("help-about", &[("about", p.about.to_string().into())]);
    html! {
        <>
            <button
                type="button"
                class="help"
                data-testid="help"
                aria-expanded={open.to_string()}
                aria-controls={p.id.clone()}
                aria-label={label}
                {onclick}
                {onkeydown}
            >
                { "?" }
            </button>
            if *open {
                <span class="help-text" id={p.id.clone()} role="note" data-testid="help-text">
                    { p.text.clone() }
                </span>
            }
        </>
    }
}

/// A knob's name as the label of its input `input_id`, with its help beside
/// it: the head of every knob box (lane editors of both ecosystems, sandbox).
pub fn knob_head(input_id: &str, name: &'static str, help: String) -> Html {
    html! {
        <span class="knob-head">
            <label for={input_id.to_string()}>{ name }</label>
            <Help text={help} about={name} id={format!("help-{input_id}")} />
        </span>
    }
}
