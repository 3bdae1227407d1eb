use super::tests::{info, ready_page};
use super::*;
use crate::page_error::PageError;
use ntl_protocol::{ModelSource, ToWorker};

const INDEX: &[u8] = br#"{"models": [
    {"folder": "class-gpt2", "architecture": "GPT2LMHeadModel", "bytes": 14523016},
    {"folder": "huge-gpt2", "bytes": 4500000000}
]}"#;

#[test]
fn change_model_asks_for_the_sites_folders_once_and_lists_them() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    assert_eq!(
        page.model_choices_opened().commands,
        [Command::FetchSiteModels]
    );
    assert_eq!(page.model_choices_opened(), Outcome::unchanged(), "once");
    assert!(page.site_models_arrived(Ok(INDEX.to_vec())).redraw);
    let paths: Vec<String> = page.model.site_models.iter().map(|m| m.path()).collect();
    assert_eq!(paths, ["models/class-gpt2/", "models/huge-gpt2/"]);
    assert_eq!(page.model.site_models_error, None);
}

#[test]
fn a_site_without_an_index_lists_nothing_and_says_nothing() {
    let mut page = ready_page(Requested::default());
    let out = page.site_models_arrived(Err(PageError::FetchStatus {
        url: "models/index.json".into(),
        status: 404,
        text: "Not Found".into(),
    }));
    assert_eq!(out, Outcome::unchanged());
    assert!(page.model.site_models.is_empty());
    assert_eq!(page.model.site_models_error, None);
}

#[test]
fn an_index_naming_a_folder_elsewhere_lists_nothing_and_says_which_entry() {
    let mut page = ready_page(Requested::default());
    let _ = page.site_models_arrived(Ok(br#"{"models": [{"folder": "../../secret"}]}"#.to_vec()));
    assert!(page.model.site_models.is_empty());
    assert!(matches!(
        &page.model.site_models_error,
        Some(Said::SiteModels(ntl_protocol::site_models::SiteModelsError::Folder(f))) if f == "../../secret"
    ));
}

#[test]
fn a_listed_folder_loads_at_once_and_one_past_wasm32_is_refused_keeping_the_model() {
    let mut page = ready_page(Requested::default());
    let _ = page.on_worker(info(), 0.0);
    let _ = page.site_models_arrived(Ok(INDEX.to_vec()));
    let out = page.pick_folder("models/huge-gpt2/");
    assert!(!out.commands.iter().any(|c| matches!(c, Command::Send(_))));
    assert!(page.model.memory_warning.is_some_and(|w| w.beyond_wasm));
    assert!(page.model.is_ready(), "the model in use stays");
    let out = page.pick_folder("models/class-gpt2/");
    assert!(out.commands.contains(&Command::Send(ToWorker::Load {
        source: ModelSource::Folder {
            path: "models/class-gpt2/".into()
        },
        weights: ntl_protocol::LoadWeights::AsStored,
        heads: None
    })));
    assert_eq!(page.model.memory_warning, None);
    assert_eq!(
        page.model.link_name().as_deref(),
        Some("models/class-gpt2/")
    );
}
