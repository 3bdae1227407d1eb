//! The list of models to pick from, each with what it costs before a byte of
//! it is downloaded: parameters, download size, memory, and whether it is an
//! Instruct model.

use crate::format;
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

const INSTRUCT_HINT: &str = "Tuned to follow a conversation: its generation_config.json samples \
(HF's generate() does too unless told otherwise) and it stops at the end of its turn.";

fn row(
    m: &'static CatalogModel,
    in_use: bool,
    idle: bool,
    on_pick: &Callback<&'static str>,
) -> Html {
    let facts = format!(
        "{} · {:.0} M parameters · {} download ({}) · needs about {} of memory",
        m.architecture,
        m.parameters as f64 / 1e6,
        format::bytes(m.download_bytes),
        m.stored_as.name(),
        format::bytes(m.memory_bytes()),
    );
    let repo = m.repo;
    html! {
        <li class="catalog-model" data-testid="catalog-model" data-repo={repo}>
            <button
                data-testid="pick-model"
                disabled={!idle || in_use}
                aria-label={format!("Load {repo}")}
                onclick={on_pick.reform(move |_: MouseEvent| repo)}
            >
                { if in_use { "In use" } else { "Load" } }
            </button>
            { " " }
            <code>{ repo }</code>
            if m.is_default() {
                <span class="badge">{ "default" }</span>
            }
            if m.instruct {
                <span class="badge" data-testid="instruct" title={INSTRUCT_HINT}>{ "instruct" }</span>
            }
            <span class="facts" data-testid="catalog-facts">{ facts }</span>
        </li>
    }
}

#[function_component(ModelPicker)]
pub fn model_picker(p: &Props) -> Html {
    html! {
        <ul class="model-picker" data-testid="model-picker" aria-label="models to load from the hub">
            { for CATALOG.iter().map(|m| {
                let in_use = p.in_use.as_deref() == Some(m.repo);
                row(m, in_use, p.idle, &p.on_pick)
            }) }
        </ul>
    }
}
