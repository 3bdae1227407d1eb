//! The tree panel on the page: what it sends, what it refuses before
//! sending, its progress, a cancel, a failure, and a branch followed by
//! every lane.

use super::tests::{info, ready_page};
use super::tree_steps::TreeSetting;
use super::*;
use ntl_decoding::sample_tree::{SampleTree, TreeDocument, TreeNode, TreeRefusal};
use ntl_protocol::{FromWorker, RunRequest, ToWorker, TreeRequest};

fn sampling_page() -> Page {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor
        .set_json(0, r#"{"do_sample": true, "temperature": 0.7}"#);
    page
}

fn sent_tree(out: &Outcome) -> Option<(u64, TreeRequest)> {
    out.commands.iter().find_map(|c| match c {
        Command::Send(ToWorker::Tree { run_id, request }) => Some((*run_id, (**request).clone())),
        _ => None,
    })
}

fn node(parent: Option<u32>, depth: u32, token_id: u32, count: u32) -> TreeNode {
    TreeNode {
        parent,
        depth,
        token_id,
        token: format!(" t{token_id}"),
        count,
        share: count as f64 / 10.0,
        prob: 0.5,
        raw_prob: 0.25,
        path_prob: 0.5,
        path_raw_prob: 0.25,
        stop: None,
    }
}

fn grown_doc(samples: usize) -> TreeDocument {
    TreeDocument {
        prompt_ids: vec![7, 8],
        prompt: "The LORD".into(),
        prompt_cropped: 0,
        tree: SampleTree {
            config: ntl_decoding::LaneConfig::from_json(r#"{"do_sample": true, "seed": 5}"#)
                .unwrap(),
            samples,
            tokens: 2,
            nodes: vec![
                node(None, 1, 11, 10),
                node(Some(0), 2, 12, 6),
                node(Some(0), 2, 13, 4),
            ],
            leaves: vec![1; samples],
            rows: 2,
            complete: true,
        },
    }
}

#[test]
fn growing_sends_the_lanes_config_with_a_drawn_seed_and_the_chosen_sizes() {
    let mut page = sampling_page();
    let _ = page.set_tree(TreeSetting::Samples(1000));
    let _ = page.set_tree(TreeSetting::Tokens(8));
    let (run_id, request) = sent_tree(&page.grow_tree()).expect("a tree request");
    assert_eq!((request.samples, request.tokens), (1000, 8));
    assert_eq!(request.prompt, page.editor.prompt);
    let seed = match &request.lane.config {
        ntl_decoding::LaneConfig::Transformers(c) => c.seed,
        other => panic!("{other:?}"),
    };
    assert!(
        seed.is_some(),
        "an unseeded lane's tree draws its seed, so it can be grown again"
    );
    assert!(page.tree.is_growing(run_id));
    assert_ne!(
        run_id, page.run.latest,
        "its own id, apart from the lanes' runs"
    );
    // Progress, then the tree.
    let out = page.on_worker(
        FromWorker::TreeGrowing {
            run_id,
            level: 2,
            levels: 7,
            rows: 90,
            fraction: 0.2,
        },
        0.0,
    );
    assert!(out.redraw);
    assert_eq!(page.tree.growing.unwrap().rows, 90);
    let _ = page.on_worker(
        FromWorker::TreeGrown {
            run_id,
            document: Box::new(grown_doc(10)),
            ms: 900.0,
            memory_bytes: None,
        },
        0.0,
    );
    assert!(page.tree.growing.is_none());
    assert_eq!(page.tree.grown.as_ref().unwrap().doc.tree.samples, 10);
}

#[test]
fn a_greedy_lane_or_a_tree_past_the_limits_is_refused_before_anything_is_sent() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    page.editor.set_json(0, r#"{"do_sample": false}"#);
    let out = page.grow_tree();
    assert!(sent_tree(&out).is_none());
    assert!(matches!(
        page.tree.error,
        Some(Said::Tree(TreeRefusal::NotSampling { .. }))
    ));
    page.editor.set_json(0, r#"{"do_sample": true}"#);
    let _ = page.set_tree(TreeSetting::Samples(5000));
    assert_eq!(page.tree.samples, 1000, "clamped to the most a tree draws");
    assert!(sent_tree(&page.grow_tree()).is_some());
    assert!(page.tree.error.is_none());
}

#[test]
fn a_stop_cancels_the_tree_and_what_it_grew_stays() {
    let mut page = sampling_page();
    let (run_id, _) = sent_tree(&page.grow_tree()).unwrap();
    let out = page.cancel_tree();
    assert!(out
        .commands
        .contains(&Command::Send(ToWorker::Cancel { run_id })));
    let mut partial = grown_doc(10);
    partial.tree.complete = false;
    let _ = page.on_worker(
        FromWorker::TreeGrown {
            run_id,
            document: Box::new(partial),
            ms: 10.0,
            memory_bytes: None,
        },
        0.0,
    );
    assert!(!page.tree.grown.as_ref().unwrap().doc.tree.complete);
}

#[test]
fn the_workers_refusal_shows_on_the_tree_not_on_the_lanes() {
    let mut page = sampling_page();
    let (run_id, _) = sent_tree(&page.grow_tree()).unwrap();
    let refusal = TreeRefusal::TooLarge {
        samples: 1000,
        tokens: 16,
        need_mb: 600,
        budget_mb: 536,
    };
    let _ = page.on_worker(
        FromWorker::RunFailed {
            run_id,
            lane: None,
            field: None,
            message: refusal.to_string(),
            trouble: Some(ntl_protocol::trouble::RunTrouble::Tree {
                refusal: refusal.clone(),
            }),
        },
        0.0,
    );
    assert_eq!(page.tree.error, Some(Said::Tree(refusal)));
    assert!(page.error.is_none());
    assert!(page.tree.growing.is_none());
}

#[test]
fn a_late_message_of_an_older_tree_changes_nothing() {
    let mut page = sampling_page();
    let (first, _) = sent_tree(&page.grow_tree()).unwrap();
    let (second, _) = sent_tree(&page.grow_tree()).unwrap();
    assert_ne!(first, second);
    let _ = page.on_worker(
        FromWorker::TreeGrown {
            run_id: first,
            document: Box::new(grown_doc(10)),
            ms: 1.0,
            memory_bytes: None,
        },
        0.0,
    );
    assert!(page.tree.grown.is_none());
    assert!(page.tree.is_growing(second));
}

#[test]
fn a_branch_opened_and_followed_runs_every_lane_along_it_from_the_trees_prompt() {
    let mut page = sampling_page();
    page.editor.set_json(1, r#"{"do_sample": false}"#);
    let _ = page.set_tree(TreeSetting::Lane(0));
    let (run_id, _) = sent_tree(&page.grow_tree()).unwrap();
    let _ = page.on_worker(
        FromWorker::TreeGrown {
            run_id,
            document: Box::new(grown_doc(10)),
            ms: 1.0,
            memory_bytes: None,
        },
        0.0,
    );
    let _ = page.select_tree_node(2);
    assert_eq!(page.tree.selected, Some(2));
    let run: RunRequest = page
        .follow_tree_branch()
        .commands
        .iter()
        .find_map(|c| match c {
            Command::Send(ToWorker::Run { request, .. }) => Some(request.clone()),
            _ => None,
        })
        .expect("a run along the branch");
    assert_eq!(
        run.prompt_ids,
        Some(vec![7, 8]),
        "the tree's prompt, as ids"
    );
    assert!(run.lanes.iter().all(|l| l.forced_ids == Some(vec![11, 13])));
    assert_eq!(page.run.kind, RunKind::Score);
    // Choosing the open branch again closes it.
    let _ = page.select_tree_node(2);
    assert_eq!(page.tree.selected, None);
}

#[test]
fn projected_the_tree_shows_only_when_there_is_one() {
    let mut page = sampling_page();
    assert!(!page.tree_to_project());
    let (run_id, _) = sent_tree(&page.grow_tree()).unwrap();
    assert!(page.tree_to_project(), "growing");
    let _ = page.on_worker(
        FromWorker::TreeGrown {
            run_id,
            document: Box::new(grown_doc(10)),
            ms: 1.0,
            memory_bytes: None,
        },
        0.0,
    );
    assert!(page.tree_to_project(), "grown");
}
