//! The what-if sandbox on the page: typed logits, a box per knob, and the
//! distribution after them — table, funnel, entropy — redrawn on every key.

use super::distribution::{bars, funnel};
use crate::format::{num, prob};
use crate::rc_eq::RcEq;
use crate::state::sandbox::Sandbox;
use crate::state::LANES;
use crate::theme::lane_color;
use ntl_decoding::{Knob, Step};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the sandbox asks the page to do.
pub enum SandboxAction {
    Logits(String),
    Knob(Knob, String),
    /// Copy the knobs into this lane.
    UseInLane(usize),
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub sandbox: RcEq<Sandbox>,
    pub on: Callback<SandboxAction>,
}

const INTRO: &str = "Type a distribution's logits — the lesson's five to start — and move a knob: \
     the table, the funnel and the entropy follow as you type, computed by the lanes' own code \
     in HF's order. An empty box is off (top_k too, though HF samples with 50 unless told).";

fn input_text(e: InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// What each box means, for its hover text.
fn knob_hint(knob: Knob) -> &'static str {
    match knob {
        Knob::Temperature => "divides every logit: below 1 sharpens, above 1 flattens",
        Knob::TopK => "keeps the k likeliest tokens",
        Knob::TopP => "keeps the fewest likeliest tokens whose mass reaches p",
        Knob::MinP => "keeps tokens at least min_p × the top probability",
        Knob::TypicalP => "keeps the tokens closest to the entropy until their mass reaches p",
        Knob::EpsilonCutoff => "removes tokens below this probability",
        Knob::EtaCutoff => "removes tokens below an entropy-scaled threshold",
        _ => "",
    }
}

fn table(step: &Step) -> Html {
    let scale = step
        .top
        .iter()
        .map(|c| c.raw_prob.max(c.prob))
        .fold(f32::MIN_POSITIVE, f32::max);
    html! {
        <table class="sandbox-table">
            <caption class="sr-only">
                { "Each token's probability before and after the knobs, highest after the knobs first." }
            </caption>
            <thead>
                <tr>
                    <th scope="col">{ "token" }</th>
                    <th scope="col">{ "logit" }</th>
                    <th scope="col">{ "p model → after knobs" }</th>
                    <th scope="col">{ "removed by" }</th>
                </tr>
            </thead>
            <tbody>
                { for step.top.iter().map(|c| {
                    let removed = c.removed_by.map(|s| s.name());
                    // Typed logits have no lane's pick to mark; the summary
                    // names the likeliest token instead.
                    let class = classes!(removed.is_some().then_some("removed"));
                    html! {
                        <tr
                            key={c.id}
                            {class}
                            data-testid="sandbox-row"
                            data-token-id={c.id.to_string()}
                            data-prob={c.prob.to_string()}
                        >
                            <th scope="row" class="token"><span>{ c.token.clone() }</span></th>
                            <td class="logit">{ num(c.logit) }</td>
                            <td>{ bars(c.raw_prob, c.prob, scale) }</td>
                            <td class="cut-by">{ removed.unwrap_or("") }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

fn summary(step: &Step, total: usize) -> Html {
    let likeliest = step
        .top
        .iter()
        .find(|c| c.id == step.token_id)
        .map(|c| {
            format!(
                " · likeliest after the knobs: “{}” at {}",
                c.token,
                prob(c.prob)
            )
        })
        .unwrap_or_default();
    html! {
        <p class="sandbox-summary" data-testid="sandbox-summary" data-kept={step.kept.to_string()}>
            <strong>{ format!("{} of {total} tokens kept", step.kept) }</strong>
            { format!(" · entropy {:.3} → {:.3} nats{likeliest}", step.raw_entropy, step.entropy) }
        </p>
    }
}

#[function_component(SandboxPanel)]
pub fn sandbox_panel(p: &Props) -> Html {
    let s = &*p.sandbox;
    let on_logits =
        p.on.reform(|e: InputEvent| SandboxAction::Logits(input_text(e)));
    let error_knob = s.error.as_ref().map(|e| e.knob);
    html! {
        <section class="sandbox" data-testid="sandbox" aria-labelledby="sandbox-title">
            <h2 id="sandbox-title">{ "What if? One distribution, your knobs" }</h2>
            <p class="hint">{ INTRO }</p>
            <div class="sandbox-inputs">
                <label class={classes!("toy", (error_knob == Some(None)).then_some("bad"))}>
                    <span>{ "logits (tokens a, b, c, …)" }</span>
                    <input
                        data-testid="toy-logits"
                        value={s.logits_text.clone()}
                        spellcheck="false"
                        oninput={on_logits}
                    />
                </label>
                { for s.knobs().map(|(knob, text)| {
                    let knob = *knob;
                    let oninput = p.on.reform(move |e: InputEvent| SandboxAction::Knob(knob, input_text(e)));
                    let bad = error_knob == Some(Some(knob));
                    html! {
                        <label class={classes!("knob", bad.then_some("bad"))} title={knob_hint(knob)}>
                            <span>{ knob.name() }</span>
                            <input
                                data-testid={format!("sandbox-{}", knob.name().replace('_', "-"))}
                                inputmode="decimal"
                                placeholder="off"
                                value={text.clone()}
                                aria-invalid={bad.then_some("true")}
                                {oninput}
                            />
                        </label>
                    }
                }) }
            </div>
            <p class="sandbox-error" data-testid="sandbox-error" aria-live="polite">
                { s.error.as_ref().map(|e| e.message.clone()).unwrap_or_default() }
            </p>
            if let Some(step) = &s.shown {
                { summary(step, s.logits.len()) }
                { funnel(step) }
                { table(step) }
            }
            <div class="sandbox-use">
                <span>{ "Use these knobs in" }</span>
                { for (0..LANES).map(|lane| html! {
                    <button
                        data-testid="sandbox-use"
                        data-lane={lane.to_string()}
                        disabled={s.error.is_some()}
                        style={format!("color: {}", lane_color(lane))}
                        onclick={p.on.reform(move |_: MouseEvent| SandboxAction::UseInLane(lane))}
                    >
                        { format!("lane {}", lane + 1) }
                    </button>
                }) }
            </div>
        </section>
    }
}
