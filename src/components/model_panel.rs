//! Which model is in use, how far its download is, and how to pick another.

use crate::app::ModelState;
use crate::format;
use crate::model_files::read_model_files;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub model: ModelState,
    pub notice: Option<String>,
    pub hub_repo: String,
    pub worker_alive: bool,
    /// Embed mode: the status line only.
    pub compact: bool,
    pub on_bundled: Callback<()>,
    pub on_confirm: Callback<()>,
    pub on_hub: Callback<()>,
    pub on_hub_input: Callback<String>,
    pub on_files: Callback<crate::model_files::PickedFiles>,
    pub on_restart: Callback<()>,
}

/// Why a page may run on one thread only.
const THREADS_HINT: &str = "The engine uses several threads only where the page is cross-origin isolated \
(served with Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers, as scripts/serve.mjs does). \
Results are identical either way; only the speed differs.";

#[function_component(ModelPanel)]
pub fn model_panel(p: &Props) -> Html {
    let status = match &p.model {
        ModelState::Starting => html! { <span>{ "Starting the model worker…" }</span> },
        ModelState::Loading {
            label,
            file,
            loaded,
            total,
        } => {
            let pct = total
                .filter(|t| *t > 0)
                .map(|t| (*loaded as f64 / t as f64 * 100.0).min(100.0));
            html! {
                <span class="loading">
                    { format!("Loading {label}: {file} ") }
                    <progress max="100" value={pct.unwrap_or(0.0).to_string()} />
                    { match total { Some(t) => format!(" {} of {}", format::bytes(*loaded), format::bytes(*t)), None => format!(" {}", format::bytes(*loaded)) } }
                </span>
            }
        }
        ModelState::Ready {
            info,
            label,
            load_ms,
            threads,
        } => html! {
            <span class="ready">
                <strong>{ label.clone() }</strong>
                { format!(" · {:.1} M parameters · {} layers · {} heads · {} wide · {} positions · {} · {} · loaded in {:.1} s · ",
                    info.parameters as f64 / 1e6, info.n_layer, info.n_head, info.n_embd, info.n_positions,
                    info.storage_dtype, format::bytes(info.weight_bytes as u64), load_ms / 1000.0) }
                <span data-testid="threads" title={THREADS_HINT}>{ if *threads == 1 { "1 thread".to_string() } else { format!("{threads} threads") } }</span>
            </span>
        },
        ModelState::Confirm { repo } => html! {
            <span class="confirm" data-testid="confirm-model">
                { format!("This link asks for the model `{repo}` from the model hub. Nothing has been downloaded; its size shows as soon as the download starts (GPT-2-sized models are 250–550 MB). ") }
                <button class="primary" data-testid="confirm-load" onclick={p.on_confirm.reform(|_: MouseEvent| ())}>{ format!("Download {repo}") }</button>
                { " " }
                <button data-testid="confirm-bundled" onclick={p.on_bundled.reform(|_: MouseEvent| ())}>{ "Use the bundled offline model" }</button>
            </span>
        },
        ModelState::Failed { message, file, .. } => html! {
            <span class="failed" data-testid="model-error">
                { "Could not load the model" }
                { file.as_ref().map(|f| format!(" ({f})")).unwrap_or_default() }
                { format!(": {message}") }
            </span>
        },
    };
    let on_hub_input = {
        let cb = p.on_hub_input.clone();
        Callback::from(move |e: InputEvent| {
            cb.emit(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_files = {
        let cb = p.on_files.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let files: Vec<web_sys::File> = input
                .files()
                .map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
                .unwrap_or_default();
            input.set_value("");
            let cb = cb.clone();
            wasm_bindgen_futures::spawn_local(
                async move { cb.emit(read_model_files(files).await) },
            );
        })
    };
    let on_drop = {
        let cb = p.on_files.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            let files: Vec<web_sys::File> = e
                .data_transfer()
                .and_then(|d| d.files())
                .map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
                .unwrap_or_default();
            let cb = cb.clone();
            wasm_bindgen_futures::spawn_local(
                async move { cb.emit(read_model_files(files).await) },
            );
        })
    };
    let busy = matches!(p.model, ModelState::Loading { .. } | ModelState::Starting);
    let bundled = p.on_bundled.reform(|_: MouseEvent| ());
    let hub = p.on_hub.reform(|_: MouseEvent| ());
    let restart = p.on_restart.reform(|_: MouseEvent| ());
    html! {
        <section class="model-panel" ondragover={Callback::from(|e: DragEvent| e.prevent_default())} ondrop={on_drop}>
            <div class="model-status" data-testid="model-status" data-state={match p.model { ModelState::Ready { .. } => "ready", ModelState::Failed { .. } => "failed", ModelState::Confirm { .. } => "confirm", _ => "loading" }}>
                { status }
            </div>
            if let Some(n) = &p.notice {
                <div class="notice" data-testid="model-notice">{ n.clone() }</div>
            }
            if !p.compact {
            <details class="model-choice">
                <summary>{ "Change model" }</summary>
                <div class="row">
                    <button disabled={busy || !p.worker_alive} onclick={bundled}>{ "Bundled offline model" }</button>
                    <input aria-label="model hub repo" value={p.hub_repo.clone()} oninput={on_hub_input} />
                    <button disabled={busy || !p.worker_alive} onclick={hub}>{ "Load from the model hub" }</button>
                    <label class="file">{ "Local files: " }
                        <input type="file" multiple=true accept=".json,.safetensors" data-testid="model-files" disabled={busy || !p.worker_alive} onchange={on_files} />
                    </label>
                </div>
                <p class="hint">{ "GPT-2-family checkpoints: config.json, model.safetensors, tokenizer.json (drop them here or pick them). distilgpt2 is about 350 MB; it is cached by the browser after the first download." }</p>
            </details>
            }
            if !p.worker_alive {
                <button data-testid="restart-worker" onclick={restart}>{ "Restart the model worker" }</button>
            }
        </section>
    }
}
