//! "Cached models": what the browser keeps for the next visit, how large,
//! and a button to forget each (a class laptop fills up).

use crate::format;
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
        Listing::NotLooked | Listing::Looking => html! { <p>{ "Looking…" }</p> },
        Listing::Found(None, _) => html! {
            <p>{ "This page cannot keep models here (the browser offers no storage to it), so each visit downloads again." }</p>
        },
        Listing::Found(Some(models), estimate) => {
            let rows = models.iter().map(|m| {
                let in_use = p.in_use.as_deref() == Some(m.name.as_str());
                html! {
                    <li data-testid="cached-model" data-name={m.name.clone()} data-bytes={m.bytes.to_string()}>
                        <span class="name">{ m.name.clone() }</span>
                        { format!(" · {} in {} files", format::bytes(m.bytes), m.files) }
                        if in_use { <span class="hint">{ " · in use (it stays loaded until you switch)" }</span> }
                        { " " }
                        <button
                            data-testid="forget-model"
                            aria-label={format!("Forget {}", m.name)}
                            onclick={forget(m.base.clone())}
                        >
                            { "Forget" }
                        </button>
                    </li>
                }
            });
            html! {
                <>
                    if models.is_empty() {
                        <p data-testid="no-cached-models">{ "No models are kept in this browser." }</p>
                    } else {
                        <ul class="cached-list">{ for rows }</ul>
                    }
                    if let Some((used, quota)) = estimate {
                        <p class="hint">{ format!("This site uses {} of the {} the browser allows it.", format::bytes(*used), format::bytes(*quota)) }</p>
                    }
                </>
            }
        }
    };
    html! {
        <details class="cached-models" data-testid="cached-models" ontoggle={on_toggle}>
            <summary>{ "Cached models" }</summary>
            { body }
        </details>
    }
}
