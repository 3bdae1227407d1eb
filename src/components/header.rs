//! The page's head: its question, the model in use (the panel given as its
//! child), and what is on screen when it is a recorded run.

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
    /// The model panel.
    pub children: Html,
}

const TITLE: &str = "How does the model pick the next token?";

#[function_component(Header)]
pub fn header(p: &Props) -> Html {
    html! {
        <header class={classes!((!p.embed).then_some("page-head"))}>
            if p.embed {
                <h1 class="embed-title">
                    { TITLE }
                    <a
                        class="full-page"
                        data-testid="open-full-page"
                        href={p.full_page_url.clone()}
                        target="_blank"
                        rel="noopener"
                    >
                        { "Open the full page ↗" }
                    </a>
                </h1>
            } else {
                <h1>{ TITLE }</h1>
            }
            if let Some(on) = &p.on_present {
                <button
                    class="present-toggle"
                    data-testid="present-toggle"
                    aria-pressed={p.present.to_string()}
                    title="large type and one thing at a time, for a lecture hall (?present=1)"
                    onclick={on.reform(|e: MouseEvent| {
                        // Space is projector mode's reveal key: a focused
                        // toggle would take it and leave the mode.
                        if let Some(button) = e.target_dyn_into::<web_sys::HtmlElement>() {
                            let _ = button.blur();
                        }
                    })}
                >
                    { if p.present { "Leave projector mode" } else { "Projector mode" } }
                </button>
            }
            { p.children.clone() }
            // Projector mode: the lesson bar already says a recording shows.
            if let Some(name) = p.replay.as_ref().filter(|_| !p.present) {
                <p class="notice" data-testid="replay-notice">
                    { format!(
                        "Replaying the recorded run in `{name}`: tables and plots as recorded, \
                         no model needed. Run to generate afresh."
                    ) }
                </p>
            }
        </header>
    }
}
