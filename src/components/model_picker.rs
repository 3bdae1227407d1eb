//! The list of models to pick from, each with what it costs before a byte of
//! it is downloaded: parameters, download size, memory, and whether it is an
//! Instruct model.

use crate::components::help::Help;
use crate::format;
use crate::i18n::I18n;
use crate::state::memory_need::MemoryNeed;
use crate::state::model::WASM32_BYTES;
use crate::state::model_catalog::{CatalogModel, CATALOG};
use ntl_protocol::site_models::SiteModel;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The repo or folder in use, if a hub model or a folder is.
    pub in_use: Option<String>,
    /// Another load may start.
    pub idle: bool,
    pub on_pick: Callback<&'static str>,
    /// The folders the site's `models/index.json` lists.
    pub site_models: Rc<Vec<SiteModel>>,
    pub on_pick_folder: Callback<String>,
}

/// A folder the site hosts: its path, what it is, what it costs.
fn hosted_row(
    m: &SiteModel,
    in_use: bool,
    idle: bool,
    on_pick: &Callback<String>,
    tr: &I18n,
) -> Html {
    let path = m.path();
    let need = m.bytes.map(|b| MemoryNeed::estimate(b, None));
    let too_large = need.is_some_and(|n| n.in_wasm() > WASM32_BYTES);
    let facts = match (m.bytes, need) {
        (Some(bytes), Some(need)) => tr.t_with(
            "hosted-facts",
            &[
                (
                    "architecture",
                    m.architecture.clone().unwrap_or_else(|| "?".into()).into(),
                ),
                ("download", format::bytes(bytes).into()),
                ("memory", format::bytes(need.in_wasm()).into()),
            ],
        ),
        _ => tr.t("hosted-facts-unknown"),
    };
    let pick = {
        let path = path.clone();
        on_pick.reform(move |_: MouseEvent| path.clone())
    };
    html! {
        <li class="catalog-model" data-testid="site-model" data-folder={path.clone()}>
            <button
                data-testid="pick-site-model"
                disabled={!idle || in_use || too_large}
                aria-label={tr.t_with("hosted-load-label", &[("path", path.clone().into())])}
                onclick={pick}
            >
                { tr.t(if in_use { "catalog-in-use" } else { "catalog-load" }) }
            </button>
            { " " }
            <code>{ path }</code>
            { " " }
            <span class="facts" data-testid="site-model-facts">{ facts }</span>
            if too_large {
                <span class="badge">{ tr.t("hosted-too-large") }</span>
            }
            if let Some(note) = &m.note {
                <span class="facts">{ format!(" — {note}") }</span>
            }
        </li>
    }
}

fn row(
    m: &'static CatalogModel,
    in_use: bool,
    idle: bool,
    on_pick: &Callback<&'static str>,
    tr: &I18n,
) -> Html {
    let facts = tr.t_with(
        "catalog-facts",
        &[
            ("architecture", m.architecture.into()),
            ("params", format!("{:.0}", m.parameters as f64 / 1e6).into()),
            ("download", format::bytes(m.download_bytes).into()),
            ("dtype", m.stored_as.name().into()),
            ("memory", format::bytes(m.memory_bytes()).into()),
        ],
    );
    let repo = m.repo;
    html! {
        <li class="catalog-model" data-testid="catalog-model" data-repo={repo}>
            <button
                data-testid="pick-model"
                disabled={!idle || in_use}
                aria-label={tr.t_with("catalog-load-label", &[("repo", repo.into())])}
                onclick={on_pick.reform(move |_: MouseEvent| repo)}
            >
                { tr.t(if in_use { "catalog-in-use" } else { "catalog-load" }) }
            </button>
            { " " }
            <code>{ repo }</code>
            if m.is_default() {
                <span class="badge">{ tr.t("catalog-default") }</span>
            }
            if m.instruct {
                <span class="badge" data-testid="instruct" title={tr.t("instruct-hint")}>{ tr.t("catalog-instruct") }</span>
                <Help text={tr.t("instruct-hint")} about={tr.t("catalog-instruct")} id={format!("help-instruct-{repo}")} />
            }
            <span class="facts" data-testid="catalog-facts">{ facts }</span>
        </li>
    }
}

#[function_component(ModelPicker)]
pub fn model_picker(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    html! {
        <>
            <ul class="model-picker" data-testid="model-picker" aria-label={tr.t("catalog-label")}>
                { for CATALOG.iter().map(|m| {
                    let in_use = p.in_use.as_deref() == Some(m.repo);
                    row(m, in_use, p.idle, &p.on_pick, &tr)
                }) }
            </ul>
            if !p.site_models.is_empty() {
                <ul class="model-picker" data-testid="site-models" aria-label={tr.t("hosted-models")}>
                    <li><strong>{ tr.t("hosted-models") }</strong></li>
                    { for p.site_models.iter().map(|m| {
                        let in_use = p.in_use.as_deref() == Some(m.path().as_str());
                        hosted_row(m, in_use, p.idle, &p.on_pick_folder, &tr)
                    }) }
                </ul>
            }
        </>
    }
}
