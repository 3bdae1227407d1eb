//! A lane's generated text: each token a span tinted by how likely it was,
//! clickable to open its step's table.

use crate::format;
use crate::lane_result::LaneResult;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub result: Option<LaneResult>,
    pub selected: Option<usize>,
    /// The step where the lanes first part ways, marked ◆.
    pub diverge: Option<usize>,
    pub on_select: Callback<usize>,
}

#[function_component(LaneText)]
pub fn lane_text(p: &Props) -> Html {
    let Some(r) = &p.result else {
        return html! { <div class="lane-text empty" data-testid="lane-text"></div> };
    };
    if r.rewritten {
        // Beam search: the best hypothesis can change under earlier tokens; show its
        // text, and the steps as numbered chips.
        return html! {
            <div class="lane-text" data-testid="lane-text">
                <span class="plain">{ r.text.clone() }</span>
                <div class="chips">
                    { for r.steps.iter().enumerate().map(|(i, s)| {
                        let cb = p.on_select.clone();
                        html! { <button class={classes!("chip", (p.selected == Some(i)).then_some("selected"))} data-testid="token" title={format::visible(&s.token)}
                            onclick={Callback::from(move |_| cb.emit(i))}>{ i + 1 }</button> }
                    }) }
                </div>
            </div>
        };
    }
    html! {
        <div class="lane-text" data-testid="lane-text">
            { for r.pieces.iter().zip(&r.steps).enumerate().map(|(i, (piece, s))| {
                let cb = p.on_select.clone();
                // Scoring a text: a token this lane's knobs made impossible is struck out.
                let impossible = s.forced && s.chosen_prob == 0.0;
                let diverge = p.diverge == Some(i);
                let title = if impossible {
                    format!("step {} · impossible under this lane's knobs (model p = {})", i + 1, format::prob(s.chosen_raw_prob))
                } else {
                    format!("step {} · p = {}{}", i + 1, format::prob(s.chosen_prob), if diverge { " · the lanes part ways here" } else { "" })
                };
                html! {
                    <span class={classes!("tok", (p.selected == Some(i)).then_some("selected"), impossible.then_some("impossible"), diverge.then_some("diverge"))}
                        data-testid="token" data-step={i.to_string()} data-impossible={impossible.then_some("true")} style={format::tint(s.chosen_prob)}
                        title={title}
                        onclick={Callback::from(move |_| cb.emit(i))}>
                        { if piece.is_empty() { "·".to_string() } else { piece.clone() } }
                    </span>
                }
            }) }
        </div>
    }
}
