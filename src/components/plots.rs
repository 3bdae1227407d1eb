//! Per-step plots, all four lanes on each chart: entropy after the knobs, the
//! chosen token's probability, the raw nucleus size for p = 0.9, and how many
//! tokens the knobs kept. A point opens that step's table.

use crate::lane_result::LaneResult;
use ntl_decoding::Step;
use yew::prelude::*;

pub const LANE_COLORS: [&str; 4] = ["#c2410c", "#2563eb", "#15803d", "#7c3aed"];

#[derive(Properties, PartialEq)]
pub struct Props {
    pub results: Vec<Option<LaneResult>>,
    pub on_select: Callback<(usize, usize)>,
}

struct Metric {
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
        title: "entropy after the knobs (nats)",
        value: |s| s.entropy as f64,
        log: false,
        fmt: |v| format!("{v:.2}"),
        cap: None,
    },
    Metric {
        title: "probability of the chosen token",
        value: |s| s.chosen_prob as f64,
        log: false,
        fmt: |v| format!("{:.0}%", v * 100.0),
        cap: Some(1.0),
    },
    Metric {
        title: "tokens for 90% of the model's mass",
        value: |s| s.nucleus[1] as f64,
        log: true,
        fmt: |v| format!("{v:.0}"),
        cap: None,
    },
    Metric {
        title: "tokens kept by the knobs",
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

fn chart(m: &Metric, results: &[Option<LaneResult>], on_select: &Callback<(usize, usize)>) -> Html {
    let tr = |v: f64| if m.log { v.max(1.0).log10() } else { v };
    let mut max_steps = 1usize;
    let mut max_value = if m.log { 1.0 } else { 0.0f64 };
    for r in results.iter().flatten() {
        max_steps = max_steps.max(r.steps.len());
        for s in &r.steps {
            max_value = max_value.max((m.value)(s));
        }
    }
    let hi = tr(max_value);
    let hi = if hi <= 0.0 { 1.0 } else { hi * 1.05 };
    let hi = m.cap.map_or(hi, |c| hi.min(tr(c)));
    let x = |i: usize| {
        PAD_L
            + (W - PAD_L - PAD_R)
                * if max_steps > 1 {
                    i as f64 / (max_steps - 1) as f64
                } else {
                    0.5
                }
    };
    let y = |v: f64| PAD_T + (H - PAD_T - PAD_B) * (1.0 - tr(v) / hi);
    // The axis top is padded; its label names the largest value plotted.
    let top_label = (m.fmt)(max_value);
    html! {
        <figure class="plot" data-testid="plot">
            <figcaption>{ m.title }</figcaption>
            <svg viewBox={format!("0 0 {W} {H}")} role="img" aria-label={m.title}>
                <line x1={PAD_L.to_string()} y1={(H - PAD_B).to_string()} x2={(W - PAD_R).to_string()} y2={(H - PAD_B).to_string()} class="axis" />
                <line x1={PAD_L.to_string()} y1={PAD_T.to_string()} x2={PAD_L.to_string()} y2={(H - PAD_B).to_string()} class="axis" />
                <text x={(PAD_L - 4.0).to_string()} y={format!("{:.1}", y(max_value) + 3.0)} class="tick" text-anchor="end">{ top_label }</text>
                <text x={(PAD_L - 4.0).to_string()} y={(H - PAD_B).to_string()} class="tick" text-anchor="end">{ if m.log { "1" } else { "0" } }</text>
                <text x={(W - PAD_R).to_string()} y={(H - 4.0).to_string()} class="tick" text-anchor="end">{ format!("step {max_steps}") }</text>
                { for results.iter().enumerate().filter_map(|(lane, r)| r.as_ref().map(|r| (lane, r))).map(|(lane, r)| {
                    let color = LANE_COLORS[lane % LANE_COLORS.len()];
                    let points: String = r.steps.iter().enumerate().map(|(i, s)| format!("{:.1},{:.1} ", x(i), y((m.value)(s)))).collect();
                    html! {
                        <g class="series" data-lane={lane.to_string()}>
                            <polyline points={points} fill="none" stroke={color} stroke-width="1.6" />
                            { for r.steps.iter().enumerate().map(|(i, s)| {
                                let (cb, hover) = (on_select.clone(), on_select.clone());
                                let v = (m.value)(s);
                                html! {
                                    <circle cx={format!("{:.1}", x(i))} cy={format!("{:.1}", y(v))} r="2.6" fill={color}
                                        onclick={Callback::from(move |_| cb.emit((lane, i)))}
                                        onmouseenter={Callback::from(move |_| hover.emit((lane, i)))}>
                                        <title>{ format!("lane {} · step {} · {} · {}", lane + 1, i + 1, s.token, (m.fmt)(v)) }</title>
                                    </circle>
                                }
                            }) }
                        </g>
                    }
                }) }
            </svg>
        </figure>
    }
}

#[function_component(Plots)]
pub fn plots(p: &Props) -> Html {
    if p.results
        .iter()
        .all(|r| r.as_ref().is_none_or(|r| r.steps.is_empty()))
    {
        return html! {};
    }
    html! {
        <section class="plots" aria-label="per-step plots">
            <div class="legend">
                { for (0..4).map(|i| html! { <span style={format!("color: {}", LANE_COLORS[i])}>{ format!("● Lane {}", i + 1) }</span> }) }
                <span class="hint">{ "Hover or click a point to open that step's table." }</span>
            </div>
            <div class="charts">{ for METRICS.iter().map(|m| chart(m, &p.results, &p.on_select)) }</div>
        </section>
    }
}
