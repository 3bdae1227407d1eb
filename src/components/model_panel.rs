//! Which model is in use, how far its download is, and how to pick another.

use crate::components::cached_models::CachedModels;
use crate::components::model_picker::ModelPicker;
use crate::format;
use crate::model_files::{read_model_files, PickedFiles};
use crate::state::model::{DownloadSize, ModelStatus};
use ntl_protocol::ModelInfo;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the panel asks the page to do.
pub enum ModelAction {
    UseBundled,
    /// An embedded lesson's "Run live".
    RunLive,
    /// Download the hub model a share link asked for.
    ConfirmDownload,
    LoadHub,
    /// A model from the picker's list.
    Pick(&'static str),
    HubInput(String),
    Files(PickedFiles),
    RestartWorker,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub model: ModelStatus,
    pub notice: Option<String>,
    /// The weights may not fit this device's memory.
    pub memory_warning: Option<String>,
    pub hub_repo: String,
    pub worker_alive: bool,
    /// The worker has not said it listens within the page's patience.
    pub worker_slow: bool,
    /// Embed mode: the status line only.
    pub compact: bool,
    pub on: Callback<ModelAction>,
}

/// Said when the worker has not started within `WORKER_START_PATIENCE_MS`.
const SLOW_WORKER: &str = "The model worker has not started after 20 seconds. On a slow \
connection it may still come; if it seems stuck, restart it (it then runs on one thread).";

/// Why a page may run on one thread only.
const THREADS_HINT: &str = "The engine uses several threads only where the page is cross-origin \
isolated (served with Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers, as \
scripts/serve.mjs does). Results are identical either way; only the speed differs.";

/// What the class name says.
const ARCHITECTURE_HINT: &str = "The model's class in HF transformers, from its config.json: \
GPT2LMHeadModel (GPT-2, distilgpt2), LlamaForCausalLM (SmolLM2) or Qwen2ForCausalLM (Qwen2.5).";

const FILES_HINT: &str = "GPT-2, Llama (SmolLM2) and Qwen2 (Qwen2.5) checkpoints: config.json, model.safetensors (or its \
shards), tokenizer.json (or vocab.json with merges.txt); drop a downloaded repo's folder here or \
pick the files. distilgpt2 is about 350 MB; it is cached by the browser after the first download.";

fn loading(label: &str, file: &str, loaded: u64, total: Option<u64>, retry: Option<&str>) -> Html {
    let pct = total
        .filter(|t| *t > 0)
        .map(|t| (loaded as f64 / t as f64 * 100.0).min(100.0));
    let bytes = match total {
        Some(t) => format!(" {} of {}", format::bytes(loaded), format::bytes(t)),
        None => format!(" {}", format::bytes(loaded)),
    };
    html! {
        <span class="loading">
            { format!("Loading {label}: {file} ") }
            <progress
                max="100"
                value={pct.unwrap_or(0.0).to_string()}
                aria-label={format!("{file} downloaded")}
            />
            { bytes }
            if let Some(retry) = retry {
                <span class="retry" data-testid="retry" role="status">{ format!(" · {retry}") }</span>
            }
        </span>
    }
}

fn ready(info: &ModelInfo, label: &str, load_ms: f64, threads: u32) -> Html {
    let heads = match info.n_kv_head {
        Some(kv) => format!("{} heads ({kv} key/value)", info.n_head),
        None => format!("{} heads", info.n_head),
    };
    let facts = format!(
        " · {:.1} M parameters · {} layers · {heads} · {} wide · {} positions · {} · {} · \
         loaded in {:.1} s · ",
        info.parameters as f64 / 1e6,
        info.n_layer,
        info.n_embd,
        info.n_positions,
        info.storage_dtype,
        format::bytes(info.weight_bytes as u64),
        load_ms / 1000.0
    );
    let threads = if threads == 1 {
        "1 thread".to_string()
    } else {
        format!("{threads} threads")
    };
    html! {
        <span class="ready">
            <strong>{ label.to_string() }</strong>
            if !info.architecture.is_empty() {
                { " · " }
                <span data-testid="architecture" title={ARCHITECTURE_HINT}>
                    { info.architecture.clone() }
                </span>
            }
            { facts }
            <span data-testid="threads" title={THREADS_HINT}>{ threads }</span>
            { generation_defaults(info) }
        </span>
    }
}

/// The knobs of the repo's `generation_config.json` beyond its eos: what
/// HF's `generate()` would start from (an Instruct model's sampling), said
/// plainly because every lane starts from them unless it says otherwise.
fn generation_defaults(info: &ModelInfo) -> Html {
    let Some(defaults) = &info.generation_defaults else {
        return Html::default();
    };
    let knobs = defaults.beyond_eos();
    if knobs.is_empty() {
        return Html::default();
    }
    let list = knobs
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(" · ");
    html! {
        <span class="model-defaults" data-testid="model-defaults">
            { "This model's generation_config.json sets " }
            <code>{ list }</code>
            { ". HF's generate() starts from these unless a call says otherwise, and so do the \
               lanes here; each lane says what it takes from them and can start from the \
               library's defaults instead." }
        </span>
    }
}

fn confirm(repo: &str, size: DownloadSize, on: &Callback<ModelAction>) -> Html {
    let ask = format!(
        "This link asks for the model `{repo}` from the model hub. Nothing has been downloaded. "
    );
    let size = match size {
        DownloadSize::Asking => "Asking the hub how large it is… ".to_string(),
        DownloadSize::Known {
            bytes,
            cached: true,
        } => format!(
            "Its weights ({}) are already in this browser's cache: nothing to download. ",
            format::bytes(bytes)
        ),
        DownloadSize::Known { bytes, .. } => {
            format!("Its weights are {} to download. ", format::bytes(bytes))
        }
        DownloadSize::Unknown => "The hub did not say how large it is; the size shows once \
             the download starts (GPT-2-sized models are 250–550 MB). "
            .to_string(),
    };
    html! {
        <span class="confirm" data-testid="confirm-model">
            { ask }
            <span data-testid="download-size">{ size }</span>
            <button
                class="primary"
                data-testid="confirm-load"
                onclick={on.reform(|_: MouseEvent| ModelAction::ConfirmDownload)}
            >
                { format!("Download {repo}") }
            </button>
            { " " }
            <button
                data-testid="confirm-bundled"
                onclick={on.reform(|_: MouseEvent| ModelAction::UseBundled)}
            >
                { "Use the bundled offline model" }
            </button>
        </span>
    }
}

/// An embedded lesson's offer to run live, with what it would download.
fn run_live(size: DownloadSize, on: &Callback<ModelAction>) -> Html {
    let size = match size {
        DownloadSize::Asking => "asking how large the model is…".to_string(),
        DownloadSize::Known { cached: true, .. } => {
            "the model is already in this browser: nothing to download".to_string()
        }
        DownloadSize::Known { bytes, .. } => format!("downloads {}", format::bytes(bytes)),
        DownloadSize::Unknown => "the download's size shows once it starts".to_string(),
    };
    html! {
        <span class="confirm" data-testid="run-live-offer">
            { "Showing the lesson's recorded runs: nothing was downloaded. " }
            <button
                class="primary"
                data-testid="run-live"
                onclick={on.reform(|_: MouseEvent| ModelAction::RunLive)}
            >
                { "Run live" }
            </button>
            { " " }
            <span data-testid="download-size">{ format!("({size})") }</span>
        </span>
    }
}

/// Reads picked or dropped files, then hands them to the page.
fn take_files(on: &Callback<ModelAction>, files: Option<web_sys::FileList>) {
    let files: Vec<web_sys::File> = files
        .map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
        .unwrap_or_default();
    let on = on.clone();
    wasm_bindgen_futures::spawn_local(async move {
        on.emit(ModelAction::Files(read_model_files(files).await))
    });
}

/// The cached-models list's name for the model a ready label describes.
fn in_use_name(label: &str) -> String {
    match label.strip_suffix(" (model hub)") {
        Some(repo) => repo.to_string(),
        None if label.starts_with("bundled") => "bundled KJV-GPT-2".into(),
        None => label.to_string(),
    }
}

#[function_component(ModelPanel)]
pub fn model_panel(p: &Props) -> Html {
    let (status, state) = match &p.model {
        ModelStatus::Starting => (
            html! { <span>{ "Starting the model worker…" }</span> },
            "loading",
        ),
        ModelStatus::Loading {
            label,
            file,
            loaded,
            total,
            retry,
        } => (
            loading(label, file, *loaded, *total, retry.as_deref()),
            "loading",
        ),
        ModelStatus::Ready {
            info,
            label,
            load_ms,
            threads,
        } => (ready(info, label, *load_ms, *threads), "ready"),
        ModelStatus::Confirm { repo, size } => (confirm(repo, *size, &p.on), "confirm"),
        ModelStatus::OnRequest { size } => (run_live(*size, &p.on), "on-request"),
        ModelStatus::Failed { message, file, .. } => {
            let file = file.as_ref().map(|f| format!(" ({f})")).unwrap_or_default();
            let failed = html! {
                <span class="failed" data-testid="model-error">
                    { format!("Could not load the model{file}: {message}") }
                </span>
            };
            (failed, "failed")
        }
    };
    let on_hub_input = p.on.reform(|e: InputEvent| {
        ModelAction::HubInput(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    let on_files = {
        let on = p.on.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            take_files(&on, input.files());
            input.set_value("");
        })
    };
    let on_drop = {
        let on = p.on.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            take_files(&on, e.data_transfer().and_then(|d| d.files()));
        })
    };
    let idle = !p.model.is_busy() && p.worker_alive;
    let in_use = match &p.model {
        ModelStatus::Ready { label, .. } => Some(in_use_name(label)),
        _ => None,
    };
    html! {
        <section
            class="model-panel"
            ondragover={Callback::from(|e: DragEvent| e.prevent_default())}
            ondrop={on_drop}
        >
            <div class="model-status" data-testid="model-status" data-state={state}>{ status }</div>
            if let Some(w) = &p.memory_warning {
                <div class="notice" data-testid="memory-warning" role="alert">{ w.clone() }</div>
            }
            if let Some(n) = &p.notice {
                <div class="notice" data-testid="model-notice">{ n.clone() }</div>
            }
            if !p.compact {
                <details class="model-choice">
                    <summary>{ "Change model" }</summary>
                    <ModelPicker
                        in_use={in_use.clone()}
                        {idle}
                        on_pick={p.on.reform(ModelAction::Pick)}
                    />
                    <div class="row">
                        <button
                            disabled={!idle}
                            onclick={p.on.reform(|_: MouseEvent| ModelAction::UseBundled)}
                        >
                            { "Bundled offline model" }
                        </button>
                        <input
                            aria-label="model hub repo"
                            value={p.hub_repo.clone()}
                            oninput={on_hub_input}
                        />
                        <button
                            disabled={!idle}
                            onclick={p.on.reform(|_: MouseEvent| ModelAction::LoadHub)}
                        >
                            { "Load from the model hub" }
                        </button>
                        <label class="file">
                            { "Local files: " }
                            <input
                                type="file"
                                multiple=true
                                accept=".json,.safetensors,.txt"
                                data-testid="model-files"
                                disabled={!idle}
                                onchange={on_files}
                            />
                        </label>
                    </div>
                    <p class="hint">{ FILES_HINT }</p>
                    <CachedModels in_use={in_use} />
                </details>
            }
            if p.worker_slow {
                <div class="notice" data-testid="worker-slow" role="status">{ SLOW_WORKER }</div>
            }
            if !p.worker_alive || p.worker_slow {
                <button
                    data-testid="restart-worker"
                    onclick={p.on.reform(|_: MouseEvent| ModelAction::RestartWorker)}
                >
                    { "Restart the model worker" }
                </button>
            }
        </section>
    }
}
