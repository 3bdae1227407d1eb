//! A quantized lane's step beside full precision, in a line under its
//! table: the KL divergence of its distribution from a full-precision copy
//! of its model after the same context, and whether their likeliest tokens
//! agree — what fewer bits per weight cost, step by step.

use crate::format::{nats, visible};
use crate::i18n::I18n;
use crate::state::drift::{short_dtype, DriftLine, Measure, Reference};
use yew::prelude::*;

fn percent(p: f64) -> String {
    crate::format::prob(p as f32)
}

/// The reference as the line names it: its name, or "the page's model".
fn reference_name(r: &Reference, tr: &I18n) -> Html {
    match &r.name {
        Some(name) => html! { <code>{ name.clone() }</code> },
        None => html! { { tr.t("drift-page-model") } },
    }
}

pub fn drift_line(line: &DriftLine, tr: &I18n) -> Html {
    let (dtype, reference, measure) = match line {
        DriftLine::NoReference { dtype } => {
            return html! {
                <p class="drift" data-testid="drift" data-state="no-reference">
                    <code>{ short_dtype(dtype).to_string() }</code>{ " " }
                    { tr.t("drift-no-reference") }
                </p>
            };
        }
        DriftLine::Against {
            dtype,
            reference,
            measure,
        } => (dtype, reference, measure),
    };
    let head = html! {
        <>
            <code>{ short_dtype(dtype).to_string() }</code>
            { tr.t("drift-against") }
            { reference_name(reference, tr) }
            { " " }<code>{ short_dtype(&reference.dtype).to_string() }</code>
            { tr.t("drift-colon") }
        </>
    };
    match measure {
        Measure::Asked { .. } => html! {
            <p class="drift" data-testid="drift" data-state="measuring">
                { head }{ tr.t("drift-measuring") }
            </p>
        },
        Measure::Failed(said) => html! {
            <p class="drift error" data-testid="drift" data-state="failed">
                { head }{ tr.said(said) }
            </p>
        },
        Measure::Measured(m) => {
            let d = m.drift;
            let args = [
                ("kl", nats(d.kl).into()),
                ("agree", if d.top_agrees() { "yes" } else { "no" }.into()),
                ("top", visible(&m.top).into()),
                ("p", percent(d.top.prob).into()),
                ("reference_top", visible(&m.reference_top).into()),
                ("reference_p", percent(d.reference_top.prob).into()),
            ];
            html! {
                <p
                    class="drift"
                    data-testid="drift"
                    data-state="measured"
                    data-kl={d.kl.to_string()}
                    data-top-agrees={d.top_agrees().to_string()}
                    data-p={d.top.prob.to_string()}
                    data-reference-p={d.reference_top.prob.to_string()}
                    title={tr.t("drift-title")}
                >
                    { head }{ tr.t_with("drift-measured", &args) }
                </p>
            }
        }
    }
}
