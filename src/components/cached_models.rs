//! "Cached models": what the browser keeps for the next visit, how large,
//! and a button to forget each (a class laptop fills up).

use crate::format;
use crate::i18n::I18n;
use crate::model_cache::{self, CachedModel};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The model in use, by the name the list gives it (it keeps running from
    /// memory if forgotten).
    pub in_use: Option<String>,
}

#[derive(Clone, PartialEq)]
enum Listing {
    NotLooked,
    Looking,
    /// `None`: this browser keeps nothing here (no Cache API).
    Found(Option<Vec<CachedModel>>, Option<(u64, u64)>),
}

fn refresh(listing: UseStateHandle<Listing>) {
    listing.set(Listing::Looking);
    wasm_bindgen_futures::spawn_local(async move {
        let models = model_cache::list().await;
        let estimate = model_cache::estimate().await;
        listing.set(Listing::Found(models, estimate));
    });
}

#[function_component(CachedModels)]
pub fn cached_models(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let listing = use_state(|| Listing::NotLooked);
    let on_toggle = {
        let listing = listing.clone();
        Callback::from(move |e: Event| {
            let open = e
                .target_dyn_into::<web_sys::HtmlDetailsElement>()
                .is_some_and(|d| d.open());
            if open {
                refresh(listing.clone());
            }
        })
    };
    let forget = |base: String| {
        let listing = listing.clone();
        Callback::from(move |_: MouseEvent| {
            let (listing, base) = (listing.clone(), base.clone());
            wasm_bindgen_futures::spawn_local(async move {
                model_cache::forget(&base).await;
                refresh(listing);
            });
        })
    };
    let body = match &*listing {
        Listing::NotLooked | Listing::Looking => html! { <p>{ tr.t("cache-looking") }</p> },
        Listing::Found(None, _) => html! {
            <p>{ tr.t("cache-none") }</p>
        },
        Listing::Found(Some(models), estimate) => {
            let rows = models.iter().map(|m| {
                let in_use = p.in_use.as_deref() == Some(m.name.as_str());
                html! {
                    <li data-testid="cached-model" data-name={m.name.clone()} data-bytes={m.bytes.to_string()}>
                        <span class="name">{ m.name.clone() }</span>
                        { tr.t_with("cache-size", &[("size", format::bytes(m.bytes).into()), ("files", m.files.into())]) }
                        if in_use { <span class="hint">{ tr.t("cache-in-use") }</span> }
                        { " " }
                        <button
                            data-testid="forget-model"
                            aria-label={tr.t_with("cache-forget-label", &[("name", m.name.clone().into())])}
                            onclick={forget(m.base.clone())}
                        >
                            { tr.t("cache-forget") }
                        </button>
                    </li>
                }
            });
            html! {
                <>
                    if models.is_empty() {
                        <p data-testid="no-cached-models">{ tr.t("cache-empty") }</p>
                    } else {
                        <ul class="cached-list">{ for rows }</ul>
                    }
                    if let Some((used, quota)) = estimate {
                        <p class="hint">{ tr.t_with("cache-quota", &[("used", format::bytes(*used).into()), ("quota", format::bytes(*quota).into())]) }</p>
                    }
                </>
            }
        }
    };
    html! {
        <details class="cached-models" data-testid="cached-models" ontoggle={on_toggle}>
            <summary>{ tr.t("cache-title") }</summary>
            { body }
        </details>
    }
}
