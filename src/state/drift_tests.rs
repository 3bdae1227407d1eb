use super::drift::{is_quantized, DriftLine, Held, Measure};
use super::lane_model_tests::sent as sends;
use super::tests::{ready_page, sent_run};
use super::*;
use ntl_decoding::precision_drift::{RowDrift, Top};
use ntl_protocol::{FromWorker, ModelSource, StepDrift, ToWorker};

const Q8: &str = "Q8_0 (quantized at load from F16)";

fn loaded(dtype: &str) -> FromWorker {
    let mut info = model::tests::info();
    info.storage_dtype = dtype.into();
    FromWorker::Loaded {
        info,
        source: ModelSource::Bundled {
            base: "models/bundled".into(),
        },
        load_ms: 1.0,
        memory_bytes: None,
        threads: 1,
    }
}

/// A run of `page` started, lanes 1 and 2 having written two tokens each
/// after the prompt [1], and step 2 open from lane 1.
fn ran(page: &mut Page, out: Outcome) {
    let (run_id, _) = sent_run(&out).unwrap_or_else(|| panic!("a run: {out:?}"));
    let _ = page.on_worker(tests::started(run_id, ntl_decoding::Mode::Greedy), 0.0);
    for lane in 0..2 {
        for (index, (id, token)) in [(5, " a"), (6, " b")].into_iter().enumerate() {
            let step = FromWorker::Step {
                run_id,
                lane,
                index,
                step: Box::new(run::tests::step(id, token)),
                text: token.into(),
            };
            let _ = page.on_worker(step, 0.0);
        }
    }
    page.run.select(0, 1);
}

/// The page's model kept in 8 bits, lane 2 naming it as stored (loaded).
fn eight_bit_beside_full() -> Page {
    let mut page = ready_page(Requested::default());
    page.model.eight_bit = true;
    let _ = page.on_worker(loaded(Q8), 0.0);
    page.editor.set_model(1, "bundled");
    let out = page.start_run(RunKind::Generate);
    assert!(
        matches!(sends(&out)[..], [ToWorker::LoadLaneModel { name, .. }] if name == "bundled"),
        "the lane gets the model as stored, loaded beside it: {out:?}"
    );
    let mut info = model::tests::info();
    info.storage_dtype = "F16".into();
    let out = page.on_worker(
        FromWorker::LaneModelLoaded {
            name: "bundled".into(),
            info,
            load_ms: 1.0,
            memory_bytes: None,
        },
        0.0,
    );
    let (_, request) = sent_run(&out).expect("the run starts");
    assert_eq!(
        request.lane_models,
        [None, Some("bundled".to_string()), None, None]
    );
    ran(&mut page, out);
    page
}

fn measured(kl: f64, top: u32, reference_top: u32) -> StepDrift {
    StepDrift {
        drift: RowDrift {
            kl,
            top: Top { id: top, prob: 0.5 },
            reference_top: Top {
                id: reference_top,
                prob: 0.4,
            },
        },
        top: " c".into(),
        reference_top: " d".into(),
    }
}

#[test]
fn a_quantized_lane_beside_its_model_as_stored_is_measured_once_per_open_step() {
    let mut page = eight_bit_beside_full();
    let out = page.measure_drift();
    let asked = sends(&out);
    let [ToWorker::Drift {
        request_id,
        ids,
        model,
        reference,
    }] = asked[..]
    else {
        panic!("one request, for the 8-bit lane only: {asked:?}");
    };
    // The prompt, then lane 1's token before step 2.
    assert_eq!(ids, &[1, 5]);
    assert_eq!((model, reference), (&None, &Some("bundled".to_string())));
    let request_id = *request_id;
    let Some(DriftLine::Against {
        dtype,
        reference,
        measure,
    }) = page.drift_line(0)
    else {
        panic!("lane 1 says it is measuring: {:?}", page.drift_line(0));
    };
    assert_eq!(dtype, Q8);
    assert_eq!(reference.held, Held::Lane("bundled".into()));
    assert_eq!(reference.dtype, "F16");
    assert_eq!(measure, Measure::Asked { request_id });
    assert_eq!(
        page.drift_line(1),
        None,
        "the full-precision lane has no line"
    );
    assert!(sends(&page.measure_drift()).is_empty(), "asked once");

    let answer = FromWorker::Drifted {
        request_id,
        drift: Ok(measured(1.2e-4, 7, 7)),
    };
    assert!(page.on_worker(answer, 0.0).redraw);
    let Some(DriftLine::Against { measure, .. }) = page.drift_line(0) else {
        panic!("still a line");
    };
    assert_eq!(measure, Measure::Measured(measured(1.2e-4, 7, 7)));

    // Step 1 is another question; back at step 2 the answer is kept.
    page.run.select(0, 0);
    let out = page.measure_drift();
    assert!(
        matches!(sends(&out)[..], [ToWorker::Drift { ids, .. }] if ids == &[1]),
        "{out:?}"
    );
    page.run.select(0, 1);
    assert!(sends(&page.measure_drift()).is_empty());
    assert!(matches!(
        page.drift_line(0),
        Some(DriftLine::Against {
            measure: Measure::Measured(_),
            ..
        })
    ));
}

#[test]
fn an_answer_for_no_asked_step_changes_nothing_and_a_failure_is_said_on_the_lane() {
    let mut page = eight_bit_beside_full();
    let out = page.measure_drift();
    let Some(ToWorker::Drift { request_id, .. }) = sends(&out).first().copied() else {
        panic!("asked");
    };
    let request_id = *request_id;
    let stray = FromWorker::Drifted {
        request_id: request_id + 40,
        drift: Ok(measured(0.1, 1, 2)),
    };
    assert!(!page.on_worker(stray, 0.0).redraw);
    let failed = FromWorker::Drifted {
        request_id,
        drift: Err(ntl_protocol::Unanswered::Engine {
            message: "the model failed: out of memory".into(),
        }),
    };
    assert!(page.on_worker(failed, 0.0).redraw);
    assert!(matches!(
        page.drift_line(0),
        Some(DriftLine::Against { measure: Measure::Failed(Said::Verbatim(m)), .. })
            if m.contains("out of memory")
    ));
}

#[test]
fn a_quantized_lane_alone_says_how_to_see_full_precision_and_asks_nothing() {
    let mut page = ready_page(Requested::default());
    page.model.eight_bit = true;
    let _ = page.on_worker(loaded(Q8), 0.0);
    let out = page.start_run(RunKind::Generate);
    ran(&mut page, out);
    assert_eq!(
        page.drift_line(0),
        Some(DriftLine::NoReference { dtype: Q8.into() })
    );
    assert!(sends(&page.measure_drift()).is_empty());
}

#[test]
fn a_replayed_run_on_a_page_in_eight_bits_shows_no_line_it_cannot_vouch_for() {
    // A recording (a lesson's, an export) does not say which weights wrote
    // each lane: the page's 8 bits may not be what made it.
    let mut page = ready_page(Requested::default());
    page.model.eight_bit = true;
    let _ = page.on_worker(loaded(Q8), 0.0);
    let doc = super::run::tests::one_step_doc(5, " a");
    page.run.replay("r.json".into(), doc).unwrap();
    page.run.select(0, 0);
    assert_eq!(page.drift_line(0), None);
    assert!(sends(&page.measure_drift()).is_empty());
}

#[test]
fn full_precision_lanes_show_no_line_and_a_new_worker_forgets_what_was_asked() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(loaded("F16"), 0.0);
    let out = page.start_run(RunKind::Generate);
    ran(&mut page, out);
    assert!((0..LANES).all(|l| page.drift_line(l).is_none()));
    assert!(sends(&page.measure_drift()).is_empty());

    let mut page = eight_bit_beside_full();
    assert!(!sends(&page.measure_drift()).is_empty());
    page.worker_spawned(Ok(()));
    assert!(page.drifts.is_empty());
    assert_eq!(
        page.drift_line(0),
        Some(DriftLine::NoReference { dtype: Q8.into() }),
        "the copy went with the old worker"
    );
}

#[test]
fn weight_types_below_sixteen_bits_are_quantized() {
    for full in ["F32", "F16", "BF16", "F16+F32", "GGUF F16", "GGUF F32"] {
        assert!(!is_quantized(full), "{full}");
    }
    for quantized in [Q8, "GGUF Q8_0", "GGUF Q4_K_M", "GGUF Q8_0+F32"] {
        assert!(is_quantized(quantized), "{quantized}");
    }
}

#[test]
fn a_model_beside_a_copy_of_itself_lines_its_tables_up_by_id() {
    let page = eight_bit_beside_full();
    assert!(page.run.one_vocabulary);
    assert_eq!(page.run.align(), crate::compare::Align::ById);
}

#[test]
fn the_what_if_sandbox_tries_a_lane_on_its_own_model() {
    let mut page = eight_bit_beside_full();
    let model_of = |out: &Outcome| {
        sends(out).into_iter().find_map(|m| match m {
            ToWorker::WhatIf { model, ids, .. } => Some((model.clone(), ids.clone())),
            _ => None,
        })
    };
    let out = page.open_sandbox(1, 1);
    assert_eq!(model_of(&out), Some((Some("bundled".into()), vec![1, 5])));
    let out = page.open_sandbox(0, 1);
    assert_eq!(
        model_of(&out),
        Some((None, vec![1, 5])),
        "the page's 8-bit model"
    );
}
