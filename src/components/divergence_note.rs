//! Where the lanes first part ways and why, one line per lane.

use crate::format::visible;
use crate::theme::lane_color;
use ntl_decoding::divergence::Divergence;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub divergence: Divergence,
    pub on_select: Callback<(usize, usize)>,
}

#[function_component(DivergenceNote)]
pub fn divergence_note(p: &Props) -> Html {
    let d = &p.divergence;
    html! {
        <section class="divergence" data-testid="divergence" data-step={d.step.to_string()}>
            <strong>{ format!("◆ The lanes first part ways at step {}:", d.step + 1) }</strong>
            <ul>
                { for d.lanes.iter().map(|l| {
                    let (lane, step, cb) = (l.lane, d.step, p.on_select.clone());
                    html! {
                        <li data-lane={l.lane.to_string()}>
                            <button
                                class="link"
                                style={format!("color: {}", lane_color(l.lane))}
                                onclick={Callback::from(move |_| cb.emit((lane, step)))}
                            >
                                { format!("Lane {} chose “{}”", l.lane + 1, visible(&l.token)) }
                            </button>
                            { format!(": {}.", l.reason) }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
