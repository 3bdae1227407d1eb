//! How one distribution is drawn wherever it appears (the compare view, the
//! sandbox): a token's two bars, before and after the knobs, and the funnel
//! of what each knob kept.

use crate::format::prob;
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
pub fn table_head(last: Html) -> Html {
    html! {
        <thead>
            <tr>
                <th scope="col">{ "token" }</th>
                <th scope="col">{ "logit" }</th>
                <th scope="col">{ "p model → after knobs" }</th>
                { last }
            </tr>
        </thead>
    }
}

/// Each knob in order: how many tokens it kept, the mass it removed, the
/// entropy after it.
pub fn funnel(step: &Step) -> Html {
    html! {
        <ol class="funnel" aria-label="filter funnel">
            { for step.funnel.iter().map(|f| html! {
                <li data-stage={f.name.name()}>
                    <strong>{ f.name.name() }</strong>
                    { format!(" {} kept", f.kept) }
                    if f.removed_mass > 0.0 {
                        { format!(" · removed {}", prob(f.removed_mass)) }
                    }
                    { format!(" · H {:.2}", f.entropy) }
                </li>
            }) }
        </ol>
    }
}
