//! A load that fails before the worker lets its model go (a student's
//! refused `minigpt.pt`, files that make no model) leaves that model to go
//! on with; the head count a `.pt` cannot say travels with picked files
//! that lack a `config.json`; and a MiniGPT read from a `.pt` can be saved
//! as a model folder.

use super::model::tests::info;
use super::model::{ModelState, ModelStatus, TUTORIAL_HEADS};
use crate::said::Said;
use ntl_protocol::trouble::LoadTrouble;
use ntl_protocol::{ModelSource, ToWorker};

fn ready() -> ModelState {
    let mut m = ModelState::new(Some("bundled"), false);
    m.reload();
    let source = m.source.clone().expect("the bundled model");
    m.loaded(info(), source, 10.0, 1);
    m
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn refused(m: &mut ModelState, kept: bool) {
    let trouble = LoadTrouble::Other {
        message: "minigpt.pt: its pickle names `posix.system`".into(),
    };
    assert!(m
        .load_failed(Some("minigpt.pt".into()), trouble, false, kept)
        .is_none());
}

#[test]
fn a_refused_minigpt_leaves_the_model_in_use_to_go_on_with() {
    let mut m = ready();
    let before = m.status.clone();
    m.load_files(names(&["tokenizer.json", "evil.pt"]));
    refused(&mut m, true);
    assert!(
        matches!(m.status, ModelStatus::Failed { .. }),
        "the refusal is shown"
    );
    assert!(matches!(m.previous(), Some(ModelSource::Bundled { .. })));
    m.keep_previous();
    assert_eq!(m.status, before, "the same model, ready, without a reload");
    assert!(m.previous().is_none());
}

#[test]
fn a_model_from_picked_files_is_there_to_go_on_with_too() {
    let mut m = ready();
    let picked = names(&["config.json", "tokenizer.json", "minigpt.pt"]);
    m.load_files(picked.clone());
    m.loaded(info(), ModelSource::Files { names: picked }, 1.0, 1);
    m.load_files(names(&["tokenizer.json", "evil.pt"]));
    refused(&mut m, true);
    assert!(matches!(m.previous(), Some(ModelSource::Files { .. })));
    m.keep_previous();
    assert_eq!(m.folder_to_save().as_deref(), Some("minigpt"));
}

#[test]
fn a_load_that_let_the_model_go_or_a_crash_offers_nothing_to_go_on_with() {
    let mut m = ready();
    m.load_files(names(&[
        "config.json",
        "tokenizer.json",
        "model.safetensors",
    ]));
    refused(&mut m, false);
    assert!(m.previous().is_none());
    m.keep_previous();
    assert!(matches!(m.status, ModelStatus::Failed { .. }));

    let mut m = ready();
    m.load_files(names(&["tokenizer.json", "minigpt.pt"]));
    m.failed(Said::Verbatim("the model worker stopped".into()));
    assert!(m.previous().is_none(), "a crashed worker holds no model");
}

#[test]
fn files_that_make_no_model_keep_the_one_in_use() {
    let mut m = ready();
    m.pick_refused(Said::Verbatim("pick tokenizer.json too".into()));
    assert!(m.previous().is_some());
    m.keep_previous();
    assert!(m.is_ready());
}

#[test]
fn a_pt_without_its_config_carries_the_fields_head_count() {
    let mut m = ready();
    assert_eq!(m.minigpt_heads, TUTORIAL_HEADS);
    let heads = |m: &mut ModelState, picked: &[&str]| match m.load_files(names(picked)) {
        ToWorker::Load { heads, .. } => heads,
        other => panic!("{other:?}"),
    };
    assert_eq!(heads(&mut m, &["tokenizer.json", "minigpt.pt"]), Some(4));
    for bad in ["0", "-2", "two", "2.5", "100000"] {
        m.set_minigpt_heads(bad);
        assert_eq!(m.minigpt_heads, 4, "{bad} is refused");
    }
    m.set_minigpt_heads(" 8 ");
    assert_eq!(heads(&mut m, &["tokenizer.json", "model.pth"]), Some(8));
    assert_eq!(
        heads(&mut m, &["config.json", "tokenizer.json", "minigpt.pt"]),
        None,
        "a config.json says the heads itself"
    );
    assert_eq!(
        heads(
            &mut m,
            &["config.json", "tokenizer.json", "model.safetensors"]
        ),
        None
    );
}

#[test]
fn only_a_minigpt_read_from_a_picked_pt_offers_its_folder() {
    let mut m = ready();
    assert_eq!(m.folder_to_save(), None, "the bundled model");
    let source = ModelSource::Files {
        names: names(&["tokenizer.json", "minigpt.pt"]),
    };
    m.load_files(names(&["tokenizer.json", "minigpt.pt"]));
    assert_eq!(m.folder_to_save(), None, "not while it loads");
    m.loaded(info(), source, 1.0, 1);
    assert_eq!(m.folder_to_save().as_deref(), Some("minigpt"));
}
