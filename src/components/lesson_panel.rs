//! "Put it in a lesson": share link, embed code, exports and replay of a
//! recorded run.

use yew::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Export {
    Json,
    Csv,
    Markdown,
    PlotsSvg,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// A finished or replayed run exists to export.
    pub has_document: bool,
    pub share_link: Option<String>,
    pub embed_code: Option<String>,
    pub on_share: Callback<()>,
    pub on_embed: Callback<()>,
    pub on_export: Callback<Export>,
    pub on_replay: Callback<web_sys::File>,
}

#[function_component(LessonPanel)]
pub fn lesson_panel(p: &Props) -> Html {
    let export = |kind: Export| p.on_export.reform(move |_: MouseEvent| kind);
    let on_replay = {
        let cb = p.on_replay.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(f) = input.files().and_then(|l| l.get(0)) {
                cb.emit(f);
            }
            input.set_value("");
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
            t.select();
        }
    });
    html! {
        <section class="lesson-panel" aria-label="share, embed, export">
            <div class="actions">
                <button data-testid="share" onclick={p.on_share.reform(|_| ())} title="a link that restores this prompt, these four lanes and the model, and runs them">{ "Copy share link" }</button>
                <button data-testid="embed" onclick={p.on_embed.reform(|_| ())} title="an <iframe> for a course page: the four lanes without the editors">{ "Copy embed code" }</button>
                <span class="sep">{ "Export:" }</span>
                <button data-testid="export-json" disabled={!p.has_document} onclick={export(Export::Json)} title="the whole run with every step's table (the CLI's --json schema); load it back with Replay">{ "JSON" }</button>
                <button data-testid="export-csv" disabled={!p.has_document} onclick={export(Export::Csv)} title="every step's candidate table, one row per candidate">{ "CSV" }</button>
                <button data-testid="export-markdown" disabled={!p.has_document} onclick={export(Export::Markdown)} title="the four texts side by side">{ "Markdown" }</button>
                <button data-testid="export-plots" disabled={!p.has_document} onclick={export(Export::PlotsSvg)} title="the plots as one SVG image">{ "Plots image" }</button>
                <label class="file-button" title="view a run exported as JSON, without a model">
                    { "Replay a recorded run…" }
                    <input type="file" accept=".json,application/json" data-testid="replay-file" onchange={on_replay} />
                </label>
            </div>
            if let Some(link) = &p.share_link {
                <label class="code">{ "Share link" }
                    <textarea readonly=true rows="2" data-testid="share-link" value={link.clone()} onfocus={select_all.clone()} />
                </label>
            }
            if let Some(code) = &p.embed_code {
                <label class="code">{ "Embed code" }
                    <textarea readonly=true rows="3" data-testid="embed-code" value={code.clone()} onfocus={select_all} />
                </label>
            }
        </section>
    }
}
