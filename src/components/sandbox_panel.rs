//! The what-if sandbox on the page: typed logits, a box per knob, and the
//! distribution after them — table, funnel, entropy — redrawn on every key.

use super::distribution::{bars, funnel, table_head};
use super::help::knob_head;
use super::lane_buttons::lane_buttons;
use crate::format::{num, prob, visible};
use crate::i18n::I18n;
use crate::rc_eq::RcEq;
use crate::state::page_actions::SandboxAction;
use crate::state::sandbox::{Sandbox, Source};
use crate::theme::lane_color;
use ntl_decoding::sandbox::knobs;
use ntl_decoding::Step;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub sandbox: RcEq<Sandbox>,
    pub on: Callback<SandboxAction>,
}

fn input_text(e: InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// `marked`: a lane's pick to mark (typed logits have none; the summary
/// names the likeliest token instead).
fn table(step: &Step, marked: bool, tr: &I18n) -> Html {
    let scale = step
        .top
        .iter()
        .map(|c| c.raw_prob.max(c.prob))
        .fold(f32::MIN_POSITIVE, f32::max);
    html! {
        <table class="sandbox-table">
            <caption class="sr-only">
                { tr.t("sandbox-caption") }
            </caption>
            { table_head(html! { <th scope="col">{ tr.t("col-removed-by") }</th> }, tr) }
            <tbody>
                { for step.top.iter().map(|c| {
                    let removed = c.removed_by.map(|s| s.name());
                    let picked = marked && c.id == step.token_id;
                    let class = classes!(
                        picked.then_some("chosen"),
                        removed.is_some().then_some("removed")
                    );
                    html! {
                        <tr
                            key={c.id}
                            {class}
                            data-testid="sandbox-row"
                            data-token-id={c.id.to_string()}
                            data-prob={c.prob.to_string()}
                        >
                            <th scope="row" class="token">
                                <span>{ visible(&c.token) }</span>
                                if picked { <span class="sr-only">{ tr.t("lanes-pick-sr") }</span> }
                            </th>
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

fn summary(step: &Step, total: usize, marked: bool, tr: &I18n) -> Html {
    let what = tr.t(if marked {
        "sandbox-lanes-pick"
    } else {
        "sandbox-likeliest"
    });
    let likeliest = step
        .top
        .iter()
        .find(|c| c.id == step.token_id)
        .map(|c| {
            tr.t_with(
                "sandbox-pick",
                &[
                    ("what", what.into()),
                    ("token", visible(&c.token).into()),
                    ("p", prob(c.prob).into()),
                ],
            )
        })
        .unwrap_or_default();
    html! {
        <p class="sandbox-summary" data-testid="sandbox-summary" data-kept={step.kept.to_string()}>
            <strong>{ tr.t_with("sandbox-kept", &[("kept", step.kept.into()), ("total", total.into())]) }</strong>
            { tr.t_with("sandbox-entropy", &[
                ("e0", format!("{:.3}", step.raw_entropy).into()),
                ("e1", format!("{:.3}", step.entropy).into()),
            ]) }
            { likeliest }
        </p>
    }
}

/// Which step the sandbox holds, and how to leave it.
fn step_source(s: &Sandbox, p: &Props, tr: &I18n) -> Html {
    let Source::Step(src) = &s.source else {
        return html! {};
    };
    let state = match (s.pending, s.last_ms) {
        (Some(_), _) => tr.t("sandbox-computing"),
        (None, Some(ms)) => tr.t_with("sandbox-answered", &[("ms", format!("{ms:.0}").into())]),
        (None, None) => String::new(),
    };
    html! {
        <div
            class="sandbox-source"
            data-testid="sandbox-source"
            data-lane={src.lane.to_string()}
            data-step={src.step.to_string()}
        >
            <p>
                <strong style={format!("color: {}", lane_color(src.lane))}>
                    { tr.t_with("sandbox-lane-step", &[("lane", (src.lane + 1).into()), ("step", (src.step + 1).into())]) }
                </strong>
                { tr.t_with(
                    if src.beam { "sandbox-from-beam" } else { "sandbox-from-lane" },
                    &[("tokens", src.step.into()), ("context", src.ids.len().into())],
                ) }
                <span class="hint" aria-live="polite">{ state }</span>
            </p>
            if src.guided {
                <p class="notice" data-testid="sandbox-guided">
                    { tr.t("sandbox-guided") }
                </p>
            }
            if src.llama {
                <p class="notice" data-testid="sandbox-llama">
                    { tr.t("sandbox-llama") }
                </p>
            }
            if src.dola {
                <p class="notice" data-testid="sandbox-dola">
                    { tr.t("sandbox-dola") }
                </p>
            }
            <button onclick={p.on.reform(|_: MouseEvent| SandboxAction::Toy)}>
                { tr.t("sandbox-back") }
            </button>
        </div>
    }
}

#[function_component(SandboxPanel)]
pub fn sandbox_panel(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let s = &*p.sandbox;
    let node = use_node_ref();
    // Opening a step brings the sandbox into view.
    {
        let node = node.clone();
        let at = match &s.source {
            Source::Step(src) => Some((src.lane, src.step, src.ids.len())),
            Source::Toy => None,
        };
        use_effect_with(at, move |at| {
            if let (Some(_), Some(el)) = (at, node.cast::<web_sys::Element>()) {
                el.scroll_into_view();
            }
        });
    }
    let marked = matches!(s.source, Source::Step(_));
    let on_logits =
        p.on.reform(|e: InputEvent| SandboxAction::Logits(input_text(e)));
    let error_knob = s.error.as_ref().map(|e| e.knob);
    html! {
        <section class="sandbox" data-testid="sandbox" aria-labelledby="sandbox-title" ref={node}>
            <h2 id="sandbox-title">{ tr.t("sandbox-title") }</h2>
            <p class="hint">{ tr.t("sandbox-intro") }</p>
            { step_source(s, p, &tr) }
            <div class="sandbox-inputs">
                <label class={classes!("toy", (error_knob == Some(None)).then_some("bad"))}>
                    <span>{ tr.t("sandbox-logits") }</span>
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
                    let (help, id) = (tr.hf_knob_title(knob), format!("sandbox-{}", knob.name()));
                    html! {
                        <div class={classes!("knob", bad.then_some("bad"))} title={help.clone()}>
                            { knob_head(&id, knob.name(), help) }
                            <input
                                {id}
                                data-testid={format!("sandbox-{}", knob.name().replace('_', "-"))}
                                inputmode="decimal"
                                placeholder={tr.t("off")}
                                value={text.clone()}
                                aria-invalid={bad.then_some("true")}
                                {oninput}
                            />
                        </div>
                    }
                }) }
            </div>
            <p class="hint" data-testid="sandbox-order">
                { tr.t_with("sandbox-order", &[(
                    "order",
                    knobs().map(|k| k.name()).collect::<Vec<_>>().join(" → ").into(),
                )]) }
            </p>
            <p class="sandbox-error" data-testid="sandbox-error" aria-live="polite">
                { s.error.as_ref().map(|e| tr.said(&e.message)).unwrap_or_default() }
            </p>
            if let Some(step) = &s.shown {
                { summary(step, s.vocab, marked, &tr) }
                { funnel(step, &tr) }
                { table(step, marked, &tr) }
            }
            <div class="sandbox-use">
                <span>{ tr.t("sandbox-use") }</span>
                { lane_buttons("sandbox-use", s.error.is_some(), &p.on.reform(SandboxAction::UseInLane), &tr) }
            </div>
        </section>
    }
}
