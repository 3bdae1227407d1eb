//! The list of models to pick from, each with what it costs before a byte of
//! it is downloaded: parameters, download size, memory, and whether it is an
//! Instruct model.

use crate::components::help::Help;
use crate::format;
use crate::i18n::I18n;
use crate::state::model_catalog::{CatalogModel, CATALOG};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The repo in use, if a hub model is.
    pub in_use: Option<String>,
    /// Another load may start.
    pub idle: bool,
    pub on_pick: Callback<&'static str>,
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
        <ul class="model-picker" data-testid="model-picker" aria-label={tr.t("catalog-label")}>
            { for CATALOG.iter().map(|m| {
                let in_use = p.in_use.as_deref() == Some(m.repo);
                row(m, in_use, p.idle, &p.on_pick, &tr)
            }) }
        </ul>
    }
}
