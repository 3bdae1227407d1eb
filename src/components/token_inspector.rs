//! The token inspector: the prompt as chips (token, id; its bytes on
//! hover), and under each chip what the model predicted next there — its top
//! five, and where the token that really followed ranked.

use super::lane_buttons::lane_buttons;
use crate::format::{prob, visible};
use crate::rc_eq::RcEq;
use crate::state::inspector::Inspector;
use crate::state::page_actions::InspectorAction;
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
fn lookup(s: &Inspector, p: &Props) -> Html {
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
            <label for="token-lookup">{ "Text → ids" }</label>
            <input
                id="token-lookup"
                data-testid="token-lookup"
                placeholder=". (a full stop)"
                spellcheck="false"
                value={s.lookup_text.clone()}
                {oninput}
            />
            { result }
            if s.lookup_single().is_some() {
                <span class="use">
                    { "eos_token_id in" }
                    { lane_buttons("lookup-eos", false, &p.on.reform(InspectorAction::UseAsEos)) }
                </span>
            }
            if matches!(&s.lookup, Some(Ok(t)) if !t.is_empty()) {
                <span class="use">
                    { "stop_strings in" }
                    { lane_buttons("lookup-stop", false, &p.on.reform(InspectorAction::StopAt)) }
                </span>
                <span class="use">
                    { "bad_words_ids in" }
                    { lane_buttons("lookup-bad-words", false, &p.on.reform(InspectorAction::BadWords)) }
                </span>
                <span class="use">
                    { "must include (force_words_ids) in" }
                    { lane_buttons("lookup-force-words", false, &p.on.reform(InspectorAction::ForceWords)) }
                </span>
            }
        </div>
    }
}

const INTRO: &str = "A model reads tokens, not letters. Under each token: the model's five \
     likeliest next tokens at that position, and the rank and probability of the token that \
     really came next. Training scores every one of these rows; generation uses only the last.";

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn chip(i: usize, t: &PromptToken, p: Option<&Prediction>) -> Html {
    let title = format!("token {} · id {} · bytes {}", i + 1, t.id, hex(&t.bytes));
    let next = match p.and_then(|p| p.actual) {
        Some(a) => html! {
            <p class="actual" data-rank={a.rank.to_string()}>
                { format!("next: #{} · {}", a.rank, prob(a.prob)) }
            </p>
        },
        None => html! { <p class="actual last">{ "next: generation starts here" }</p> },
    };
    let actual = p.and_then(|p| p.actual).map(|a| a.id);
    html! {
        <li class="prompt-chip" data-testid="prompt-token" data-token-id={t.id.to_string()} {title}>
            <span class="piece">{ visible(&t.token) }</span>
            <span class="id">{ t.id }</span>
            { next }
            if let Some(p) = p {
                <ol class="guesses" aria-label="the model's five likeliest next tokens">
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
    let s = &*p.inspector;
    let count = if s.tokens.is_empty() && s.text.is_none() {
        if p.model_ready {
            "reading the prompt…".to_string()
        } else {
            "the tokens show once a model is loaded".to_string()
        }
    } else {
        let cropped = if s.cropped > 0 {
            format!(
                " ({} more cut from the start: the context is full)",
                s.cropped
            )
        } else {
            String::new()
        };
        format!(
            "{} tokens of {} positions{cropped}",
            s.tokens.len(),
            s.context
        )
    };
    html! {
        <section class="inspector" data-testid="inspector" aria-labelledby="inspector-title">
            <h2 id="inspector-title">
                { "The prompt as the model sees it " }
                <span class="count" data-testid="prompt-token-count">{ count }</span>
            </h2>
            <p class="hint">{ INTRO }</p>
            if let Some(e) = &s.error {
                <p class="error-line">{ e.clone() }</p>
            }
            <ol class="prompt-chips">
                { for s.tokens.iter().enumerate().map(|(i, t)| chip(i, t, s.predictions.get(i))) }
            </ol>
            { lookup(s, p) }
        </section>
    }
}
