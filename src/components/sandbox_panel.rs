//! The what-if sandbox on the page: typed logits, a box per knob, and the
//! distribution after them — table, funnel, entropy — redrawn on every key.

use super::distribution::{bars, funnel, table_head};
use super::lane_buttons::lane_buttons;
use crate::format::{num, prob, visible};
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

const INTRO: &str = "Type a distribution's logits — the lesson's five to start — or open a step \
     of a run with “What if?” under its table, and move a knob: the table, the funnel and the \
     entropy follow as you type, computed by the lanes' own code in HF's order. An empty box is \
     off (top_k too, though HF samples with 50 unless told).";

fn input_text(e: InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// `marked`: a lane's pick to mark (typed logits have none; the summary
/// names the likeliest token instead).
fn table(step: &Step, marked: bool) -> Html {
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
            { table_head(html! { <th scope="col">{ "removed by" }</th> }) }
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
                                if picked { <span class="sr-only">{ " (the lane's pick)" }</span> }
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

fn summary(step: &Step, total: usize, marked: bool) -> Html {
    let what = if marked {
        "the lane's pick"
    } else {
        "likeliest after the knobs"
    };
    let likeliest = step
        .top
        .iter()
        .find(|c| c.id == step.token_id)
        .map(|c| format!(" · {what}: “{}” at {}", visible(&c.token), prob(c.prob)))
        .unwrap_or_default();
    html! {
        <p class="sandbox-summary" data-testid="sandbox-summary" data-kept={step.kept.to_string()}>
            <strong>{ format!("{} of {total} tokens kept", step.kept) }</strong>
            { format!(" · entropy {:.3} → {:.3} nats{likeliest}", step.raw_entropy, step.entropy) }
        </p>
    }
}

/// Which step the sandbox holds, and how to leave it.
fn step_source(s: &Sandbox, p: &Props) -> Html {
    let Source::Step(src) = &s.source else {
        return html! {};
    };
    let state = match (s.pending, s.last_ms) {
        (Some(_), _) => "computing…".to_string(),
        (None, Some(ms)) => format!("answered in {ms:.0} ms"),
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
                    { format!("Lane {} · step {}", src.lane + 1, src.step + 1) }
                </strong>
                if src.beam {
                    { format!(
                        ": beam search's row at this step — the model's whole next-token \
                         distribution after the prompt and the {} tokens of the beam that the \
                         best continuation extends ({} tokens of context), starting from the \
                         lane's own knobs; the best continuation is marked ◀. As in HF's beam \
                         search the knobs act on log-probabilities (a repetition penalty \
                         multiplies every one of them), and each warper leaves at least one \
                         token more than the lane has end-of-text ids, as sampling beams do, so \
                         that a beam can go on past an end of text. ",
                        src.step,
                        src.ids.len()
                    ) }
                } else {
                    { format!(
                        ": the model's whole next-token distribution after the prompt and the \
                         lane's first {} tokens ({} tokens of context), starting from the lane's \
                         own knobs; the lane's pick is marked ◀. ",
                        src.step,
                        src.ids.len()
                    ) }
                }
                <span class="hint" aria-live="polite">{ state }</span>
            </p>
            if src.guided {
                <p class="notice" data-testid="sandbox-guided">
                    { "This lane used guidance_scale, which needs a second, unconditional pass the \
                       sandbox does not run: the table here is the model's own row before guidance, \
                       so it differs from the lane's." }
                </p>
            }
            if src.llama {
                <p class="notice" data-testid="sandbox-llama">
                    { "This lane ran llama.cpp's sampler chain. The sandbox starts from its \
                       temperature, top_k, top_p, min_p and typical_p but applies them as HF does, \
                       temperature first and without llama.cpp's penalties, so its table can \
                       differ from the lane's." }
                </p>
            }
            if src.dola {
                <p class="notice" data-testid="sandbox-dola">
                    { "This lane used DoLa, which contrasts the final layer with an earlier one the \
                       sandbox does not read: the table here is the final layer's own row, before \
                       the contrast, so it differs from the lane's." }
                </p>
            }
            <button onclick={p.on.reform(|_: MouseEvent| SandboxAction::Toy)}>
                { "Back to typed logits" }
            </button>
        </div>
    }
}

#[function_component(SandboxPanel)]
pub fn sandbox_panel(p: &Props) -> Html {
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
            <h2 id="sandbox-title">{ "What if? One distribution, your knobs" }</h2>
            <p class="hint">{ INTRO }</p>
            { step_source(s, p) }
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
                        <label class={classes!("knob", bad.then_some("bad"))} title={knob.explain()}>
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
            <p class="hint" data-testid="sandbox-order">
                { format!(
                    "Order: HF applies these in one fixed order — {} — and offers no way to change it; \
                     llama.cpp's sampler chain can be reordered (its `samplers` list).",
                    knobs().map(|k| k.name()).collect::<Vec<_>>().join(" → ")
                ) }
            </p>
            <p class="sandbox-error" data-testid="sandbox-error" aria-live="polite">
                { s.error.as_ref().map(|e| e.message.clone()).unwrap_or_default() }
            </p>
            if let Some(step) = &s.shown {
                { summary(step, s.vocab, marked) }
                { funnel(step) }
                { table(step, marked) }
            }
            <div class="sandbox-use">
                <span>{ "Use these knobs in" }</span>
                { lane_buttons("sandbox-use", s.error.is_some(), &p.on.reform(SandboxAction::UseInLane)) }
            </div>
        </section>
    }
}
