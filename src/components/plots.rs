//! Per-step plots, all four lanes on each chart: entropy after the knobs, the
//! chosen token's probability, the raw nucleus size for p = 0.9, and how many
//! tokens the knobs kept. A point opens that step's table.
//!
//! While a run streams, the axes reach to the run's planned length and to a
//! round value above the largest one, so the points already drawn stay where
//! they are (a step adds points; it does not move hundreds of them) and each
//! lane's series is drawn again only when that lane changed. Once the run is
//! done, the axes fit the data exactly.

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
    /// A run is streaming into the results.
    pub running: bool,
    /// The longest lane's step budget in the streaming run (0: not known).
    pub planned: usize,
    pub on_select: Callback<(usize, usize)>,
}

struct Metric {
    /// The catalog's id for its title.
    title: &'static str,
    value: fn(&Step) -> f64,
    /// Plot on a log10 axis (counts spanning 1 .. vocabulary size).
    log: bool,
    fmt: fn(f64) -> String,
    /// A hard top for the axis (probabilities stop at 100%).
    cap: Option<f64>,
}

const METRICS: [Metric; 4] = [
    Metric {
        title: "plot-entropy",
        value: |s| s.entropy as f64,
        log: false,
        fmt: |v| format!("{v:.2}"),
        cap: None,
    },
    Metric {
        title: "plot-chosen",
        value: |s| s.chosen_prob as f64,
        log: false,
        fmt: |v| format!("{:.0}%", v * 100.0),
        cap: Some(1.0),
    },
    Metric {
        title: "plot-nucleus",
        value: |s| s.nucleus[1] as f64,
        log: true,
        fmt: |v| format!("{v:.0}"),
        cap: None,
    },
    Metric {
        title: "plot-kept",
        value: |s| s.kept as f64,
        log: true,
        fmt: |v| format!("{v:.0}"),
        cap: None,
    },
];

const W: f64 = 320.0;
const H: f64 = 130.0;
const PAD_L: f64 = 38.0;
const PAD_R: f64 = 8.0;
const PAD_T: f64 = 8.0;
const PAD_B: f64 = 20.0;

/// Where a chart puts steps and values.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Axes {
    log: bool,
    /// Steps the x-axis spans.
    steps: usize,
    /// The top of the value axis, on the chart's scale (log10 for counts).
    hi: f64,
}

impl Axes {
    fn scale(&self, v: f64) -> f64 {
        if self.log {
            v.max(1.0).log10()
        } else {
            v
        }
    }

    fn x(&self, i: usize) -> f64 {
        let t = if self.steps > 1 {
            i as f64 / (self.steps - 1) as f64
        } else {
            0.5
        };
        PAD_L + (W - PAD_L - PAD_R) * t
    }

    fn y(&self, v: f64) -> f64 {
        PAD_T + (H - PAD_T - PAD_B) * (1.0 - self.scale(v) / self.hi)
    }
}

/// Steps the x-axis spans: the longest lane once the run is done; while it
/// streams, the planned length, or (past it) the next multiple of 16.
fn x_extent(longest: usize, planned: usize, running: bool) -> usize {
    if !running {
        return longest.max(1);
    }
    if longest <= planned {
        return planned.max(1);
    }
    longest.div_ceil(16) * 16
}

/// The value axis' top (on the chart's scale) for a largest value `top`:
/// 5 % above it once the run is done; while it streams, the next round
/// value above that (1, 2, 2.5 or 5 × 10ⁿ), which changes seldom.
fn y_top(top: f64, cap: Option<f64>, running: bool) -> f64 {
    let padded = if top <= 0.0 { 1.0 } else { top * 1.05 };
    let hi = if running { round_up(padded) } else { padded };
    cap.map_or(hi, |c| hi.min(c))
}

fn round_up(v: f64) -> f64 {
    let unit = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * unit)
        .find(|&r| r >= v)
        .unwrap_or(10.0 * unit)
}

#[derive(Properties, PartialEq)]
struct SeriesProps {
    lane: usize,
    /// Index into `METRICS`.
    metric: usize,
    result: RcEq<LaneResult>,
    axes: Axes,
    on_select: Callback<(usize, usize)>,
}

/// One lane's line and points on one chart.
#[function_component(Series)]
fn series(p: &SeriesProps) -> Html {
    let (m, a) = (&METRICS[p.metric], p.axes);
    let at = |i: usize, s: &Step| (a.x(i), a.y((m.value)(s)));
    let steps = &p.result.steps;
    let line: String = steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (x, y) = at(i, s);
            format!("{x:.1},{y:.1} ")
        })
        .collect();
    html! {
        <g class="series" data-lane={p.lane.to_string()}>
            // Colours as style: SVG's presentation attributes take no CSS variables.
            <polyline
                points={line}
                fill="none"
                style={format!("stroke: {}", lane_color(p.lane))}
                stroke-width="1.6"
            />
            // The points are keyed, and in an element of their own: yew
            // matches unkeyed children from the end, so an appended point
            // would move every point into its neighbour's place. Points are
            // components, so an unchanged one is not even formatted again.
            <g class="points">
                { for steps.iter().enumerate().map(|(i, s)| html! {
                    <Point
                        key={i}
                        lane={p.lane}
                        index={i}
                        metric={p.metric}
                        step={RcEq::from(Rc::clone(s))}
                        at={at(i, s)}
                        on_select={p.on_select.clone()}
                    />
                }) }
            </g>
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct PointProps {
    lane: usize,
    index: usize,
    metric: usize,
    step: RcEq<Step>,
    /// Where the point is drawn.
    at: (f64, f64),
    on_select: Callback<(usize, usize)>,
}

/// A step's point: hovering or clicking it opens the step's table.
#[function_component(Point)]
fn point(p: &PointProps) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let m = &METRICS[p.metric];
    let (lane, i) = (p.lane, p.index);
    let (click, hover) = (p.on_select.clone(), p.on_select.clone());
    let value = (m.fmt)((m.value)(&p.step));
    let title = tr.t_with(
        "plot-point",
        &[
            ("lane", (lane + 1).into()),
            ("step", (i + 1).into()),
            ("token", crate::format::visible(&p.step.token).into()),
            ("value", value.into()),
        ],
    );
    html! {
        <circle
            cx={format!("{:.1}", p.at.0)}
            cy={format!("{:.1}", p.at.1)}
            r="2.6"
            style={format!("fill: {}", lane_color(lane))}
            onclick={Callback::from(move |_| click.emit((lane, i)))}
            onmouseenter={Callback::from(move |_| hover.emit((lane, i)))}
        >
            <title>{ title }</title>
        </circle>
    }
}

fn chart(metric: usize, p: &Props, tr: &I18n) -> Html {
    let m = &METRICS[metric];
    let title = tr.t(m.title);
    let lanes = || {
        p.results
            .iter()
            .enumerate()
            .filter_map(|(lane, r)| Some((lane, r.as_ref()?)))
    };
    let longest = lanes().map(|(_, r)| r.steps.len()).fold(1, usize::max);
    let floor = if m.log { 1.0 } else { 0.0 };
    let max_value = lanes()
        .flat_map(|(_, r)| r.steps.iter().map(|s| (m.value)(s)))
        .fold(floor, f64::max);
    let mut a = Axes {
        log: m.log,
        steps: x_extent(longest, p.planned, p.running),
        hi: 1.0,
    };
    a.hi = y_top(a.scale(max_value), m.cap.map(|c| a.scale(c)), p.running);
    let (left, right) = (PAD_L.to_string(), (W - PAD_R).to_string());
    let (top, bottom) = (PAD_T.to_string(), (H - PAD_B).to_string());
    let label_x = (PAD_L - 4.0).to_string();
    html! {
        <figure class="plot" data-testid="plot">
            <figcaption>{ title.clone() }</figcaption>
            <svg viewBox={format!("0 0 {W} {H}")} role="img" aria-label={title}>
                <line
                    x1={left.clone()}
                    y1={bottom.clone()}
                    x2={right.clone()}
                    y2={bottom.clone()}
                    class="axis"
                />
                <line x1={left.clone()} y1={top} x2={left} y2={bottom.clone()} class="axis" />
                // The label names the largest value plotted, at its height.
                <text
                    x={label_x.clone()}
                    y={format!("{:.1}", a.y(max_value) + 3.0)}
                    class="tick"
                    text-anchor="end"
                >
                    { (m.fmt)(max_value) }
                </text>
                <text x={label_x} y={bottom} class="tick" text-anchor="end">
                    { if m.log { "1" } else { "0" } }
                </text>
                <text x={right} y={(H - 4.0).to_string()} class="tick" text-anchor="end">
                    { tr.t_with("plot-step", &[("step", longest.into())]) }
                </text>
                { for lanes().map(|(lane, r)| html! {
                    <Series
                        key={lane}
                        {lane}
                        {metric}
                        result={r.clone()}
                        axes={a}
                        on_select={p.on_select.clone()}
                    />
                }) }
            </svg>
        </figure>
    }
}

#[function_component(Plots)]
pub fn plots(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    if p.results
        .iter()
        .all(|r| r.as_ref().is_none_or(|r| r.steps.is_empty()))
    {
        return html! {};
    }
    html! {
        <section class="plots" aria-label={tr.t("plots-label")}>
            <div class="legend">
                { for (0..p.results.len()).filter(|&i| p.results[i].is_some()).map(|i| html! {
                    <span style={format!("color: {}", lane_color(i))}>
                        { "● " }{ tr.t_with("lane-heading", &[("lane", (i + 1).into())]) }
                    </span>
                }) }
                <span class="hint">{ tr.t("plots-hint") }</span>
            </div>
            <div class="charts">{ for (0..METRICS.len()).map(|m| chart(m, p, &tr)) }</div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn while_streaming_the_axes_hold_still_and_once_done_they_fit_the_data() {
        // The planned length holds until a lane outgrows it, then 16 at a time.
        assert_eq!(x_extent(5, 40, true), 40);
        assert_eq!(x_extent(41, 40, true), 48);
        assert_eq!(x_extent(48, 40, true), 48);
        assert_eq!(x_extent(5, 0, true), 16);
        assert_eq!(x_extent(5, 40, false), 5);
        // Round tops while streaming, the exact 5 % above the data after.
        assert_eq!(y_top(2.2, None, true), 2.5);
        assert_eq!(y_top(3.1, None, true), 5.0);
        assert!((y_top(3.1, None, false) - 3.255).abs() < 1e-12);
        assert_eq!(y_top(0.99, Some(1.0), true), 1.0);
        assert_eq!(y_top(0.0, None, false), 1.0);
        assert_eq!(round_up(0.042), 0.05);
    }
}
