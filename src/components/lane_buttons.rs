//! "lane 1 … lane 4": one button per lane, in the lane's colour, for
//! actions that put something into a lane (the sandbox's knobs, a looked-up
//! token).

use crate::i18n::I18n;
use crate::state::LANES;
use crate::theme::lane_color;
use yew::prelude::*;

/// The four buttons; `on` gets the lane clicked.
pub fn lane_buttons(testid: &'static str, disabled: bool, on: &Callback<usize>, tr: &I18n) -> Html {
    html! {
        { for (0..LANES).map(|lane| html! {
            <button
                data-testid={testid}
                data-lane={lane.to_string()}
                {disabled}
                style={format!("color: {}", lane_color(lane))}
                onclick={on.reform(move |_: MouseEvent| lane)}
            >
                { tr.t_with("lane-button", &[("lane", (lane + 1).into())]) }
            </button>
        }) }
    }
}
