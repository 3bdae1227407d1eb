//! A hub repo of llama.cpp files: the page lists its `.gguf` files with
//! their sizes, the user chooses one, and links name it as llama.cpp's `-hf` does.

use super::model::{DownloadSize, ModelState, ModelStatus};
use ntl_protocol::hub_gguf::{GgufFile, Listing};
use ntl_protocol::{ModelSource, ToWorker};

const REPO: &str = "unsloth/SmolLM2-135M-Instruct-GGUF";

fn file(name: &str, bytes: u64, cached: bool) -> GgufFile {
    GgufFile {
        name: name.into(),
        bytes,
        cached,
    }
}

fn listing(files: Vec<GgufFile>) -> Listing {
    Listing {
        files,
        split: 0,
        has_safetensors: false,
    }
}

fn smollm() -> Listing {
    listing(vec![
        file("SmolLM2-135M-Instruct-IQ4_XS.gguf", 88_000_000, false),
        file("SmolLM2-135M-Instruct-Q4_K_M.gguf", 105_000_000, false),
        file("SmolLM2-135M-Instruct-Q8_0.gguf", 145_000_000, true),
    ])
}

fn typed(name: &str) -> ModelState {
    let mut m = ModelState::new(None, false);
    m.set_hub_repo(name);
    assert_eq!(m.load_hub(), Some(ToWorker::Measure { repo: name.into() }));
    m
}

fn confirm_name(m: &ModelState) -> String {
    match &m.status {
        ModelStatus::Confirm { repo, .. } => repo.clone(),
        other => panic!("not confirming: {other:?}"),
    }
}

#[test]
fn a_typed_gguf_repo_offers_its_files_with_llama_cpps_choice_taken_first() {
    let mut m = typed(REPO);
    m.measured(REPO, Some(105_000_000), false, None, Some(smollm()));
    let choice = m.gguf_choice().expect("the files are offered");
    assert_eq!(choice.listing.files.len(), 3);
    assert_eq!(
        choice.chosen.as_deref(),
        Some("SmolLM2-135M-Instruct-Q4_K_M.gguf")
    );
    // The link says which file, in llama.cpp's words.
    assert_eq!(confirm_name(&m), format!("{REPO}:Q4_K_M"));
    assert_eq!(m.link_name(), Some(format!("{REPO}:Q4_K_M")));
}

#[test]
fn choosing_another_file_shows_its_size_and_whether_the_browser_has_it() {
    let mut m = typed(REPO);
    m.measured(REPO, Some(105_000_000), false, None, Some(smollm()));
    m.choose_gguf("SmolLM2-135M-Instruct-Q8_0.gguf");
    assert!(matches!(
        m.status,
        ModelStatus::Confirm {
            size: DownloadSize::Known {
                bytes: 145_000_000,
                cached: true
            },
            ..
        }
    ));
    assert_eq!(confirm_name(&m), format!("{REPO}:Q8_0"));
    assert_eq!(
        m.confirm(),
        Some(ToWorker::Load {
            source: ModelSource::Hub {
                repo: REPO.into(),
                gguf: Some("Q8_0".into())
            },
            weights: ntl_protocol::LoadWeights::AsStored,
            heads: None
        })
    );
}

#[test]
fn without_a_q4_k_m_nothing_downloads_until_a_file_is_chosen() {
    let mut m = typed(REPO);
    let files = listing(vec![
        file("m-Q5_K_M.gguf", 120, false),
        file("m-Q8_0.gguf", 145, false),
    ]);
    m.measured(REPO, None, false, None, Some(files));
    assert_eq!(m.gguf_choice().unwrap().chosen, None);
    assert_eq!(m.confirm(), None, "no file chosen");
    m.choose_gguf("no-such.gguf");
    assert_eq!(m.confirm(), None, "a name the repo does not list");
    m.choose_gguf("m-Q5_K_M.gguf");
    assert!(matches!(m.confirm(), Some(ToWorker::Load { .. })));
}

#[test]
fn a_link_naming_a_quant_tag_is_measured_for_that_file() {
    let name = format!("{REPO}:q8_0");
    let mut m = ModelState::new(Some(&name), true);
    assert_eq!(m.reload(), Some(ToWorker::Measure { repo: name.clone() }));
    m.measured(&name, Some(145_000_000), true, None, Some(smollm()));
    let choice = m.gguf_choice().unwrap();
    assert_eq!(
        choice.chosen.as_deref(),
        Some("SmolLM2-135M-Instruct-Q8_0.gguf")
    );
    assert!(matches!(
        m.status,
        ModelStatus::Confirm {
            size: DownloadSize::Known { cached: true, .. },
            ..
        }
    ));
}

#[test]
fn a_link_naming_a_tag_the_repo_lacks_offers_the_files_instead() {
    let name = format!("{REPO}:Q6_K");
    let mut m = ModelState::new(Some(&name), true);
    m.reload();
    m.measured(&name, None, false, None, Some(smollm()));
    assert_eq!(m.gguf_choice().unwrap().chosen, None);
    assert_eq!(m.confirm(), None);
    m.choose_gguf("SmolLM2-135M-Instruct-Q4_K_M.gguf");
    assert_eq!(confirm_name(&m), format!("{REPO}:Q4_K_M"));
}

#[test]
fn a_files_list_for_another_repo_is_stale() {
    let mut m = typed(REPO);
    m.measured("someone/else-GGUF", Some(1), false, None, Some(smollm()));
    assert_eq!(m.gguf_choice(), None);
    assert!(matches!(
        m.status,
        ModelStatus::Confirm {
            size: DownloadSize::Asking,
            ..
        }
    ));
}

#[test]
fn a_gguf_larger_than_wasm_can_hold_is_refused_before_it_downloads() {
    let mut m = typed(REPO);
    let files = listing(vec![
        file("big-Q4_K_M.gguf", 900_000_000, false),
        file("big-F16.gguf", 5_000_000_000, false),
    ]);
    m.measured(REPO, Some(900_000_000), false, None, Some(files));
    m.choose_gguf("big-F16.gguf");
    assert!(m.memory_warning.is_some_and(|w| w.beyond_wasm));
    assert_eq!(m.confirm(), None);
    m.choose_gguf("big-Q4_K_M.gguf");
    assert!(m.memory_warning.is_none_or(|w| !w.beyond_wasm));
    assert!(m.confirm().is_some());
}
