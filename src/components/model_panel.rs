//! Which model is in use, how far its download is, and how to pick another.

use crate::components::cached_models::CachedModels;
use crate::components::model_picker::ModelPicker;
use crate::components::student_model;
use crate::format;
use crate::i18n::I18n;
use crate::model_files::{read_model_files, PickedFiles};
use crate::said::{Retry, Said};
use crate::state::model::{DownloadSize, GgufChoice, MemoryWarning, ModelStatus};
use crate::worker_choice::OneThread;
use ntl_protocol::{ModelInfo, ModelSource};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the panel asks the page to do.
pub enum ModelAction {
    UseBundled,
    /// An embedded lesson's "Run live".
    RunLive,
    /// Download the hub model a share link asked for.
    ConfirmDownload,
    /// The repo in the box: its size first, then the download when confirmed.
    LoadHub,
    /// One of a GGUF repo's files, by name.
    ChooseGguf(String),
    /// Not the typed repo after all: keep the model in use.
    KeepCurrent,
    /// A model from the picker's list.
    Pick(&'static str),
    /// A model folder from the site's `models/index.json`.
    PickFolder(String),
    /// *Change model* was opened.
    ChoicesOpened,
    HubInput(String),
    Files(PickedFiles),
    RestartWorker,
    /// Keep a safetensors model's matrices as Q8_0 blocks (or not).
    EightBit(bool),
    /// A load failed before the worker let its model go: go on with that one.
    KeepPrevious,
    /// The head count for a MiniGPT's `.pt` picked without `config.json`.
    Heads(String),
    /// Save the MiniGPT in use as a model folder (zipped).
    SaveFolder,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub model: ModelStatus,
    pub notice: Option<Said>,
    /// The weights may not fit this device's memory.
    pub memory_warning: Option<MemoryWarning>,
    /// The model folders the site hosts, and why its index was refused.
    pub site_models: std::rc::Rc<Vec<ntl_protocol::site_models::SiteModel>>,
    pub site_models_error: Option<Said>,
    pub hub_repo: String,
    /// A typed repo waits for the user's word, and the model in use can stay.
    pub can_keep_current: bool,
    /// A repo of llama.cpp files waits for the user's word: its `.gguf` files.
    #[prop_or_default]
    pub gguf: Option<GgufChoice>,
    pub worker_alive: bool,
    /// The worker has not said it listens within the page's patience.
    pub worker_slow: bool,
    /// Why the model runs on the single-threaded worker, when it does.
    #[prop_or_default]
    pub one_thread: Option<OneThread>,
    /// Safetensors models are quantized to Q8_0 while loading.
    #[prop_or_default]
    pub eight_bit: bool,
    /// A failed load left this model in the worker, to go on with.
    #[prop_or_default]
    pub previous: Option<ModelSource>,
    /// The head count for a MiniGPT picked without its `config.json`.
    #[prop_or(crate::state::model::TUTORIAL_HEADS)]
    pub minigpt_heads: usize,
    /// The model in use is a MiniGPT read from a picked `.pt`: it can be
    /// saved as a model folder.
    #[prop_or_default]
    pub can_save_folder: bool,
    /// Embed mode: the status line only.
    pub compact: bool,
    pub on: Callback<ModelAction>,
}

/// The memory warning's words.
fn memory_words(w: &MemoryWarning, tr: &I18n) -> String {
    let rounded = |bytes: u64| {
        let gb = bytes as f64 / 1e9;
        if gb < 1.0 {
            format!("{:.0} MB", gb * 1e3)
        } else {
            format!("{gb:.1} GB")
        }
    };
    let size = format!("{:.0} MB", w.bytes as f64 / 1e6);
    let cache = tr.memory_cache(w.cache_tokens);
    match w.device_gb {
        _ if w.beyond_wasm => tr.t_with(
            "memory-beyond-wasm",
            &[
                ("size", size.into()),
                ("need", rounded(w.wasm_bytes).into()),
                ("cache", cache.into()),
            ],
        ),
        Some(gb) => tr.t_with(
            "memory-warning",
            &[
                ("size", size.into()),
                ("need", rounded(w.need_bytes).into()),
                ("cache", cache.into()),
                ("device", format!("{gb} GB").into()),
            ],
        ),
        None => String::new(),
    }
}

fn loading(
    name: &str,
    file: &str,
    loaded: u64,
    total: Option<u64>,
    retry: Option<&Retry>,
    tr: &I18n,
) -> Html {
    let pct = total
        .filter(|t| *t > 0)
        .map(|t| (loaded as f64 / t as f64 * 100.0).min(100.0));
    let bytes = match total {
        Some(t) => tr.t_with(
            "loaded-of",
            &[
                ("loaded", format::bytes(loaded).into()),
                ("total", format::bytes(t).into()),
            ],
        ),
        None => format!(" {}", format::bytes(loaded)),
    };
    html! {
        <span class="loading">
            { tr.t_with("loading-model", &[("name", name.into()), ("file", file.into())]) }
            <progress
                max="100"
                value={pct.unwrap_or(0.0).to_string()}
                aria-label={tr.t_with("file-downloaded", &[("file", file.into())])}
            />
            { bytes }
            if let Some(retry) = retry {
                <span class="retry" data-testid="retry" role="status">{ format!(" · {}", tr.retry(retry)) }</span>
            }
        </span>
    }
}

/// "1 thread — this browser gives pages no SharedArrayBuffer", with the
/// worker build and the reason as data for tests.
fn threads_line(threads: u32, one_thread: Option<OneThread>, tr: &I18n) -> Html {
    let why = one_thread.map(|w| {
        tr.t(match w {
            OneThread::NotIsolated => "one-thread-not-isolated",
            OneThread::NoSharedArrayBuffer => "one-thread-no-shared-array-buffer",
            OneThread::NoSharedWasmMemory => "one-thread-no-shared-wasm-memory",
            OneThread::ThreadedFailed => "one-thread-threaded-failed",
        })
    });
    html! {
        <span
            data-testid="threads"
            data-worker={if one_thread.is_some() { "single" } else { "threaded" }}
            data-why={one_thread.map(OneThread::as_str).unwrap_or_default()}
            title={tr.t("threads-hint")}
        >
            { tr.t_with("threads", &[("threads", threads.into())]) }
            if let Some(why) = why {
                { " — " }{ why }
            }
        </span>
    }
}

fn ready(
    info: &ModelInfo,
    name: &str,
    load_ms: f64,
    threads: u32,
    one_thread: Option<OneThread>,
    tr: &I18n,
) -> Html {
    let heads = match info.n_kv_head {
        Some(kv) => tr.t_with(
            "model-heads-kv",
            &[("heads", info.n_head.into()), ("kv", kv.into())],
        ),
        None => tr.t_with("model-heads", &[("heads", info.n_head.into())]),
    };
    let facts = tr.t_with(
        "model-facts",
        &[
            (
                "params",
                format!("{:.1}", info.parameters as f64 / 1e6).into(),
            ),
            ("layers", info.n_layer.into()),
            ("heads", heads.into()),
            ("width", info.n_embd.into()),
            ("positions", info.n_positions.into()),
            ("dtype", info.storage_dtype.clone().into()),
            ("size", format::bytes(info.weight_bytes as u64).into()),
            ("seconds", format!("{:.1}", load_ms / 1000.0).into()),
        ],
    );
    html! {
        <span class="ready">
            <strong>{ name.to_string() }</strong>
            if !info.architecture.is_empty() {
                { " · " }
                <span data-testid="architecture" title={tr.t("architecture-hint")}>
                    { info.architecture.clone() }
                </span>
            }
            { facts }
            { threads_line(threads, one_thread, tr) }
            { generation_defaults(info, tr) }
        </span>
    }
}

/// The knobs of the repo's `generation_config.json` beyond its eos: what
/// HF's `generate()` would start from (an Instruct model's sampling), said
/// plainly because every lane starts from them unless it says otherwise.
fn generation_defaults(info: &ModelInfo, tr: &I18n) -> Html {
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
            { tr.t("model-defaults-before") }
            <code>{ list }</code>
            { tr.t("model-defaults-after") }
        </span>
    }
}

/// A GGUF repo's files, one per quantization: the quant tag, the download,
/// whether the browser has it, and the types this page cannot run greyed out.
fn gguf_files(choice: &GgufChoice, on: &Callback<ModelAction>, tr: &I18n) -> Html {
    let files = choice.listing.files.iter().map(|f| {
        let runs = f.runs_here();
        let chosen = choice.chosen.as_deref() == Some(f.name.as_str());
        let name = f.name.clone();
        let onchange = on.reform(move |_: Event| ModelAction::ChooseGguf(name.clone()));
        let tag = f.tag().unwrap_or_else(|| tr.t("gguf-no-tag"));
        html! {
            <label
                class={classes!("gguf-file", chosen.then_some("chosen"))}
                data-testid="gguf-file"
                data-name={f.name.clone()}
                data-runs={runs.to_string()}
            >
                <input type="radio" name="gguf-file" checked={chosen} disabled={!runs} {onchange} />
                <strong class="gguf-tag">{ tag }</strong>
                { " " }
                <span data-testid="gguf-size">{ format::bytes(f.bytes) }</span>
                { " " }
                <code>{ f.name.clone() }</code>
                if f.cached {
                    <span class="gguf-note">{ tr.t("gguf-cached") }</span>
                }
                if !runs {
                    <span class="gguf-note">{ tr.t("gguf-not-here") }</span>
                }
            </label>
        }
    });
    html! {
        <fieldset class="gguf-files" data-testid="gguf-files">
            <legend>{ tr.t("gguf-choose") }</legend>
            { for files }
            if choice.listing.split > 0 {
                <p class="hint">{ tr.t_with("gguf-split", &[("count", choice.listing.split.into())]) }</p>
            }
        </fieldset>
    }
}

#[allow(clippy::too_many_arguments)]
fn confirm(
    repo: &str,
    size: DownloadSize,
    typed: bool,
    keep: bool,
    beyond_wasm: bool,
    gguf: Option<&GgufChoice>,
    on: &Callback<ModelAction>,
    tr: &I18n,
) -> Html {
    let unchosen = gguf.is_some_and(|g| g.chosen.is_none());
    let ask = tr.t_with(
        if typed {
            "confirm-ask-typed"
        } else if ntl_protocol::valid_folder_path(repo) {
            "confirm-ask-folder"
        } else {
            "confirm-ask"
        },
        &[("repo", repo.into())],
    );
    let size = match size {
        DownloadSize::Asking => tr.t("confirm-asking"),
        DownloadSize::Known {
            bytes,
            cached: true,
        } => tr.t_with("confirm-cached", &[("size", format::bytes(bytes).into())]),
        DownloadSize::Known { bytes, .. } => {
            tr.t_with("confirm-size", &[("size", format::bytes(bytes).into())])
        }
        DownloadSize::Unknown if unchosen => tr.t("gguf-choose-first"),
        DownloadSize::Unknown => tr.t("confirm-unknown"),
    };
    html! {
        <span class="confirm" data-testid="confirm-model">
            { ask }
            <span data-testid="download-size">{ size }</span>
            if let Some(g) = gguf {
                { gguf_files(g, on, tr) }
            }
            <button
                class="primary"
                data-testid="confirm-load"
                disabled={beyond_wasm || unchosen}
                onclick={on.reform(|_: MouseEvent| ModelAction::ConfirmDownload)}
            >
                { tr.t_with("confirm-download", &[("repo", repo.into())]) }
            </button>
            { " " }
            if keep {
                <button
                    data-testid="confirm-keep"
                    onclick={on.reform(|_: MouseEvent| ModelAction::KeepCurrent)}
                >
                    { tr.t("confirm-keep") }
                </button>
            } else {
                <button
                    data-testid="confirm-bundled"
                    onclick={on.reform(|_: MouseEvent| ModelAction::UseBundled)}
                >
                    { tr.t("confirm-bundled") }
                </button>
            }
        </span>
    }
}

/// An embedded lesson's offer to run live, with what it would download.
fn run_live(size: DownloadSize, on: &Callback<ModelAction>, tr: &I18n) -> Html {
    let size = match size {
        DownloadSize::Asking => tr.t("live-asking"),
        DownloadSize::Known { cached: true, .. } => tr.t("live-cached"),
        DownloadSize::Known { bytes, .. } => {
            tr.t_with("live-size", &[("size", format::bytes(bytes).into())])
        }
        DownloadSize::Unknown => tr.t("live-unknown"),
    };
    html! {
        <span class="confirm" data-testid="run-live-offer">
            { tr.t("live-offer") }
            <button
                class="primary"
                data-testid="run-live"
                onclick={on.reform(|_: MouseEvent| ModelAction::RunLive)}
            >
                { tr.t("run-live") }
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

/// The cached-models list's name for the model in use.
fn in_use_name(source: &ModelSource) -> String {
    match source {
        ModelSource::Hub { .. } => source.fetched_name().unwrap_or_default(),
        ModelSource::Bundled { .. } => "bundled KJV-GPT-2".into(),
        ModelSource::Files { names } => names.join(", "),
        ModelSource::Folder { path } => path.clone(),
    }
}

#[function_component(ModelPanel)]
pub fn model_panel(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let (status, state) = match &p.model {
        ModelStatus::Starting => (
            html! { <span>{ tr.t("worker-starting") }</span> },
            "loading",
        ),
        ModelStatus::Loading {
            source,
            file,
            loaded,
            total,
            retry,
        } => {
            let name = source
                .as_ref()
                .map(|s| tr.model_name(s))
                .unwrap_or_default();
            (
                loading(&name, file, *loaded, *total, retry.as_ref(), &tr),
                "loading",
            )
        }
        ModelStatus::Ready {
            info,
            source,
            load_ms,
            threads,
        } => (
            ready(
                info,
                &tr.model_name(source),
                *load_ms,
                *threads,
                p.one_thread,
                &tr,
            ),
            "ready",
        ),
        ModelStatus::Confirm { repo, size, typed } => (
            confirm(
                repo,
                *size,
                *typed,
                p.can_keep_current,
                p.memory_warning.is_some_and(|w| w.beyond_wasm),
                p.gguf.as_ref(),
                &p.on,
                &tr,
            ),
            "confirm",
        ),
        ModelStatus::OnRequest { size } => (run_live(*size, &p.on, &tr), "on-request"),
        ModelStatus::Failed { message, file, .. } => {
            let text = match file {
                Some(file) => tr.t_with(
                    "model-failed-file",
                    &[
                        ("file", file.clone().into()),
                        ("message", tr.said(message).into()),
                    ],
                ),
                None => tr.t_with("model-failed", &[("message", tr.said(message).into())]),
            };
            let keep = p.previous.as_ref().map(|source| {
                let name = tr.model_name(source);
                html! {
                    <>
                        { " " }
                        <button
                            data-testid="keep-previous-model"
                            onclick={p.on.reform(|_: MouseEvent| ModelAction::KeepPrevious)}
                        >
                            { tr.t_with("keep-previous-model", &[("model", name.into())]) }
                        </button>
                    </>
                }
            });
            let failed = html! {
                <>
                    <span class="failed" data-testid="model-error">{ text }</span>
                    { for keep }
                </>
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
        ModelStatus::Ready { source, .. } => Some(in_use_name(source)),
        _ => None,
    };
    html! {
        <section
            class="model-panel"
            ondragover={Callback::from(|e: DragEvent| e.prevent_default())}
            ondrop={on_drop}
        >
            <div class="model-status" data-testid="model-status" data-state={state}>{ status }</div>
            if p.can_save_folder && !p.compact {
                { student_model::save_button(&p.on.reform(|()| ModelAction::SaveFolder), &tr) }
            }
            if let Some(w) = &p.memory_warning {
                <div class="notice" data-testid="memory-warning" role="alert">{ memory_words(w, &tr) }</div>
            }
            if let Some(n) = &p.notice {
                <div class="notice" data-testid="model-notice">{ tr.said(n) }</div>
            }
            if !p.compact {
                <details class="model-choice">
                    <summary onclick={p.on.reform(|_: MouseEvent| ModelAction::ChoicesOpened)}>
                        { tr.t("change-model") }
                    </summary>
                    <ModelPicker
                        in_use={in_use.clone()}
                        {idle}
                        on_pick={p.on.reform(ModelAction::Pick)}
                        site_models={p.site_models.clone()}
                        on_pick_folder={p.on.reform(ModelAction::PickFolder)}
                    />
                    if let Some(e) = &p.site_models_error {
                        <p class="notice" data-testid="site-models-error">{ tr.said(e) }</p>
                    }
                    <div class="row">
                        <button
                            disabled={!idle}
                            onclick={p.on.reform(|_: MouseEvent| ModelAction::UseBundled)}
                        >
                            { tr.t("bundled-model-button") }
                        </button>
                        <input
                            aria-label={tr.t("hub-repo-label")}
                            value={p.hub_repo.clone()}
                            oninput={on_hub_input}
                        />
                        <button
                            disabled={!idle}
                            onclick={p.on.reform(|_: MouseEvent| ModelAction::LoadHub)}
                        >
                            { tr.t("load-hub") }
                        </button>
                        <label class="file">
                            { tr.t("local-files") }
                            <input
                                type="file"
                                multiple=true
                                accept=".json,.safetensors,.gguf,.txt,.pt,.pth"
                                data-testid="model-files"
                                disabled={!idle}
                                onchange={on_files}
                            />
                        </label>
                    </div>
                    <p class="hint">{ tr.t("files-hint") }</p>
                    { student_model::heads_field(p.minigpt_heads, idle, &p.on.reform(ModelAction::Heads), &tr) }
                    <label class="eight-bit">
                        <input
                            type="checkbox"
                            data-testid="load-8bit"
                            checked={p.eight_bit}
                            disabled={!idle}
                            onchange={p.on.reform(|e: Event| {
                                ModelAction::EightBit(e.target_unchecked_into::<HtmlInputElement>().checked())
                            })}
                        />
                        { " " }{ tr.t("eight-bit") }
                    </label>
                    <p class="hint">{ tr.t("eight-bit-hint") }</p>
                    <CachedModels in_use={in_use} />
                </details>
            }
            if p.worker_slow {
                <div class="notice" data-testid="worker-slow" role="status">{ tr.t("worker-slow") }</div>
            }
            if !p.worker_alive || p.worker_slow {
                <button
                    data-testid="restart-worker"
                    onclick={p.on.reform(|_: MouseEvent| ModelAction::RestartWorker)}
                >
                    { tr.t("restart-worker") }
                </button>
            }
        </section>
    }
}
