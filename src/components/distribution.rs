//! How one distribution is drawn wherever it appears (the compare view, the
//! sandbox): a token's two bars, before and after the knobs, and the funnel
//! of what each knob kept.

use crate::format::prob;
use crate::i18n::I18n;
use ntl_decoding::Step;
use yew::prelude::*;

/// Two bars, the probability before and after the knobs, scaled to the
/// column's largest probability, with their numbers.
pub fn bars(raw: f32, after: f32, scale: f32) -> Html {
    let width = |p: f32| format!("width: {:.1}%", (p / scale * 100.0).clamp(0.0, 100.0));
    html! {
        <div class="bars">
            <span class="bar raw" style={width(raw)}></span>
            <span class="num">{ prob(raw) }</span>
            <span class="bar after" style={width(after)}></span>
            <span class="num">{ prob(after) }</span>
        </div>
    }
}

/// A distribution table's head: token, logit, the two probabilities, and
/// `last` (the fourth column's header).
pub fn table_head(last: Html, tr: &I18n) -> Html {
    html! {
        <thead>
            <tr>
                <th scope="col">{ tr.t("col-token") }</th>
                <th scope="col">{ tr.t("col-logit") }</th>
                <th scope="col">{ tr.t("col-p-model-after") }</th>
                { last }
            </tr>
        </thead>
    }
}

/// Each knob in order: how many tokens it kept, the mass it removed, the
/// entropy after it.
pub fn funnel(step: &Step, tr: &I18n) -> Html {
    html! {
        <ol class="funnel" aria-label={tr.t("funnel-label")}>
            { for step.funnel.iter().map(|f| html! {
                <li data-stage={f.name.name()}>
                    <strong>{ tr.stage(f.name) }</strong>
                    { tr.t_with("funnel-kept", &[("kept", f.kept.into())]) }
                    if f.removed_mass > 0.0 {
                        { tr.t_with("funnel-removed", &[("mass", prob(f.removed_mass).into())]) }
                    }
                    { format!(" · H {:.2}", f.entropy) }
                </li>
            }) }
        </ol>
    }
}
