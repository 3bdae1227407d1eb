//! The whole run at a glance: a row per step, a column per lane, each cell the
//! token chosen there with a bar for its probability (and its rank under the
//! model when it was not the favourite). A cell opens that step everywhere.

use crate::format::{prob, visible};
use crate::i18n::I18n;
use crate::lane_result::LaneResult;
use crate::rc_eq::RcEq;
use crate::state::run::Results;
use crate::theme::lane_color;
use ntl_decoding::Step;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub results: Results,
    /// The step the compare view shows, if it is open.
    pub selected: Option<(usize, usize)>,
    /// Where the lanes first part ways.
    pub diverge: Option<usize>,
    pub on_select: Callback<(usize, usize)>,
}

#[derive(Properties, PartialEq)]
struct RowProps {
    step: usize,
    /// Each lane's record of this step.
    /// Each lane that ran, by its index, and its step.
    cells: Vec<(usize, Option<RcEq<Step>>)>,
    /// The lane whose cell is open in the compare view, on this row.
    selected: Option<usize>,
    diverge: bool,
    on_select: Callback<(usize, usize)>,
}

/// One step's row; a component, so rows that did not change are not drawn
/// again while a run streams.
#[function_component(GridRow)]
fn grid_row(p: &RowProps) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let step = p.step;
    let cell = |lane: usize, s: &Option<RcEq<Step>>| {
        let Some(s) = s else {
            return html! { <td class="empty"></td> };
        };
        let cb = p.on_select.clone();
        let rank = (s.rank > 1).then_some(s.rank);
        let at = tr.t_with(
            "grid-cell-at",
            &[("lane", (lane + 1).into()), ("step", (step + 1).into())],
        );
        let p_chosen = tr.t_with("grid-cell-p", &[("p", prob(s.chosen_prob).into())]);
        let label = format!(
            "{at}“{}”{p_chosen}{}",
            visible(&s.token),
            rank.map(|r| tr.t_with("grid-cell-rank", &[("rank", r.into())]))
                .unwrap_or_default()
        );
        html! {
            <td class={classes!("grid-cell", (p.selected == Some(lane)).then_some("selected"))}>
                <button
                    data-testid="grid-cell"
                    data-lane={lane.to_string()}
                    data-step={step.to_string()}
                    title={label}
                    onclick={Callback::from(move |_| cb.emit((lane, step)))}
                >
                    // What shows is part of the name a screen reader says.
                    <span class="sr-only">{ at }</span>
                    <span class="tok">{ visible(&s.token) }</span>
                    <span class="pbar" style={format!("width: {:.0}%", s.chosen_prob * 100.0)}></span>
                    <span class="sr-only">{ p_chosen }</span>
                    if let Some(r) = rank { <span class="rank">{ format!(" #{r}") }</span> }
                </button>
            </td>
        }
    };
    let number = if p.diverge {
        format!("◆ {}", step + 1)
    } else {
        (step + 1).to_string()
    };
    html! {
        <tr class={classes!(p.diverge.then_some("diverge"))}>
            <th scope="row">{ number }</th>
            { for p.cells.iter().map(|(lane, s)| cell(*lane, s)) }
        </tr>
    }
}

#[function_component(StepGrid)]
pub fn step_grid(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let longest = p
        .results
        .iter()
        .flatten()
        .map(|r| r.steps.len())
        .max()
        .unwrap_or(0);
    if longest == 0 {
        return html! {};
    }
    // Lanes that did not run (a step with fewer) get no column.
    let ran: Vec<usize> = (0..p.results.len())
        .filter(|&l| p.results[l].is_some())
        .collect();
    let cells = |step: usize| -> Vec<(usize, Option<RcEq<Step>>)> {
        let at = |r: &Option<RcEq<LaneResult>>| {
            r.as_ref()?
                .steps
                .get(step)
                .map(|s| RcEq::from(Rc::clone(s)))
        };
        ran.iter().map(|&l| (l, at(&p.results[l]))).collect()
    };
    html! {
        <section class="step-grid" aria-label={tr.t("grid-label")}>
            <h2>{ tr.t("grid-heading") }</h2>
            <div class="grid-scroll">
                <table data-testid="step-grid">
                    <thead>
                        <tr>
                            <th scope="col">{ tr.t("grid-col-step") }</th>
                            { for ran.iter().map(|&lane| html! {
                                <th scope="col" style={format!("color: {}", lane_color(lane))}>
                                    { tr.t_with("lane-heading", &[("lane", (lane + 1).into())]) }
                                </th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        // Keyed: an appended step adds a row and leaves the others be.
                        { for (0..longest).map(|step| html! {
                            <GridRow
                                key={step}
                                {step}
                                cells={cells(step)}
                                selected={p.selected.filter(|(_, s)| *s == step).map(|(l, _)| l)}
                                diverge={p.diverge == Some(step)}
                                on_select={p.on_select.clone()}
                            />
                        }) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}
