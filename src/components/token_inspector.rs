//! The token inspector: the prompt as chips (token, id; its bytes on
//! hover), and under each chip what the model predicted next there — its top
//! five, and where the token that really followed ranked.

use super::lane_buttons::lane_buttons;
use crate::format::{prob, visible};
use crate::i18n::I18n;
use crate::rc_eq::RcEq;
use crate::state::inspector::Inspector;
use crate::state::page_actions::InspectorAction;
use crate::token_bytes;
use ntl_decoding::inspect::{Prediction, PromptToken};
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub inspector: RcEq<Inspector>,
    pub model_ready: bool,
    pub on: Callback<InspectorAction>,
}

/// Text to ids: what a stop word or an eos token really is.
fn lookup(s: &Inspector, p: &Props, tr: &I18n) -> Html {
    let oninput = p.on.reform(|e: InputEvent| {
        InspectorAction::LookUp(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    let result = match &s.lookup {
        None => html! {},
        Some(Err(e)) => html! { <span class="error-line">{ e.to_string() }</span> },
        Some(Ok(tokens)) => html! {
            <span class="lookup-result">
                { "→ " }
                <span data-testid="lookup-ids">
                    { tokens.iter().map(|t| t.id.to_string()).collect::<Vec<_>>().join(" ") }
                </span>
                { format!(
                    " ({})",
                    tokens.iter().map(|t| format!("“{}”", visible(&t.token))).collect::<Vec<_>>().join(" ")
                ) }
            </span>
        },
    };
    html! {
        <div class="lookup">
            <label for="token-lookup">{ tr.t("lookup-label") }</label>
            <input
                id="token-lookup"
                data-testid="token-lookup"
                placeholder={tr.t("lookup-placeholder")}
                spellcheck="false"
                value={s.lookup_text.clone()}
                {oninput}
            />
            { result }
            if s.lookup_single().is_some() {
                <span class="use">
                    { tr.t_with("use-in", &[("knob", "eos_token_id".into())]) }
                    { lane_buttons("lookup-eos", false, &p.on.reform(InspectorAction::UseAsEos), tr) }
                </span>
            }
            if matches!(&s.lookup, Some(Ok(t)) if !t.is_empty()) {
                <span class="use">
                    { tr.t_with("use-in", &[("knob", "stop_strings".into())]) }
                    { lane_buttons("lookup-stop", false, &p.on.reform(InspectorAction::StopAt), tr) }
                </span>
                <span class="use">
                    { tr.t_with("use-in", &[("knob", "bad_words_ids".into())]) }
                    { lane_buttons("lookup-bad-words", false, &p.on.reform(InspectorAction::BadWords), tr) }
                </span>
                <span class="use">
                    { tr.t("use-in-force-words") }
                    { lane_buttons("lookup-force-words", false, &p.on.reform(InspectorAction::ForceWords), tr) }
                </span>
            }
        </div>
    }
}

/// A prompt token's chip; `split` names the character it holds part of.
fn chip(
    i: usize,
    t: &PromptToken,
    p: Option<&Prediction>,
    split: Option<&token_bytes::Split>,
    tr: &I18n,
) -> Html {
    let mut title = tr.t_with(
        "prompt-chip-title",
        &[
            ("n", (i + 1).into()),
            ("id", t.id.into()),
            ("bytes", token_bytes::hex(&t.bytes).into()),
        ],
    );
    if let Some(s) = split {
        let whole = s.character.map(String::from).unwrap_or_else(|| "?".into());
        title += &tr.t_with(
            "prompt-chip-part-of",
            &[
                ("char", whole.into()),
                ("bytes", token_bytes::hex(&s.bytes).into()),
            ],
        );
    }
    let next = match p.and_then(|p| p.actual) {
        Some(a) => html! {
            <p class="actual" data-rank={a.rank.to_string()}>
                { tr.t_with("prompt-next", &[("rank", a.rank.into()), ("p", prob(a.prob).into())]) }
            </p>
        },
        None => html! { <p class="actual last">{ tr.t("prompt-next-last") }</p> },
    };
    let actual = p.and_then(|p| p.actual).map(|a| a.id);
    html! {
        <li class="prompt-chip" data-testid="prompt-token" data-token-id={t.id.to_string()} {title}>
            <span class="piece">{ visible(&t.token) }</span>
            <span class="id">{ t.id }</span>
            { next }
            if let Some(p) = p {
                <ol class="guesses" aria-label={tr.t("guesses-label")}>
                    { for p.top.iter().map(|g| html! {
                        <li
                            class={classes!((Some(g.id) == actual).then_some("hit"))}
                            data-token-id={g.id.to_string()}
                            data-prob={g.prob.to_string()}
                        >
                            <span class="tok">{ visible(&g.token) }</span>
                            <span class="p">{ prob(g.prob) }</span>
                        </li>
                    }) }
                </ol>
            }
        </li>
    }
}

#[function_component(TokenInspector)]
pub fn token_inspector(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let s = &*p.inspector;
    let count = if s.tokens.is_empty() && s.text.is_none() {
        tr.t(if p.model_ready {
            "prompt-reading"
        } else {
            "prompt-no-model"
        })
    } else {
        let cropped = if s.cropped > 0 {
            tr.t_with("prompt-cut", &[("cut", s.cropped.into())])
        } else {
            String::new()
        };
        // Characters per token: why one sentence costs GPT-2 several times
        // more tokens in Chinese than a vocabulary built for it.
        let chars = s.text.as_deref().map_or(0, |t| t.chars().count());
        let per = if s.tokens.is_empty() {
            String::new()
        } else {
            tr.t_with(
                "prompt-chars-per-token",
                &[
                    ("chars", chars.into()),
                    (
                        "per",
                        format!("{:.2}", chars as f64 / s.tokens.len() as f64).into(),
                    ),
                ],
            )
        };
        tr.t_with(
            "prompt-token-count",
            &[
                ("tokens", s.tokens.len().into()),
                ("positions", s.context.into()),
            ],
        ) + &per
            + &cropped
    };
    let splits = token_bytes::splits(s.tokens.iter().map(|t| t.token.as_str()));
    html! {
        <section class="inspector" data-testid="inspector" aria-labelledby="inspector-title">
            <h2 id="inspector-title">
                { tr.t("inspector-title") }
                <span class="count" data-testid="prompt-token-count">{ count }</span>
            </h2>
            <p class="hint">{ tr.t("inspector-intro") }</p>
            if let Some(e) = &s.error {
                <p class="error-line">{ e.clone() }</p>
            }
            <ol class="prompt-chips">
                { for s.tokens.iter().enumerate().map(|(i, t)| {
                    chip(i, t, s.predictions.get(i), splits.get(i).and_then(|x| x.as_deref()), &tr)
                }) }
            </ol>
            { lookup(s, p, &tr) }
        </section>
    }
}
