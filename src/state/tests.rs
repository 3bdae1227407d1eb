use super::token_lookup::LookupUse;
use super::*;
use crate::lane_config::KnobText;
use ntl_decoding::Knob;
use ntl_decoding::{GenerationConfig, Mode};
use ntl_protocol::share;
use ntl_protocol::trouble::RunTrouble;
use ntl_protocol::FromWorker;
use ntl_protocol::{LaneStart, ModelSource};

/// The worker's word that the bundled model loaded.
pub(super) fn info() -> FromWorker {
    FromWorker::Loaded {
        info: model::tests::info(),
        source: ModelSource::Bundled {
            base: "models/bundled".into(),
        },
        load_ms: 1.0,
        memory_bytes: None,
        threads: 1,
    }
}

/// A page whose worker is up and whose model is loaded.
pub(super) fn ready_page(requested: Requested) -> Page {
    let (mut page, spawn) = Page::new(requested, crate::worker_choice::Abilities::default());
    assert_eq!(spawn, [Command::SpawnWorker { threaded: false }]);
    page.worker_spawned(Ok(()));
    let out = page.on_worker(FromWorker::Ready, 0.0);
    assert!(
        matches!(out.commands[..], [Command::Send(ToWorker::Load { .. })]),
        "{out:?}"
    );
    page
}

/// The worker's word that run `run_id` started, every lane in `mode`.
pub(super) fn started(run_id: u64, mode: Mode) -> FromWorker {
    let lanes = vec![
        LaneStart {
            mode,
            config: GenerationConfig::default().into()
        };
        LANES
    ];
    FromWorker::Started {
        run_id,
        prompt_ids: vec![1],
        prompt_cropped: 0,
        lanes,
    }
}

/// Lane `lane`'s first word, " a", as the worker streams it.
fn first_word(run_id: u64, lane: usize) -> FromWorker {
    FromWorker::Step {
        run_id,
        lane,
        index: 0,
        step: Box::new(run::tests::step(5, " a")),
        text: " a".into(),
    }
}

pub(super) fn sent_run(out: &Outcome) -> Option<(u64, RunRequest)> {
    out.commands.iter().find_map(|c| match c {
        Command::Send(ToWorker::Run { run_id, request }) => Some((*run_id, request.clone())),
        _ => None,
    })
}

#[test]
fn a_run_sends_every_lane_and_its_stream_fills_the_lanes() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let out = page.start_run(RunKind::Generate);
    let (run_id, request) = sent_run(&out).expect("a run request");
    assert_eq!(request.lanes.len(), LANES);
    assert_eq!(request.prompt, page.editor.prompt);
    assert!(page.on_worker(started(run_id, Mode::Sample), 0.0).redraw);
    // A step of a run that is not the current one does not redraw the page.
    let stale = FromWorker::LaneDone {
        run_id: run_id + 1,
        lane: 0,
        reason: ntl_decoding::StopReason::Eos,
    };
    assert_eq!(page.on_worker(stale, 0.0), Outcome::unchanged());
    let stop = page.stop();
    assert_eq!(stop.commands, [Command::Send(ToWorker::Cancel { run_id })]);
}

#[test]
fn a_looked_up_text_joins_a_lanes_bad_words_once() {
    let mut page = ready_page(Requested::default());
    let token = |id: u32| ntl_decoding::inspect::PromptToken {
        id,
        token: String::new(),
        bytes: vec![],
    };
    page.inspector.make_mut().lookup = Some(Ok(vec![token(262), token(13)]));
    let _ = page.use_lookup(2, LookupUse::BadWords);
    let _ = page.use_lookup(2, LookupUse::BadWords);
    page.inspector.make_mut().lookup = Some(Ok(vec![token(11)]));
    let _ = page.use_lookup(2, LookupUse::BadWords);
    assert_eq!(
        page.editor.lanes[2].hf().unwrap().bad_words_ids,
        Some(vec![vec![262, 13], vec![11]])
    );
    assert!(page.editor.errors[2].is_none());
    // A text that is not one token cannot be an eos.
    page.inspector.make_mut().lookup = Some(Ok(vec![token(262), token(13)]));
    assert!(!page.use_lookup(0, LookupUse::Eos).redraw);
}

#[test]
fn a_run_of_a_lesson_preset_unchanged_remembers_the_preset_and_the_hub_model() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let sweep = crate::lessons::built_in(|all| {
        all.iter()
            .position(|b| b.lesson.title == "Temperature sweep")
            .unwrap()
    });
    let _ = page.open_built_in(sweep);
    page.model.source = Some(ModelSource::Hub {
        repo: "distilbert/distilgpt2".into(),
        gguf: None,
    });
    let _ = page.start_run(RunKind::Generate);
    assert_eq!(
        page.run.lesson,
        Some(LessonRun {
            step: crate::lesson_check::StepRef {
                from: crate::lessons::LessonFrom::BuiltIn(sweep),
                step: 0
            },
            hub_repo: Some("distilbert/distilgpt2".into())
        })
    );
    // A knob edited: the run is no longer the lesson's.
    page.editor.set_knob(3, Knob::MaxNewTokens, "13");
    let _ = page.start_run(RunKind::Generate);
    assert_eq!(page.run.lesson, None);
    // Nor is a scored text.
    let _ = page.open_built_in(sweep);
    page.editor.score_text = " to".into();
    let _ = page.start_run(RunKind::Score);
    assert_eq!(page.run.lesson, None);
}

#[test]
fn the_sandboxs_knobs_make_a_lane_sample_with_exactly_them() {
    let mut page = ready_page(Requested::default());
    let before = page.editor.lanes[0].text(Knob::MaxNewTokens);
    let sandbox = page.sandbox.make_mut();
    let _ = sandbox.set_knob(Knob::Temperature, "0.5".into());
    let _ = sandbox.set_knob(Knob::MinP, "0.1".into());
    assert!(page.use_sandbox(0).redraw);
    let lane = &page.editor.lanes[0];
    assert_eq!(lane.mode(), Mode::Sample);
    let cfg = lane.hf().unwrap();
    assert_eq!(
        (cfg.temperature, cfg.min_p, cfg.top_k),
        (0.5, Some(0.1), Some(0))
    );
    assert_eq!(
        lane.text(Knob::MaxNewTokens),
        before,
        "the lane's other knobs stay"
    );
    assert_eq!(page.editor.errors[0], None);
    // A wrong input copies nothing.
    let _ = page.sandbox.make_mut().set_knob(Knob::TopP, "lots".into());
    let lanes = page.editor.lanes.clone();
    assert!(!page.use_sandbox(1).redraw);
    assert_eq!(page.editor.lanes, lanes);
}

#[test]
fn a_beam_lanes_step_opens_the_sandbox_keeping_what_its_beams_keep() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor.set_json(
        0,
        r#"{"num_beams": 3, "do_sample": true, "top_p": 0.5, "eos_token_id": [5, 7]}"#,
    );
    page.editor.set_json(1, r#"{"num_beams": 3, "top_p": 0.5}"#);
    page.editor
        .set_json(2, r#"{"do_sample": true, "eos_token_id": 9}"#);
    let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
    let _ = page.on_worker(started(run_id, Mode::BeamSample), 0.0);
    for lane in 0..3 {
        let mut step = run::tests::step(3, " a");
        if lane < 2 {
            step.beams = Some(vec![ntl_decoding::record::BeamCandidate {
                beam: 0,
                token_id: 3,
                token: " a".into(),
                score: -0.5,
                finished: false,
                running: true,
                next_beam: Some(0),
                group: None,
                diversity_penalty: None,
                padding: false,
                constraints: None,
                pushed: false,
            }]);
        }
        let step = Box::new(step);
        let text = " a".into();
        let _ = page.on_worker(
            FromWorker::Step {
                run_id,
                lane,
                index: 0,
                step,
                text,
            },
            0.0,
        );
    }
    let asked = |page: &mut Page, lane: usize| {
        let out = page.open_sandbox(lane, 0);
        out.commands.iter().find_map(|c| match c {
            Command::Send(ToWorker::WhatIf {
                log_probs,
                eos_token_ids,
                ..
            }) => Some((*log_probs, eos_token_ids.clone())),
            _ => None,
        })
    };
    // The lane's own eos ids go with its step: its beams keep three tokens.
    assert_eq!(asked(&mut page, 0), Some((true, Some(vec![5, 7]))));
    // None named: the worker keeps as many as the model's eos ids ask.
    assert_eq!(asked(&mut page, 1), Some((true, None)));
    // A sampling lane keeps one token, whatever its eos.
    assert_eq!(asked(&mut page, 2), Some((false, None)));
}

#[test]
fn an_invalid_knob_blocks_the_run_and_a_knob_the_worker_refuses_shows_next_to_it() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor.set_knob(2, Knob::TopP, "1.5");
    assert_eq!(sent_run(&page.start_run(RunKind::Generate)), None);
    page.editor.set_knob(2, Knob::TopP, "");
    let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
    let failed = FromWorker::RunFailed {
        run_id,
        lane: Some(3),
        field: Some(Knob::EosTokenId.name().into()),
        message: "`eos_token_id` names token 60000, outside the vocabulary of 50257 tokens".into(),
        trouble: Some(RunTrouble::OutsideVocabulary {
            knob: Knob::EosTokenId.name().into(),
            id: 60000,
            vocab_size: 50257,
        }),
    };
    let _ = page.on_worker(failed, 0.0);
    assert_eq!(page.run.running, None);
    let error = page.editor.errors[3].clone().unwrap();
    assert_eq!(error.field.as_deref(), Some("eos_token_id"));
    // Worded as the page's own checks word it, in the reader's language.
    assert_eq!(
        error.message,
        Said::Config(ntl_decoding::ConfigError::Invalid {
            knob: Knob::EosTokenId,
            rule: ntl_decoding::config_rule::Rule::OutsideVocabulary {
                id: 60000,
                vocab_size: 50257
            },
        })
    );
    assert_eq!(
        error.message.to_string(),
        "`eos_token_id` names token 60000, outside the vocabulary of 50257 tokens"
    );
}

#[test]
fn a_share_link_restores_the_page_and_runs_once_the_model_is_ready() {
    let mut e = Editor::default();
    e.set_knob(0, Knob::MaxNewTokens, "5");
    let link = Shared {
        step: Some(3),
        ..e.shared(Some("bundled".into()), false)
    };
    let link = share::decode(&share::encode(&link)).unwrap();
    let requested = Requested {
        embed: false,
        model: None,
        shared: Some(Ok(link)),
        ..Requested::default()
    };
    let mut page = ready_page(requested);
    assert_eq!(
        page.model.source,
        Some(ModelSource::Bundled {
            base: model::BUNDLED_BASE.into()
        })
    );
    assert_eq!(page.editor.lanes, e.lanes);
    let (run_id, _) = sent_run(&page.on_worker(info(), 0.0)).expect("runs on load");
    // Once that run is done, the compare view opens at the link's step.
    let _ = page.on_worker(started(run_id, Mode::Greedy), 0.0);
    for index in 0..5 {
        let step = Box::new(run::tests::step(index as u32, " a"));
        let text = " a".repeat(index + 1);
        let _ = page.on_worker(
            FromWorker::Step {
                run_id,
                lane: 0,
                index,
                step,
                text,
            },
            0.0,
        );
    }
    assert_eq!(page.run.selected, None, "not while it runs");
    let document = Document {
        prompt_ids: vec![1],
        prompt: String::new(),
        prompt_cropped: 0,
        runs: vec![],
    };
    let finished = FromWorker::Finished {
        run_id,
        document,
        shown_texts: vec![],
        ms: 1.0,
        first_step_ms: None,
        memory_bytes: None,
    };
    let _ = page.on_worker(finished, 0.0);
    assert_eq!(page.run.selected, Some((0, 3)));
    assert_eq!(page.shared().step, Some(3), "and a link made now keeps it");
}

#[test]
fn a_broken_share_link_is_reported_and_the_page_opens_normally() {
    let requested = Requested {
        shared: Some(share::decode("2.xyz")),
        ..Default::default()
    };
    let (page, _) = Page::new(requested, crate::worker_choice::Abilities::default());
    assert!(page.error.unwrap().to_string().contains("another version"));
    assert_eq!(page.editor, Editor::default());
}

#[test]
fn a_threaded_worker_that_cannot_start_gives_way_to_the_single_threaded_one() {
    let (mut page, spawn) = Page::new(Requested::default(), crate::worker_choice::Abilities::all());
    assert_eq!(spawn, [Command::SpawnWorker { threaded: true }]);
    page.worker_spawned(Ok(()));
    let out = page.worker_crashed("no shared memory".into());
    assert_eq!(out.commands, [Command::SpawnWorker { threaded: false }]);
    assert_eq!(page.error, None, "quietly");
}

#[test]
fn a_threaded_worker_silent_past_the_patience_is_offered_a_restart_on_one_thread() {
    let (mut page, _) = Page::new(Requested::default(), crate::worker_choice::Abilities::all());
    page.worker_spawned(Ok(()));
    let first = page.worker.spawned;
    assert!(page.worker_start_overdue(first));
    assert!(page.worker.slow);
    assert!(page.worker.alive, "not killed: it may still come");
    let out = page.restart_worker();
    assert_eq!(out.commands, [Command::SpawnWorker { threaded: false }]);
    page.worker_spawned(Ok(()));
    assert!(!page.worker.slow, "a new worker gets its own patience");
    assert!(
        !page.worker_start_overdue(first),
        "the first worker's check does not touch the second"
    );
    let out = page.on_worker(FromWorker::Ready, 0.0);
    assert!(matches!(
        out.commands[..],
        [Command::Send(ToWorker::Load { .. })]
    ));
    assert!(
        !page.worker_start_overdue(page.worker.spawned),
        "it listens"
    );
    assert!(!page.worker.slow);
}

#[test]
fn a_worker_that_said_ready_in_time_is_never_called_slow_and_restarts_as_it_was() {
    let (mut page, _) = Page::new(Requested::default(), crate::worker_choice::Abilities::all());
    page.worker_spawned(Ok(()));
    let _ = page.on_worker(FromWorker::Ready, 0.0);
    assert!(!page.worker_start_overdue(page.worker.spawned));
    let _ = page.worker_crashed("the model worker stopped (out of memory?)".into());
    let out = page.restart_worker();
    assert_eq!(out.commands, [Command::SpawnWorker { threaded: true }]);
}

#[test]
fn a_crashed_worker_keeps_the_prompt_and_knobs_and_a_restart_reloads_the_model() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor.set_prompt("my prompt".into());
    let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
    let _ = page.on_worker(started(run_id, Mode::Greedy), 0.0);
    let _ = page.on_worker(first_word(run_id, 0), 0.0);
    let _ = page.worker_crashed("the model worker stopped (out of memory?)".into());
    assert_eq!(page.run.running, None);
    assert_eq!(
        page.run.results[0].as_ref().and_then(|r| r.stop),
        Some(ntl_decoding::StopReason::Cancelled),
        "a lane that was running says it stopped"
    );
    assert!(page
        .error
        .as_ref()
        .unwrap()
        .to_string()
        .contains("restart the worker"));
    assert_eq!(page.editor.prompt, "my prompt");
    assert!(
        sent_run(&page.start_run(RunKind::Generate)).is_none(),
        "no worker to run on"
    );
    let out = page.restart_worker();
    assert_eq!(out.commands, [Command::SpawnWorker { threaded: false }]);
    page.worker_spawned(Ok(()));
    let out = page.on_worker(FromWorker::Ready, 0.0);
    assert!(matches!(
        out.commands[..],
        [Command::Send(ToWorker::Load { .. })]
    ));
}

#[test]
fn scoring_needs_a_text_and_sends_it_to_every_lane() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    assert_eq!(sent_run(&page.start_run(RunKind::Score)), None);
    assert!(page.error.is_some());
    page.editor.score_text = " to read".into();
    let (_, request) = sent_run(&page.start_run(RunKind::Score)).unwrap();
    assert_eq!(request.forced_text.as_deref(), Some(" to read"));
    assert_eq!(page.shared().score.as_deref(), Some(" to read"));
}

#[test]
fn the_compare_views_requests_move_the_selection_sort_and_close_it() {
    use super::page_actions::CompareAction;
    let mut page = ready_page(Requested::default());
    page.run.select(1, 2);
    assert!(page.on_compare(CompareAction::SortBy(3)).redraw);
    assert_eq!(page.run.sort_by, 3);
    let out = page.on_compare(CompareAction::Close);
    assert!(out.redraw && out.commands.is_empty());
    assert_eq!(page.run.selected, None);
}

#[test]
fn the_chat_editors_requests_edit_turns_and_rendering_asks_the_worker() {
    use super::page_actions::ChatAction;
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let turns = page.chat.turns.len();
    assert!(page.on_chat(ChatAction::Add).redraw);
    assert_eq!(page.chat.turns.len(), turns + 1);
    let _ = page.on_chat(ChatAction::Content(turns, "Hello".into()));
    assert_eq!(page.chat.turns[turns].content, "Hello");
    let _ = page.on_chat(ChatAction::GenerationPrompt(false));
    assert!(!page.chat.add_generation_prompt);
    let out = page.on_chat(ChatAction::Render);
    assert!(
        out.commands
            .iter()
            .any(|c| matches!(c, Command::Send(ToWorker::RenderChat { .. }))),
        "{out:?}"
    );
    let _ = page.on_chat(ChatAction::Remove(turns));
    assert_eq!(page.chat.turns.len(), turns);
}

#[test]
fn the_inspectors_look_up_asks_the_worker_and_the_sandboxs_logits_stay_in_the_page() {
    use super::page_actions::{InspectorAction, SandboxAction};
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let out = page.on_inspector(InspectorAction::LookUp(".".into()));
    assert!(
        out.commands
            .iter()
            .any(|c| matches!(c, Command::Send(ToWorker::Tokenize { text, .. }) if text == ".")),
        "{out:?}"
    );
    let out = page.on_sandbox(SandboxAction::Logits("3, 1, 0".into()));
    assert!(out.redraw && out.commands.is_empty());
    assert_eq!(page.sandbox.logits_text, "3, 1, 0");
}

#[test]
fn an_unreadable_worker_message_ends_the_run_but_keeps_the_worker_and_model() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let out = page.start_run(RunKind::Generate);
    let (run_id, _) = sent_run(&out).expect("a run request");
    let _ = page.on_worker(started(run_id, Mode::Beam), 0.0);
    for lane in 0..3 {
        let _ = page.on_worker(first_word(run_id, lane), 0.0);
    }
    let done = FromWorker::LaneDone {
        run_id,
        lane: 1,
        reason: ntl_decoding::StopReason::MaxNewTokens,
    };
    let _ = page.on_worker(done, 0.0);
    let out = page.worker_message_unreadable(Some("step".into()), "invalid type: null".into());
    assert_eq!(out.commands, [Command::Send(ToWorker::Cancel { run_id })]);
    assert!(page.run.running.is_none());
    let error = page.error.clone().unwrap().to_string();
    assert!(
        error.contains("`step`") && error.contains("model stays loaded"),
        "{error}"
    );
    assert!(
        page.worker.alive && page.model.is_ready(),
        "no restart, no reload"
    );
    let stops: Vec<_> = page
        .run
        .results
        .iter()
        .map(|r| r.as_ref().and_then(|r| r.stop))
        .collect();
    assert_eq!(
        stops[1],
        Some(ntl_decoding::StopReason::MaxNewTokens),
        "a lane that ended keeps why"
    );
    let cancelled = Some(ntl_decoding::StopReason::Cancelled);
    assert_eq!((stops[0], stops[2]), (cancelled, cancelled), "{stops:?}");
    assert_eq!(
        stops[3], None,
        "a lane that had not begun has nothing to stop"
    );
}

#[test]
fn a_run_that_hears_nothing_for_the_stall_limit_ends_and_keeps_the_worker() {
    let mut page = ready_page(Requested {
        stall: stall::StallLimit { seconds: 10 },
        ..Requested::default()
    });
    let _ = page.on_worker(info(), 0.0);
    let out = page.start_run(RunKind::Generate);
    let (run_id, _) = sent_run(&out).expect("a run request");
    assert!(out.commands.contains(&Command::WatchRun {
        run_id,
        after_ms: 10_000
    }));
    let _ = page.on_worker(started(run_id, Mode::Greedy), 1_000.0);
    let _ = page.on_worker(first_word(run_id, 0), 4_000.0);
    // The first check finds a word 6 s ago: it looks again when 10 s pass.
    let out = page.run_watch(run_id, 10_000.0);
    assert_eq!(
        out.commands,
        [Command::WatchRun {
            run_id,
            after_ms: 4_000
        }]
    );
    assert!(page.run.running.is_some() && page.error.is_none());
    // An answer for something else is not the run's progress.
    let other = FromWorker::Tokenized {
        request_id: 99,
        tokens: Ok(vec![]),
    };
    let _ = page.on_worker(other, 12_000.0);
    let out = page.run_watch(run_id, 14_000.0);
    assert_eq!(out.commands, [Command::Send(ToWorker::Cancel { run_id })]);
    assert!(page.run.running.is_none());
    assert_eq!(page.error, Some(Said::RunStalled { seconds: 10 }));
    assert!(
        page.worker.alive && page.model.is_ready(),
        "the worker and model stay"
    );
    let lane0 = page.run.results[0].as_ref().unwrap();
    assert_eq!(lane0.text, " a", "a lane keeps what it wrote");
    assert_eq!(lane0.stop, Some(ntl_decoding::StopReason::Cancelled));
    // A check for a run that has ended, or been replaced, does nothing.
    assert_eq!(page.run_watch(run_id, 30_000.0), Outcome::unchanged());
}

#[test]
fn a_run_that_never_starts_stalls_at_its_first_check() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
    let out = page.run_watch(run_id, 60_000.0);
    assert_eq!(out.commands, [Command::Send(ToWorker::Cancel { run_id })]);
    assert_eq!(page.error, Some(Said::RunStalled { seconds: 60 }));
}

#[test]
fn a_worker_out_of_memory_names_the_model_starts_a_fresh_worker_and_does_not_load_it_again() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.model.device_memory_gb = Some(2.0);
    page.editor.set_prompt("my prompt".into());
    let lanes = page.editor.lanes.clone();
    let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
    let _ = page.on_worker(started(run_id, Mode::Greedy), 0.0);
    let out = page.worker_crashed(
        "the model worker crashed: RangeError: WebAssembly.Memory.grow(): Maximum memory size exceeded"
            .into(),
    );
    assert_eq!(out.commands, [Command::SpawnWorker { threaded: false }]);
    let error = page.error.clone().unwrap().to_string();
    assert!(
        error.contains("ran out of memory")
            && error.contains("bundled")
            && error.contains("on a device that reports 2 GB")
            && error.contains("prompt and lanes are kept"),
        "{error}"
    );
    assert!(matches!(
        page.model.status,
        model::ModelStatus::Failed { .. }
    ));
    assert_eq!(page.run.running, None, "the run ended");
    assert_eq!(
        (page.editor.prompt.as_str(), &page.editor.lanes),
        ("my prompt", &lanes)
    );
    // The fresh worker listens, and the model that did not fit is not sent to it.
    page.worker_spawned(Ok(()));
    let out = page.on_worker(FromWorker::Ready, 0.0);
    assert!(out.commands.is_empty(), "{out:?}");
    assert!(page.worker.alive && page.worker.ready);
    // Loading a model (the user's pick) goes on as usual, and clears the hold.
    let again = page.model.reload().expect("a load");
    assert!(matches!(again, ToWorker::Load { .. }));
    assert!(!page.model.held);
}
