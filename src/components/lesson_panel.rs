//! "Put it in a lesson": share link, embed code, exports and replay of a
//! recorded run.

use crate::export::Export;
use yew::prelude::*;

/// What the panel asks the page to do.
pub enum LessonAction {
    Share,
    Embed,
    Export(Export),
    /// View a run recorded in this file (an exported JSON).
    Replay(web_sys::File),
    /// Print the open lesson as a handout.
    PrintHandout,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// A finished or replayed run exists to export.
    pub has_document: bool,
    pub share_link: Option<String>,
    pub embed_code: Option<String>,
    /// The handout's recordings still being fetched.
    pub handout_fetching: usize,
    pub on: Callback<LessonAction>,
}

const SHARE_HINT: &str =
    "a link that restores this prompt, these four lanes and the model, and runs them";

/// The export buttons: what each saves, and its hint.
const EXPORTS: [(Export, &str, &str, &str); 4] = [
    (
        Export::Json,
        "export-json",
        "JSON",
        "the whole run with every step's table (the CLI's --json schema); load it back with Replay",
    ),
    (
        Export::Csv,
        "export-csv",
        "CSV",
        "every step's candidate table, one row per candidate",
    ),
    (
        Export::Markdown,
        "export-markdown",
        "Markdown",
        "the four texts side by side",
    ),
    (
        Export::PlotsSvg,
        "export-plots",
        "Plots image",
        "the plots as one SVG image",
    ),
];

/// A text to copy (a link, an iframe), selected whole when focused.
fn code_box(label: &str, testid: &'static str, rows: u32, text: &str) -> Html {
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
            t.select();
        }
    });
    html! {
        <label class="code">
            { label.to_string() }
            <textarea
                readonly=true
                rows={rows.to_string()}
                data-testid={testid}
                value={text.to_string()}
                onfocus={select_all}
            />
        </label>
    }
}

#[function_component(LessonPanel)]
pub fn lesson_panel(p: &Props) -> Html {
    let on_replay = {
        let on = p.on.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(f) = input.files().and_then(|l| l.get(0)) {
                on.emit(LessonAction::Replay(f));
            }
            input.set_value("");
        })
    };
    html! {
        <section class="lesson-panel" aria-label="share, embed, export">
            <div class="actions">
                <button
                    data-testid="share"
                    onclick={p.on.reform(|_: MouseEvent| LessonAction::Share)}
                    title={SHARE_HINT}
                >
                    { "Copy share link" }
                </button>
                <button
                    data-testid="embed"
                    onclick={p.on.reform(|_: MouseEvent| LessonAction::Embed)}
                    title="an <iframe> for a course page: the four lanes without the editors"
                >
                    { "Copy embed code" }
                </button>
                <span class="sep">{ "Export:" }</span>
                { for EXPORTS.iter().map(|&(kind, testid, label, title)| html! {
                    <button
                        data-testid={testid}
                        disabled={!p.has_document}
                        onclick={p.on.reform(move |_: MouseEvent| LessonAction::Export(kind))}
                        {title}
                    >
                        { label }
                    </button>
                }) }
                <label class="file-button" title="view a run exported as JSON, without a model">
                    { "Replay a recorded run…" }
                    <input
                        type="file"
                        accept=".json,application/json"
                        data-testid="replay-file"
                        onchange={on_replay}
                    />
                </label>
                <button
                    data-testid="print-handout"
                    disabled={p.handout_fetching > 0}
                    onclick={p.on.reform(|_: MouseEvent| LessonAction::PrintHandout)}
                    title="the open lesson on paper or as a PDF: every step's prose, prompt, lanes, recorded texts and first tables, its questions and an answer key"
                >
                    { if p.handout_fetching > 0 {
                        format!("Preparing the handout ({} to fetch)…", p.handout_fetching)
                    } else {
                        "Print the lesson as a handout".to_string()
                    } }
                </button>
            </div>
            if let Some(link) = &p.share_link {
                { code_box("Share link", "share-link", 2, link) }
            }
            if let Some(code) = &p.embed_code {
                { code_box("Embed code", "embed-code", 3, code) }
            }
        </section>
    }
}
