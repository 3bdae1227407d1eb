//! The web worker: owns the engine, loads models, runs lanes step by step and
//! yields to its event loop between steps so that Stop (and a new Run) are
//! seen within one step. The page never touches tensors.

mod drift;
mod fetch;
mod helpers;
mod hub_listing;
mod lane_models;
mod post;
mod repo;
mod save_folder;
mod size;
mod tree;

use ntl_decoding::inspect::PromptToken;
use ntl_decoding::observe::Input;
use ntl_decoding::processors::Context;
use ntl_decoding::sandbox::{self, Keeping};
use ntl_decoding::{Event, Knob, Options};
use ntl_engine::error::{LoadError, FORCED_IDS};
use ntl_engine::per_model::{LaneEngine, ModelsRun};
use ntl_engine::{Engine, RunError, RunInput, WeightSource};
use ntl_protocol::trouble::{LoadTrouble, RunTrouble, WorkerNotice};
use ntl_protocol::{FromWorker, LaneStart, ModelSource, RunRequest, ToWorker, Unanswered};
use post::post;
use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

#[derive(Default)]
struct State {
    engine: RefCell<Option<Rc<Engine>>>,
    /// The run that may go on; any other run cancels itself at its next step.
    current_run: Cell<u64>,
    loading: Cell<bool>,
    /// Helper threads started (threaded build only).
    helpers: u32,
    /// The what-if sandbox's row, kept so moving a knob costs no forward pass.
    what_if_row: RefCell<Option<KeptRow>>,
    /// A MiniGPT read from its `.pt`, as the folder it can be saved as.
    minigpt: RefCell<Option<save_folder::Kept>>,
    /// Models lanes name, beside the page's, by name.
    lane_models: RefCell<Vec<(String, Rc<Engine>)>>,
}

/// A context, the model that read it (a lane model's name; `None`: the
/// page's) and its logits after it.
struct KeptRow {
    ids: Vec<u32>,
    model: Option<String>,
    logits: Rc<Vec<f32>>,
}

/// The step a what-if asks about: its context, the lane's pick there and
/// the lane's model.
struct WhatIfStep {
    ids: Vec<u32>,
    prompt_len: usize,
    chosen: u32,
    model: Option<String>,
}

/// The checkpoint as the browser holds it; the engine copies one tensor at a time.
struct JsBytes(js_sys::Uint8Array);

impl WeightSource for JsBytes {
    fn len(&self) -> usize {
        self.0.length() as usize
    }
    fn read(&self, offset: usize, out: &mut [u8]) {
        self.0
            .subarray(offset as u32, (offset + out.len()) as u32)
            .copy_to(out);
    }
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now_ms() -> f64 {
    scope().performance().map(|p| p.now()).unwrap_or(0.0)
}

fn main() {
    if helpers::is_helper() {
        return;
    }
    let state = Rc::new(State {
        helpers: helpers::start(),
        ..State::default()
    });
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let state = state.clone();
        let data = ev.data();
        // Picked files arrive as { json, buffers: [config, weights, tokenizer] }.
        let (json, buffers) = if let Some(s) = data.as_string() {
            (s, None)
        } else {
            let json = js_sys::Reflect::get(&data, &"json".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            let buffers = js_sys::Reflect::get(&data, &"buffers".into())
                .ok()
                .map(|v: JsValue| js_sys::Array::from(&v));
            (json, buffers)
        };
        match serde_json::from_str::<ToWorker>(&json) {
            Ok(msg) => handle(state, msg, buffers),
            Err(e) => post(&FromWorker::RunFailed {
                run_id: 0,
                lane: None,
                field: None,
                message: format!("bad message to the worker: {e}"),
                trouble: None,
            }),
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&FromWorker::Ready);
}

fn handle(state: Rc<State>, msg: ToWorker, buffers: Option<js_sys::Array>) {
    match msg {
        ToWorker::Load {
            source,
            weights,
            heads,
        } => {
            if state.loading.replace(true) {
                post(&FromWorker::LoadFailed {
                    file: None,
                    trouble: LoadTrouble::AlreadyLoading,
                    network: false,
                    kept: false,
                });
                return;
            }
            wasm_bindgen_futures::spawn_local(async move {
                load(&state, source, weights, heads, buffers).await;
                state.loading.set(false);
            });
        }
        ToWorker::LoadLaneModel {
            name,
            source,
            weights,
        } => {
            if state.loading.replace(true) {
                post(&FromWorker::LaneModelFailed {
                    name,
                    file: None,
                    trouble: LoadTrouble::AlreadyLoading,
                    network: false,
                });
                return;
            }
            wasm_bindgen_futures::spawn_local(async move {
                lane_models::load(&state, name, source, weights).await;
                state.loading.set(false);
            });
        }
        ToWorker::ForgetLaneModel { name } => lane_models::forget(&state, &name),
        ToWorker::SaveFolder { name } => save_folder::save(&state.minigpt.borrow(), &name),
        ToWorker::Measure { repo } => {
            wasm_bindgen_futures::spawn_local(async move { post(&size::measure(repo).await) });
        }
        ToWorker::Run { run_id, request } => {
            let Some(engine) = engine_for_run(&state, run_id) else {
                return;
            };
            let lanes = request.lanes.len();
            let (engines, on_model) =
                match lane_models::for_run(&state, engine, lanes, &request.lane_models) {
                    Ok(found) => found,
                    Err((lane, name)) => {
                        return post(&FromWorker::RunFailed {
                            run_id,
                            lane: Some(lane),
                            field: None,
                            message: format!(
                                "lane {}: its model `{name}` is not loaded (LoadLaneModel first)",
                                lane + 1
                            ),
                            trouble: None,
                        })
                    }
                };
            wasm_bindgen_futures::spawn_local(async move {
                run(&state, engines, on_model, run_id, request).await
            });
        }
        ToWorker::Tree { run_id, request } => {
            let Some(engine) = engine_for_run(&state, run_id) else {
                return;
            };
            wasm_bindgen_futures::spawn_local(async move {
                tree::grow(&state, engine, run_id, request).await
            });
        }
        ToWorker::Cancel { run_id } => {
            if state.current_run.get() == run_id {
                state.current_run.set(0);
            }
        }
        ToWorker::WhatIf {
            request_id,
            ids,
            prompt_len,
            chosen,
            log_probs,
            eos_token_ids,
            knobs,
            model,
        } => {
            let lane = if log_probs {
                LaneKind::Beams { eos_token_ids }
            } else {
                LaneKind::Sampling
            };
            let step = WhatIfStep {
                ids,
                prompt_len,
                chosen,
                model,
            };
            post(&what_if(&state, request_id, step, lane, &knobs))
        }
        ToWorker::Drift {
            request_id,
            ids,
            model,
            reference,
        } => post(&drift::answer(
            &state,
            request_id,
            &ids,
            model.as_deref(),
            reference.as_deref(),
        )),
        ToWorker::Inspect { request_id, text } => post(&inspect(&state, request_id, &text)),
        ToWorker::Tokenize { request_id, text } => {
            let tokens = match state.engine.borrow().as_ref() {
                None => Err(Unanswered::NoModel),
                Some(engine) => engine.encode(&text).map_err(Unanswered::engine).map(|ids| {
                    let vocab = engine.tokenizer_vocab();
                    ids.iter().map(|&id| PromptToken::new(id, &vocab)).collect()
                }),
            };
            post(&FromWorker::Tokenized { request_id, tokens });
        }
        ToWorker::RenderChat {
            messages,
            add_generation_prompt,
        } => {
            let text = match state.engine.borrow().as_ref() {
                None => Err(Unanswered::NoModel),
                Some(engine) => engine
                    .render_chat(&messages, add_generation_prompt)
                    .map_err(Unanswered::engine),
            };
            post(&FromWorker::ChatRendered { text });
        }
    }
}

/// The prompt's tokens and the model's prediction after each of them.
/// The engine a new run (or tree) uses, which becomes the current run;
/// without a model, the run fails saying so.
fn engine_for_run(state: &State, run_id: u64) -> Option<Rc<Engine>> {
    state.current_run.set(run_id);
    let engine = state.engine.borrow().clone();
    if engine.is_none() {
        post(&FromWorker::RunFailed {
            run_id,
            lane: None,
            field: None,
            message: "no model is loaded yet".into(),
            trouble: Some(RunTrouble::NoModel),
        });
    }
    engine
}

fn inspect(state: &State, request_id: u64, text: &str) -> FromWorker {
    let failed = |message: String| FromWorker::InspectFailed {
        request_id,
        message,
    };
    let Some(engine) = state.engine.borrow().clone() else {
        return failed("no model is loaded yet".into());
    };
    let all = match engine.encode(text) {
        Ok(ids) => ids,
        Err(e) => return failed(e.to_string()),
    };
    // As a run does: an over-long prompt loses its start.
    let context = engine.info().n_positions;
    let cropped = all.len().saturating_sub(context);
    let ids = &all[cropped..];
    let predictions = match engine.inspect(ids, INSPECT_GUESSES) {
        Ok(p) => p,
        Err(e) => return failed(e.to_string()),
    };
    let vocab = engine.tokenizer_vocab();
    FromWorker::Inspected {
        request_id,
        tokens: ids.iter().map(|&id| PromptToken::new(id, &vocab)).collect(),
        predictions,
        context,
        cropped,
    }
}

/// Guesses shown under each prompt token: the lessons' top 5.
const INSPECT_GUESSES: usize = 5;

/// The lane a what-if step came from.
enum LaneKind {
    Sampling,
    /// A beam lane, with its own eos ids when it named any.
    Beams {
        eos_token_ids: Option<Vec<u32>>,
    },
}

/// One step's whole distribution with the sandbox's knobs: the row from the
/// model (or kept from the last request on the same context), then the same
/// processors and record as a lane's step.
fn what_if(
    state: &State,
    request_id: u64,
    step: WhatIfStep,
    lane: LaneKind,
    knobs: &[(Knob, f64)],
) -> FromWorker {
    let started = now_ms();
    let failed = |field: Option<Knob>, message: String| FromWorker::WhatIfFailed {
        request_id,
        field,
        message,
    };
    let WhatIfStep {
        ids,
        prompt_len,
        chosen,
        model,
    } = step;
    // The lane's own model (a lane model beside the page's, by name).
    let engine = match drift::engine(state, model.as_deref()) {
        Ok(engine) => engine,
        Err(e) => return failed(None, e.to_string()),
    };
    // The knobs act as in the lane: on a beam's log-probabilities, keeping
    // what a beam keeps (the lane's eos ids, or the model's as in the run).
    let (input, keeping) = match lane {
        LaneKind::Sampling => (Input::Logits, Keeping::One),
        LaneKind::Beams { eos_token_ids } => (
            Input::LogProbs,
            Keeping::PerBeam {
                eos_token_ids: eos_token_ids.unwrap_or_else(|| engine.eos_token_ids().to_vec()),
            },
        ),
    };
    let cfg = match sandbox::config(knobs, &keeping) {
        Ok(cfg) => cfg,
        Err(e) => return failed(e.knob(), e.to_string()),
    };
    let kept = state
        .what_if_row
        .borrow()
        .as_ref()
        .filter(|kept| kept.ids == ids && kept.model == model)
        .map(|kept| kept.logits.clone());
    let row = match kept {
        Some(row) => row,
        None => match engine.logits(&ids) {
            Ok(row) => {
                let row = Rc::new(row);
                *state.what_if_row.borrow_mut() = Some(KeptRow {
                    ids: ids.clone(),
                    model,
                    logits: row.clone(),
                });
                row
            }
            Err(e) => return failed(None, e.to_string()),
        },
    };
    let ctx = Context::new(&ids, prompt_len.min(ids.len()));
    let vocab = engine.tokenizer_vocab();
    let step = sandbox::what_if(&row, ctx, Some(chosen), input, &cfg, &vocab, WHAT_IF_ROWS);
    FromWorker::WhatIf {
        request_id,
        step: Box::new(step),
        vocab: row.len(),
        ms: now_ms() - started,
    }
}

/// The largest `.pt` built while the previous model stays: the tutorial's
/// MiniGPT is 6.4 MB, and a 64-million-parameter F32 one still fits.
const BUILT_BESIDE_BYTES: usize = 256 << 20;

/// Rows in a what-if table: the lessons' top 20 (and the lane's pick).
const WHAT_IF_ROWS: usize = 20;

/// Where a model's files come from (and are cached under); none for picked files.
fn base_of(source: &ModelSource) -> Option<String> {
    match source {
        ModelSource::Files { .. } => None,
        ModelSource::Bundled { base } => Some(base.clone()),
        ModelSource::Hub { repo, .. } => Some(ntl_protocol::hub_base(repo)),
        ModelSource::Folder { path } => ntl_protocol::model_base(path),
    }
}

/// A model's files: fetched (a name checked before anything is) or picked.
async fn model_files(
    source: &ModelSource,
    base: &Option<String>,
    buffers: Option<js_sys::Array>,
) -> Result<repo::RepoFiles, fetch::LoadFailure> {
    match (source, base) {
        (ModelSource::Hub { repo, gguf }, _)
            if !ntl_protocol::valid_repo_id(repo)
                || !gguf
                    .as_deref()
                    .is_none_or(ntl_protocol::hub_gguf::valid_selector) =>
        {
            Err(fetch::refused(
                None,
                format!("`{repo}` is not a model hub repo id (owner/name[:Q4_K_M])"),
            ))
        }
        (ModelSource::Folder { path }, _) if !ntl_protocol::valid_folder_path(path) => {
            Err(fetch::refused(
                None,
                format!("`{path}` is not a model folder beside the page (models/name/)"),
            ))
        }
        (ModelSource::Files { names }, _) => repo::picked_files(names, buffers),
        (ModelSource::Hub { repo, gguf }, Some(base)) => {
            repo::hub_files(base, repo, gguf.as_deref())
                .await
                .map(|(files, _)| files)
        }
        (ModelSource::Folder { path }, Some(base)) => repo::repo_files(base, path).await,
        (_, Some(base)) => repo::repo_files(base, "the bundled model").await,
        (_, None) => Err(fetch::LoadFailure {
            file: None,
            trouble: LoadTrouble::NothingToLoad,
            network: false,
        }),
    }
}

/// An engine built from a model's files; a MiniGPT's folder kept for
/// saving; why its chat template cannot be read, if it cannot (that costs
/// the chat editor, not the model).
struct Built {
    engine: Engine,
    minigpt: Option<save_folder::Kept>,
    plain_prompts: Option<String>,
}

fn build_engine(
    files: repo::RepoFiles,
    weights: ntl_protocol::LoadWeights,
    heads: Option<usize>,
) -> Result<Built, LoadError> {
    let mut minigpt = None;
    let loaded = match files.weights {
        repo::Weights::Safetensors { config, shards } => {
            let shards: Vec<JsBytes> = shards.into_iter().map(JsBytes).collect();
            let shards: Vec<&dyn WeightSource> =
                shards.iter().map(|s| s as &dyn WeightSource).collect();
            match &files.tokenizer {
                Some(tokenizer) => {
                    Engine::load_sharded_as(&config, &shards, tokenizer, precision_of(weights))
                }
                None => Err(LoadError::Tokenizer {
                    message: "is missing: a safetensors model needs its tokenizer.json".into(),
                    source: None,
                }),
            }
        }
        repo::Weights::Gguf(bytes) => {
            Engine::load_gguf(&JsBytes(bytes), files.tokenizer.as_deref())
        }
        repo::Weights::Torch { pt, config } => match files.tokenizer.clone() {
            Some(tokenizer) => {
                ntl_engine::minigpt_import::minigpt_folder(&pt.to_vec(), config.as_deref(), heads)
                    .and_then(|folder| {
                        let e = Engine::load_minigpt_folder(
                            &folder,
                            &tokenizer,
                            precision_of(weights),
                        )?;
                        minigpt = Some(save_folder::Kept { folder, tokenizer });
                        Ok(e)
                    })
            }
            None => Err(LoadError::Tokenizer {
                message: "is missing: a MiniGPT needs the tokenizer.json it was trained with"
                    .into(),
                source: None,
            }),
        },
    };
    let mut engine = match &files.generation_config {
        Some(g) => loaded?.with_generation_config(g)?,
        None => loaded?,
    };
    let plain_prompts = files
        .tokenizer_config
        .as_ref()
        .and_then(|t| engine.read_tokenizer_config(t).err())
        .map(|e| e.to_string());
    Ok(Built {
        engine,
        minigpt,
        plain_prompts,
    })
}

async fn load(
    state: &State,
    source: ModelSource,
    weights: ntl_protocol::LoadWeights,
    heads: Option<usize>,
    buffers: Option<js_sys::Array>,
) {
    let started = now_ms();
    let base = base_of(&source);
    let files = match model_files(&source, &base, buffers).await {
        Ok(f) => f,
        Err(e) => {
            return post(&FromWorker::LoadFailed {
                file: e.file,
                trouble: e.trouble,
                network: e.network,
                kept: state.engine.borrow().is_some(),
            })
        }
    };
    // A student's MiniGPT is small: it is built beside the model in use,
    // which stays if its files are refused. Any other model (or a `.pt`
    // past that size) lets the previous one go first: two would double
    // the memory.
    let beside = matches!(&files.weights, repo::Weights::Torch { pt, .. }
        if pt.length() as usize <= BUILT_BESIDE_BYTES);
    if !beside {
        state.engine.borrow_mut().take();
        state.minigpt.borrow_mut().take();
    }
    let loaded = build_engine(files, weights, heads).map(|built| {
        if let Some(why) = built.plain_prompts {
            post(&FromWorker::Notice {
                notice: WorkerNotice::PlainPrompts { why },
            });
        }
        (built.engine, built.minigpt)
    });
    match loaded {
        Ok((engine, minigpt)) => {
            let info = engine.info().clone();
            *state.engine.borrow_mut() = Some(Rc::new(engine));
            *state.minigpt.borrow_mut() = minigpt;
            let load_ms = now_ms() - started;
            let threads = helpers::threads(state.helpers).await;
            post(&FromWorker::Loaded {
                info,
                source,
                load_ms,
                memory_bytes: memory_bytes(),
                threads,
            });
        }
        Err(e) => {
            // A refused file must not come back from the cache on the next try.
            if let Some(base) = &base {
                fetch::forget(base).await;
            }
            post(&FromWorker::LoadFailed {
                file: Some(e.file().into()),
                trouble: LoadTrouble::Other {
                    message: e.to_string(),
                },
                network: false,
                kept: state.engine.borrow().is_some(),
            })
        }
    }
}

/// Runs the request's lanes, each on its model (`engines[on_model[lane]]`,
/// the page's model first), a step of every model's lanes at a time.
async fn run(
    state: &State,
    engines: Vec<(String, Rc<Engine>)>,
    on_model: Vec<usize>,
    run_id: u64,
    request: RunRequest,
) {
    let started = now_ms();
    let models: Vec<LaneEngine> = engines
        .iter()
        .map(|(name, engine)| LaneEngine {
            engine,
            name: name.clone(),
        })
        .collect();
    let mut models_run = match ModelsRun::start(&models, &on_model, run_input(request)) {
        Ok(r) => r,
        Err(e) => return post(&run_failed(run_id, e)),
    };
    post(&FromWorker::Started {
        run_id,
        prompt_ids: models_run.prompt().ids.clone(),
        prompt_cropped: models_run.prompt().cropped,
        lanes: models_run
            .lanes()
            .iter()
            .map(|l| LaneStart {
                mode: l.config.mode,
                config: l.config.effective(),
            })
            .collect(),
    });
    let mut first_step_ms = None;
    let mut on_event = |ev: Event| {
        match ev {
            Event::Step {
                lane,
                step,
                index,
                text,
            } => {
                first_step_ms.get_or_insert_with(|| now_ms() - started);
                let step = Box::new(step.clone());
                post(&FromWorker::Step {
                    run_id,
                    lane,
                    index,
                    step,
                    text,
                });
            }
            Event::LaneDone { lane, reason } => post(&FromWorker::LaneDone {
                run_id,
                lane,
                reason,
            }),
        }
        if state.current_run.get() == run_id {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    loop {
        match models_run.advance(&mut on_event) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return post(&run_failed(run_id, e)),
        }
        yield_to_event_loop().await;
        if state.current_run.get() != run_id {
            models_run.cancel(&mut on_event);
            break;
        }
    }
    // Each lane's text as its own model's vocabulary shows it.
    let vocabs: Vec<_> = (0..on_model.len())
        .map(|lane| models_run.engine_of(lane).tokenizer_vocab())
        .collect();
    let document = models_run.finish();
    let ms = now_ms() - started;
    let shown_texts = document
        .runs
        .iter()
        .zip(&vocabs)
        .map(|(r, vocab)| vocab.shown_text(&r.token_ids))
        .collect();
    post(&FromWorker::Finished {
        run_id,
        document,
        shown_texts,
        ms,
        first_step_ms,
        memory_bytes: memory_bytes(),
    });
}

/// The engine's input from the page's request (the wire's names and defaults).
fn run_input(r: RunRequest) -> RunInput {
    RunInput {
        prompt: r.prompt,
        prompt_ids: r.prompt_ids,
        lanes: r.lanes,
        forced_text: r.forced_text,
        negative_prompt: r.negative_prompt,
        options: Options {
            top_n: r.top_n,
            shared_seed: r.shared_seed,
            negative_prompt: None,
            full_prompt: None,
            lens: r.lens,
        },
    }
}

/// A failed run as the page shows it: next to the lane and knob at fault
/// when there is one, else above the lanes.
fn run_failed(run_id: u64, e: RunError) -> FromWorker {
    let trouble = run_trouble(&e);
    let (lane, field, message) = match e {
        RunError::Config { lane, source } => (
            Some(lane),
            source.field().map(String::from),
            source.to_string(),
        ),
        RunError::ForcedIds { lane } => (Some(lane), None, FORCED_IDS.to_string()),
        // The model's own words, without the "model:" the CLI's line needs.
        RunError::Model(e) => (None, None, e.to_string()),
        other => (None, None, other.to_string()),
    };
    FromWorker::RunFailed {
        run_id,
        lane,
        field,
        message,
        trouble,
    }
}

/// What only the model could refuse, typed for the page to word.
fn run_trouble(e: &RunError) -> Option<RunTrouble> {
    use ntl_decoding::config_rule::{LlamaCppRule, Rule};
    use ntl_decoding::ConfigError;
    Some(match e {
        RunError::Config { source, .. } => match source {
            ConfigError::Invalid {
                knob,
                rule: Rule::OutsideVocabulary { id, vocab_size },
            } => RunTrouble::OutsideVocabulary {
                knob: knob.name().into(),
                id: *id,
                vocab_size: *vocab_size,
            },
            ConfigError::LlamaCpp {
                knob,
                rule: LlamaCppRule::OutsideVocabulary { id, vocab_size },
            } => RunTrouble::OutsideVocabulary {
                knob: knob.name().into(),
                id: *id,
                vocab_size: *vocab_size,
            },
            ConfigError::Invalid {
                rule: Rule::NoDolaCandidates(c),
                ..
            } => RunTrouble::NoDolaLayers {
                asked: c.asked.clone(),
                n_layers: c.n_layers,
                tied_head: c.tied_head,
                last: c.last,
            },
            _ => return None,
        },
        RunError::ForcedIds { .. } => RunTrouble::NothingToScore,
        RunError::NegativePromptTooLong {
            lane,
            tokens,
            new_tokens,
            positions,
        } => RunTrouble::NegativePromptTooLong {
            lane: *lane,
            tokens: *tokens,
            new_tokens: *new_tokens,
            positions: *positions,
        },
        RunError::Tree(ntl_decoding::sample_tree::TreeError::Refused(refusal)) => {
            RunTrouble::Tree {
                refusal: refusal.clone(),
            }
        }
        _ => return None,
    })
}

/// Size of the worker's wasm linear memory (it only grows, so this is its peak).
fn memory_bytes() -> Option<u64> {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().dyn_into().ok()?;
    // An ArrayBuffer, or a SharedArrayBuffer in the threaded build.
    js_sys::Reflect::get(&memory.buffer(), &"byteLength".into())
        .ok()?
        .as_f64()
        .map(|b| b as u64)
}

thread_local! {
    /// A channel the worker posts to itself to yield (see `yield_to_event_loop`).
    static YIELD: Option<web_sys::MessageChannel> = web_sys::MessageChannel::new().ok();
}

/// Lets queued messages (Stop, a new Run) be handled before the next step.
/// A message to itself, not `setTimeout(0)`: browsers clamp nested timeouts
/// to at least 4 ms, which cost 4 ms a step (6 % of a four-lane step). Both
/// are tasks in arrival order, so a Stop posted during a step runs first.
async fn yield_to_event_loop() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let posted = YIELD.with(|channel| {
            channel.as_ref().is_some_and(|ch| {
                ch.port1().set_onmessage(Some(resolve.unchecked_ref()));
                ch.port2().post_message(&JsValue::NULL).is_ok()
            })
        });
        if !posted {
            let _ = scope().set_timeout_with_callback(&resolve);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

fn precision_of(weights: ntl_protocol::LoadWeights) -> ntl_engine::Precision {
    match weights {
        ntl_protocol::LoadWeights::AsStored => ntl_engine::Precision::AsStored,
        ntl_protocol::LoadWeights::Q8_0 => ntl_engine::Precision::Q8_0,
    }
}
