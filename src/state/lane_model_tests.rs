use super::lane_models::{LaneModelStatus, LaneModelTrouble};
use super::tests::{info, ready_page};
use super::*;
use ntl_protocol::trouble::LoadTrouble;
use ntl_protocol::{FromWorker, LoadWeights, ModelSource, ToWorker};

const MINIGPT: &str = "models/tutorial-minigpt/";
const INDEX: &[u8] = br#"{"models": [
    {"folder": "tutorial-minigpt", "bytes": 6401300},
    {"folder": "huge-gpt2", "bytes": 3000000000}
]}"#;

pub(super) fn sent(out: &Outcome) -> Vec<&ToWorker> {
    out.commands
        .iter()
        .filter_map(|c| match c {
            Command::Send(m) => Some(m),
            _ => None,
        })
        .collect()
}

fn run_request(out: &Outcome) -> Option<&RunRequest> {
    sent(out).into_iter().find_map(|m| match m {
        ToWorker::Run { request, .. } => Some(request),
        _ => None,
    })
}

/// A loaded page that knows the site's folders, lane 2 on the MiniGPT.
fn page_with_lane_model(name: &str) -> Page {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let _ = page.site_models_arrived(Ok(INDEX.to_vec()));
    page.editor.set_model(1, name);
    assert_eq!(page.editor.errors[1], None);
    page
}

fn minigpt_info() -> ntl_decoding::ModelInfo {
    let mut i = model::tests::info();
    i.architecture = "MiniGPT".into();
    i.vocab_size = 65;
    i
}

#[test]
fn a_lane_on_a_listed_folder_loads_it_first_then_the_run_names_it() {
    let mut page = page_with_lane_model(MINIGPT);
    let out = page.start_run(RunKind::Generate);
    assert!(run_request(&out).is_none(), "the run waits for the model");
    assert_eq!(
        sent(&out),
        [&ToWorker::LoadLaneModel {
            name: MINIGPT.into(),
            source: ModelSource::Folder {
                path: MINIGPT.into()
            },
            weights: LoadWeights::AsStored,
        }]
    );
    let m = page.lane_models.get(MINIGPT).expect("asked for");
    let cost = m.cost.expect("said before loading");
    assert_eq!(cost.download, 6_401_300);
    assert!(cost.memory > cost.download, "{cost:?}");
    // Its download's progress is the lane's, not the page model's.
    let out = page.on_worker(
        FromWorker::LaneModelProgress {
            name: MINIGPT.into(),
            file: "minigpt.pt".into(),
            loaded: 3,
            total: Some(6),
        },
        0.0,
    );
    assert!(out.redraw);
    assert!(matches!(
        page.lane_models.status(MINIGPT),
        Some(LaneModelStatus::Loading { loaded: 3, .. })
    ));
    assert!(page.model.is_ready(), "the page's model stays ready");
    let out = page.on_worker(
        FromWorker::LaneModelLoaded {
            name: MINIGPT.into(),
            info: minigpt_info(),
            load_ms: 5.0,
            memory_bytes: Some(90_000_000),
        },
        0.0,
    );
    let request = run_request(&out).expect("the waiting run starts");
    assert_eq!(
        request.lane_models,
        [None, Some(MINIGPT.to_string()), None, None]
    );
    assert_eq!(page.lane_models.worker_memory, Some(90_000_000));
    // The next run needs no load.
    let out = page.start_run(RunKind::Generate);
    assert_eq!(sent(&out).len(), 1, "{out:?}");
    assert!(run_request(&out).is_some());
    // The MiniGPT's 65 tokens are not GPT-2's: the tables line up by text.
    assert_eq!(page.run.align(), crate::compare::Align::ByText);
}

#[test]
fn a_lane_on_a_model_too_big_to_sit_beside_the_other_is_refused_before_any_download() {
    let mut page = page_with_lane_model("models/huge-gpt2/");
    page.lane_models.worker_memory = Some(1_500_000_000);
    let out = page.start_run(RunKind::Generate);
    assert!(
        !sent(&out)
            .iter()
            .any(|m| matches!(m, ToWorker::LoadLaneModel { .. })),
        "nothing loads: {out:?}"
    );
    let request = run_request(&out).expect("the other lanes run");
    assert_eq!(request.lanes.len(), 3, "lane 2 stays out");
    assert!(request.lane_models.is_empty());
    assert_eq!(page.run.lane_of, [0, 2, 3]);
    let e = page.editor.errors[1].as_ref().expect("the lane says why");
    assert_eq!(e.field.as_deref(), Some("model"));
    let Said::LaneModel {
        trouble: LaneModelTrouble::TooBig { cost, held, .. },
        ..
    } = &e.message
    else {
        panic!("{e:?}");
    };
    assert_eq!(cost.download, 3_000_000_000);
    assert_eq!(*held, 1_500_000_000);
    let words = crate::i18n::I18n::new("en").said(&e.message);
    assert!(
        words.contains("3000.0 MB") && words.contains("1500.0 MB"),
        "{words}"
    );
    assert!(page.model.is_ready());
}

#[test]
fn a_half_of_the_devices_memory_is_the_limit_where_the_device_says_it() {
    let mut page = page_with_lane_model(MINIGPT);
    page.model.device_memory_gb = Some(0.1);
    page.lane_models.worker_memory = Some(40_000_000);
    let out = page.start_run(RunKind::Generate);
    assert!(run_request(&out).is_some_and(|r| r.lanes.len() == 3));
    assert!(matches!(
        page.editor.errors[1].as_ref().map(|e| &e.message),
        Some(Said::LaneModel {
            trouble: LaneModelTrouble::TooBig {
                device_gb: Some(_),
                ..
            },
            ..
        })
    ));
}

#[test]
fn a_hub_repo_nobody_lists_is_measured_first() {
    let mut page = page_with_lane_model("someone/tiny-model");
    let out = page.start_run(RunKind::Generate);
    assert_eq!(
        sent(&out),
        [&ToWorker::Measure {
            repo: "someone/tiny-model".into()
        }]
    );
    let out = page.on_worker(
        FromWorker::Measured {
            repo: "someone/tiny-model".into(),
            bytes: Some(20_000_000),
            cached: false,
            shape: None,
            gguf: None,
        },
        0.0,
    );
    assert!(matches!(
        sent(&out)[..],
        [ToWorker::LoadLaneModel { name, .. }] if name == "someone/tiny-model"
    ));
    // An unsized answer cannot be judged: refused, and said.
    let mut page = page_with_lane_model("someone/other");
    let _ = page.start_run(RunKind::Generate);
    let out = page.on_worker(
        FromWorker::Measured {
            repo: "someone/other".into(),
            bytes: None,
            cached: false,
            shape: None,
            gguf: None,
        },
        0.0,
    );
    assert!(
        run_request(&out).is_some_and(|r| r.lanes.len() == 3),
        "the others run"
    );
    assert!(matches!(
        page.lane_models.status("someone/other"),
        Some(LaneModelStatus::Failed(Said::LaneModel {
            trouble: LaneModelTrouble::SizeUnknown,
            ..
        }))
    ));
}

#[test]
fn a_lane_model_that_fails_to_load_fails_its_lane_alone_and_the_others_run_in_their_places() {
    let mut page = page_with_lane_model(MINIGPT);
    let _ = page.start_run(RunKind::Generate);
    let out = page.on_worker(
        FromWorker::LaneModelFailed {
            name: MINIGPT.into(),
            file: Some("minigpt.pt".into()),
            trouble: LoadTrouble::NothingToLoad,
            network: false,
        },
        0.0,
    );
    let (run_id, request) = super::tests::sent_run(&out).expect("the other lanes run");
    assert_eq!(request.lanes.len(), 3);
    assert!(
        !sent(&out)
            .iter()
            .any(|m| matches!(m, ToWorker::LoadLaneModel { .. })),
        "not tried again at once"
    );
    let e = page.editor.errors[1].as_ref().expect("lane 2 says why");
    let words = crate::i18n::I18n::new("en").said(&e.message);
    assert!(
        words.contains(MINIGPT) && words.contains("minigpt.pt"),
        "{words}"
    );
    assert_eq!(page.editor.errors[0], None, "the other lanes are fine");
    // The worker's lanes 0, 1, 2 are the page's lanes 1, 3, 4.
    let started = FromWorker::Started {
        run_id,
        prompt_ids: vec![1],
        prompt_cropped: 0,
        lanes: vec![
            ntl_protocol::LaneStart {
                mode: ntl_decoding::Mode::Greedy,
                config: ntl_decoding::GenerationConfig::default().into(),
            };
            3
        ],
    };
    assert!(page.on_worker(started, 0.0).redraw);
    let step = FromWorker::Step {
        run_id,
        lane: 1,
        index: 0,
        step: Box::new(run::tests::step(5, " a")),
        text: " a".into(),
    };
    assert!(page.on_worker(step, 0.0).redraw);
    assert!(
        page.run.results[2].is_some(),
        "the worker's lane 2 is lane 3"
    );
    assert!(page.run.results[1].is_none(), "lane 2 did not run");
    let done = FromWorker::LaneDone {
        run_id,
        lane: 2,
        reason: ntl_decoding::StopReason::MaxNewTokens,
    };
    let _ = page.on_worker(done, 0.0);
    assert!(
        page.run.results[3].is_none(),
        "no step yet: nothing to stop"
    );
    // The next Run tries the model again.
    let out = page.start_run(RunKind::Generate);
    assert!(matches!(sent(&out)[..], [ToWorker::LoadLaneModel { .. }]));
}

#[test]
fn a_lane_naming_the_pages_own_model_runs_on_it_without_a_load() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor.set_model(2, "bundled");
    let out = page.start_run(RunKind::Generate);
    let request =
        run_request(&out).unwrap_or_else(|| panic!("runs at once: {out:?} {:?}", page.error));
    assert!(request.lane_models.is_empty(), "{:?}", request.lane_models);
}

#[test]
fn lanes_no_longer_naming_a_model_let_it_go() {
    let mut page = page_with_lane_model(MINIGPT);
    let _ = page.start_run(RunKind::Generate);
    let _ = page.on_worker(
        FromWorker::LaneModelLoaded {
            name: MINIGPT.into(),
            info: minigpt_info(),
            load_ms: 1.0,
            memory_bytes: None,
        },
        0.0,
    );
    page.editor.set_model(1, "");
    let out = page.start_run(RunKind::Generate);
    assert!(sent(&out).contains(&&ToWorker::ForgetLaneModel {
        name: MINIGPT.into()
    }));
    assert!(run_request(&out).is_some_and(|r| r.lane_models.is_empty()));
}

#[test]
fn a_lanes_json_carries_its_model_and_a_bad_one_is_refused_next_to_it() {
    let mut page = ready_page(Requested::default());
    page.editor.set_json(
        1,
        r#"{"model": "models/tutorial-minigpt/", "do_sample": false}"#,
    );
    assert_eq!(page.editor.errors[1], None);
    assert_eq!(page.editor.models[1].as_deref(), Some(MINIGPT));
    let json = page.editor.lane_json(1);
    assert!(
        json.contains(r#""model": "models/tutorial-minigpt/""#),
        "{json}"
    );
    page.editor.set_json(1, r#"{"do_sample": false}"#);
    assert_eq!(page.editor.models[1], None, "the JSON is the whole lane");
    for bad in [
        r#"{"model": 3}"#,
        r#"{"model": "../secret/"}"#,
        r#"{"model": "https://evil.example/m/"}"#,
    ] {
        page.editor.set_json(2, bad);
        let e = page.editor.errors[2].as_ref().expect(bad);
        assert_eq!(e.field.as_deref(), Some("model"), "{bad}");
        assert_eq!(page.editor.models[2], None, "{bad}");
    }
}

#[test]
fn a_share_link_carries_each_lanes_model_and_refuses_a_hostile_one() {
    let mut page = ready_page(Requested::default());
    page.editor.set_model(1, MINIGPT);
    let shared = page.editor.shared(None, false);
    assert_eq!(shared.lane_models[1].as_deref(), Some(MINIGPT));
    let link = ntl_protocol::share::encode(&shared);
    let back = ntl_protocol::share::decode(&link).expect("reads back");
    let mut other = Editor::default();
    other.apply_shared(back);
    assert_eq!(other.models[1].as_deref(), Some(MINIGPT));
    assert_eq!(other.models[0], None);
    let mut hostile = shared.clone();
    hostile.lane_models[1] = Some("../../etc/".into());
    let e = ntl_protocol::share::decode(&ntl_protocol::share::encode(&hostile)).unwrap_err();
    assert!(e.to_string().contains("lane 2"), "{e}");
    // A link of a page with no lane models says nothing of them.
    page.editor.set_model(1, "");
    assert!(page.editor.shared(None, false).lane_models.is_empty());
}

#[test]
fn a_new_worker_holds_no_lane_model() {
    let mut page = page_with_lane_model(MINIGPT);
    let _ = page.start_run(RunKind::Generate);
    page.worker_spawned(Ok(()));
    assert!(page.lane_models.models.is_empty());
}

#[test]
fn naming_a_lanes_model_says_its_cost_at_once_and_downloads_nothing_until_a_run() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let _ = page.site_models_arrived(Ok(INDEX.to_vec()));
    let out = page.lane_model_named(1, MINIGPT);
    assert!(sent(&out).is_empty(), "listed: its size is known");
    let m = page.lane_models.get(MINIGPT).expect("sized");
    assert_eq!(m.status, LaneModelStatus::Sized);
    assert_eq!(m.cost.map(|c| c.download), Some(6_401_300));
    let out = page.start_run(RunKind::Generate);
    assert!(matches!(sent(&out)[..], [ToWorker::LoadLaneModel { .. }]));
    // Not listed: measured, still not loaded.
    let out = page.lane_json_set(2, r#"{"model": "someone/tiny-model"}"#);
    assert_eq!(
        sent(&out),
        [&ToWorker::Measure {
            repo: "someone/tiny-model".into()
        }]
    );
}

#[test]
fn a_name_that_is_no_model_keeps_its_lane_from_running_until_another_is_given() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor.set_model(1, "https://evil.example/m/");
    let out = page.start_run(RunKind::Generate);
    assert!(run_request(&out).is_none(), "not run on the model it had");
    assert!(page.editor.errors[1]
        .as_ref()
        .is_some_and(|e| e.message.is_not_a_model()));
    page.editor.set_model(1, "");
    assert_eq!(page.editor.errors[1], None);
    assert!(run_request(&page.start_run(RunKind::Generate)).is_some());
}
