use super::tests::{info, ready_page};
use super::*;
use ntl_decoding::LaneConfig;
use ntl_protocol::ToWorker;

fn sent_lanes(out: &Outcome) -> Vec<LaneConfig> {
    out.commands
        .iter()
        .find_map(|c| match c {
            Command::Send(ToWorker::Run { request, .. }) => {
                Some(request.lanes.iter().map(|l| l.config.clone()).collect())
            }
            _ => None,
        })
        .expect("a run request")
}

/// A page whose first lane samples without a seed, second is llama.cpp at
/// -1, third samples with seed 3 and fourth is greedy.
fn page_with_unseeded_lanes() -> Page {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor
        .set_json(0, r#"{"do_sample": true, "max_new_tokens": 4}"#);
    page.editor
        .set_json(1, r#"{"semantics": "llama.cpp", "n_predict": 4}"#);
    page.editor
        .set_json(2, r#"{"do_sample": true, "seed": 3, "max_new_tokens": 4}"#);
    page.editor.set_json(3, r#"{"max_new_tokens": 4}"#);
    assert!(page.editor.errors.iter().all(Option::is_none));
    page
}

#[test]
fn a_lane_without_a_seed_runs_on_a_fresh_one_each_run_and_shows_it() {
    let mut page = page_with_unseeded_lanes();
    let first = sent_lanes(&page.start_run(RunKind::Generate));
    let drawn = page.run.drawn;
    let (Some(a), Some(b)) = (drawn[0], drawn[1]) else {
        panic!("the unseeded lanes drew: {drawn:?}");
    };
    assert_eq!(
        drawn[2..],
        [None, None],
        "a seeded lane and a greedy one draw nothing"
    );
    assert_eq!(first[0].transformers().unwrap().seed, Some(a as u64));
    assert_eq!(first[1].llama_cpp().unwrap().seed, b as i64);
    assert_eq!(first[2].transformers().unwrap().seed, Some(3));
    assert_eq!(first[3].transformers().unwrap().seed, None);
    assert_eq!(
        page.editor.lanes[0].seed(),
        None,
        "the editor keeps asking for a new seed"
    );
    let second = sent_lanes(&page.start_run(RunKind::Generate));
    assert_ne!(
        (second[0].clone(), second[1].clone()),
        (first[0].clone(), first[1].clone()),
        "the next run draws again (two equal 32-bit draws: 1 in 2^64)"
    );
}

#[test]
fn shared_randomness_and_a_scored_text_draw_no_seed() {
    let mut page = page_with_unseeded_lanes();
    page.editor.shared_randomness = true;
    let lanes = sent_lanes(&page.start_run(RunKind::Generate));
    assert_eq!(page.run.drawn, [None; LANES]);
    assert_eq!(lanes[0].transformers().unwrap().seed, None);
    page.editor.shared_randomness = false;
    page.editor.score_text = " and".into();
    let _ = page.start_run(RunKind::Score);
    assert_eq!(page.run.drawn, [None; LANES]);
}

#[test]
fn a_link_made_after_the_run_carries_its_drawn_seeds_and_not_after_an_edit() {
    let mut page = page_with_unseeded_lanes();
    let _ = page.start_run(RunKind::Generate);
    let drawn = page.run.drawn;
    let link = page.shared();
    assert_eq!(link.lanes[0].seed(), drawn[0].map(u64::from));
    assert_eq!(link.lanes[1].seed(), drawn[1].map(u64::from));
    assert_eq!(link.lanes[2].seed(), Some(3));
    // The link opens on the same lanes: nothing is drawn there.
    let mut opened = ready_page(Requested {
        shared: Some(Ok(link)),
        ..Requested::default()
    });
    let lanes = sent_lanes(&opened.on_worker(info(), 0.0));
    assert_eq!(opened.run.drawn, [None; LANES]);
    assert_eq!(
        lanes[0].transformers().unwrap().seed,
        drawn[0].map(u64::from)
    );
    // Once the prompt changes, the run on screen is not what a link holds.
    page.editor.prompt.push_str(" again");
    assert_eq!(page.shared().lanes[0].seed(), None);
}

#[test]
fn keeping_a_drawn_seed_makes_it_the_lanes_own_and_the_run_still_counts_as_its() {
    let mut page = page_with_unseeded_lanes();
    let _ = page.start_run(RunKind::Generate);
    let seed = page.run.drawn[1].unwrap();
    page.keep_seed(1);
    assert_eq!(page.editor.lanes[1].seed(), Some(seed as u64));
    assert_eq!(
        page.editor.lanes[1].semantics(),
        ntl_decoding::Semantics::LlamaCpp
    );
    assert_eq!(
        page.run.ran_with.as_ref().unwrap().1[1],
        page.editor.lanes[1],
        "the run on screen ran this seed"
    );
    assert_eq!(page.shared().lanes[1].seed(), Some(seed as u64));
    let again = sent_lanes(&page.start_run(RunKind::Generate));
    assert_eq!(again[1].llama_cpp().unwrap().seed, seed as i64);
    assert_eq!(page.run.drawn[1], None, "a kept seed is not drawn again");
    page.keep_seed(3);
    assert_eq!(
        page.editor.lanes[3].seed(),
        None,
        "nothing was drawn for lane 4"
    );
}

#[test]
fn a_replayed_recording_shows_no_seed_drawn_by_an_earlier_run() {
    let mut page = page_with_unseeded_lanes();
    let _ = page.start_run(RunKind::Generate);
    assert!(page.run.drawn[0].is_some());
    let text = std::fs::read("www/lessons/recordings/temperature-sweep-1.json").unwrap();
    let doc: ntl_decoding::Document = serde_json::from_slice(&text).unwrap();
    let recorded_seed = doc.runs[0].config.transformers().and_then(|c| c.seed);
    page.replayed("sweep.json".into(), doc);
    assert_eq!(
        page.run.drawn, [None; LANES],
        "the recording's seeds are its own"
    );
    assert_eq!(
        page.shared().lanes[0].hf().and_then(|c| c.seed),
        recorded_seed,
        "a link made now holds the recording's seed"
    );
}
