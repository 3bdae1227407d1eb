//! The page's head: its question, the model in use (the panel given as its
//! child), and what is on screen when it is a recorded run.

use crate::i18n::{languages, I18n};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Embed mode: a title with a way out to the full page.
    pub embed: bool,
    /// The full page with this page's lanes (embed mode's way out).
    pub full_page_url: String,
    /// The recorded run on screen, by file name.
    pub replay: Option<String>,
    /// Projector mode is on.
    pub present: bool,
    /// Turns projector mode on or off (no button in an embed).
    pub on_present: Option<Callback<()>>,
    /// Picks the page's language (no picker in an embed or projector mode:
    /// their language comes with their link).
    pub on_language: Option<Callback<String>>,
    /// The model panel.
    pub children: Html,
}

#[function_component(Header)]
pub fn header(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    html! {
        <header class={classes!((!p.embed).then_some("page-head"))}>
            if p.embed {
                <h1 class="embed-title">
                    { tr.t("page-title") }
                    <a
                        class="full-page"
                        data-testid="open-full-page"
                        href={p.full_page_url.clone()}
                        target="_blank"
                        rel="noopener"
                    >
                        { tr.t("open-full-page") }
                    </a>
                </h1>
            } else {
                <h1>{ tr.t("page-title") }</h1>
            }
            if let Some(on) = &p.on_present {
                <button
                    class="present-toggle"
                    data-testid="present-toggle"
                    aria-pressed={p.present.to_string()}
                    title={tr.t("projector-mode-title")}
                    onclick={on.reform(|e: MouseEvent| {
                        // Space is projector mode's reveal key: a focused
                        // toggle would take it and leave the mode.
                        if let Some(button) = e.target_dyn_into::<web_sys::HtmlElement>() {
                            let _ = button.blur();
                        }
                    })}
                >
                    { tr.t(if p.present { "projector-mode-leave" } else { "projector-mode" }) }
                </button>
            }
            if let Some(on) = &p.on_language {
                { language_picker(&tr, on) }
            }
            { p.children.clone() }
            // Projector mode: the lesson bar already says a recording shows.
            if let Some(name) = p.replay.as_ref().filter(|_| !p.present) {
                <p class="notice" data-testid="replay-notice">
                    { tr.t_with("replay-notice", &[("name", name.as_str().into())]) }
                </p>
            }
        </header>
    }
}

/// Every language the page speaks, each by its own name.
fn language_picker(tr: &I18n, on: &Callback<String>) -> Html {
    let onchange = on.reform(|e: Event| {
        e.target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value()
    });
    html! {
        <label class="language" title={tr.t("language-picker-title")}>
            <span class="visually-hidden">{ tr.t("language-picker") }</span>
            <select data-testid="lang-picker" {onchange}>
                { for languages().into_iter().map(|(tag, name)| html! {
                    <option value={tag} lang={tag} selected={tag == tr.tag()}>{ name }</option>
                }) }
            </select>
        </label>
    }
}
