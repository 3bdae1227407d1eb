//! One step in every lane at once: four tables in four columns under their
//! lanes, their rows aligned by token, each cell the token's probability
//! before and after the lane's knobs. ←/→ move the step in every lane.
//!
//! The column of the lane the step was opened from is also its "step table"
//! (`data-testid="step-table"`): one lane's candidates, funnel and branch
//! buttons, as the page has always offered them.

use super::distribution::{bars, funnel, table_head};
use super::drift_line::drift_line;
use super::lens_grid::{lens_section, NoLens};
use crate::compare::{paths, rows, Align, Row};
use crate::format::{num, prob, visible};
use crate::i18n::I18n;
use crate::lane_result::LaneResult;
use crate::state::drift::DriftLine;
use crate::state::page_actions::CompareAction;
use crate::state::run::{Results, StepMove};
use crate::state::LANES;
use crate::theme::lane_color;
use ntl_decoding::record::{BeamCandidate, ContrastiveCandidate, DolaStep};
use ntl_decoding::{Stage, Step};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub results: Results,
    /// The lane the step was opened from, and the step (0-based).
    pub lane: usize,
    pub step: usize,
    /// Steps in the longest lane.
    pub longest: usize,
    pub sort_by: usize,
    /// A model is loaded and the prompt's ids are known, so lanes that are
    /// one path can branch.
    pub can_branch: bool,
    /// The logit lens is shown.
    pub lens: bool,
    /// A run is on its way (a lens asked for now is coming with it).
    pub running: bool,
    /// Lanes run on models whose vocabularies differ: rows line up by text.
    #[prop_or(Align::ById)]
    pub align: Align,
    /// Each lane on quantized weights, at this step, beside full precision.
    #[prop_or_default]
    pub drifts: Rc<Vec<Option<DriftLine>>>,
    pub on: Callback<CompareAction>,
}

/// How the step's token was picked, in a few words.
fn how(s: &Step, tr: &I18n) -> String {
    if s.forced {
        tr.t("how-forced")
    } else if let Some(u) = s.draw {
        tr.t_with("how-draw", &[("u", format!("{u:.3}").into())])
    } else if s.beams.is_some() {
        tr.t("how-beam")
    } else if s.contrastive.is_some() {
        tr.t("how-contrastive")
    } else {
        tr.t("how-greedy")
    }
}

/// Two short lines on the step: how the token was picked, its rank and
/// probability; how many tokens the knobs kept and the distribution's
/// spread. The same in words as the hover text.
fn summary(s: &Step, tr: &I18n) -> Html {
    let [n50, n90, n95] = s.nucleus;
    let args = [
        ("how", how(s, tr).into()),
        ("rank", s.rank.into()),
        ("p0", prob(s.chosen_raw_prob).into()),
        ("p1", prob(s.chosen_prob).into()),
        ("kept", s.kept.into()),
        ("e0", format!("{:.2}", s.raw_entropy).into()),
        ("e1", format!("{:.2}", s.entropy).into()),
        ("n50", n50.into()),
        ("n90", n90.into()),
        ("n95", n95.into()),
    ];
    let picked = tr.t_with("step-picked", &args);
    let spread = tr.t_with("step-spread", &args);
    let title = tr.t_with("step-summary-title", &args);
    html! {
        <p class="summary" {title}>
            { picked }<br />{ spread }
        </p>
    }
}

/// One token's row in one lane's table.
fn row(lane: usize, r: &Row, scale: f32, p: &Props, branch: bool, tr: &I18n) -> Html {
    let token = visible(&r.token);
    let Some(cell) = &r.cells[lane] else {
        return html! {
            <tr data-testid="compare-row" data-token-id={r.token_id.to_string()} data-chosen="false" class="absent">
                <td class="token" role="rowheader">{ token }</td>
                <td colspan="3" class="absent-note">{ tr.t("not-in-table") }</td>
            </tr>
        };
    };
    let c = &cell.candidate;
    let removed = c.score.is_none();
    let token_id = r.token_id;
    let class = classes!(
        cell.chosen.then_some("chosen"),
        removed.then_some("removed")
    );
    let knob = c
        .removed_by
        .map(Stage::name)
        .map(str::to_string)
        .unwrap_or(if removed {
            tr.t("removed")
        } else {
            String::new()
        });
    html! {
        <tr data-testid="compare-row" data-token-id={r.token_id.to_string()} data-chosen={cell.chosen.to_string()} {class}>
            <td class="token" role="rowheader">
                <span data-testid="candidate" data-prob={c.prob.to_string()}>{ token.clone() }</span>
                if cell.chosen { <span class="sr-only">{ tr.t("chosen-sr") }</span> }
            </td>
            <td class="logit">{ num(c.logit) }</td>
            <td>
                { bars(c.raw_prob, c.prob, scale) }
                if !knob.is_empty() { <span class="knob">{ knob }</span> }
            </td>
            <td>
                if branch {
                    <button
                        class="branch"
                        data-testid="branch"
                        data-token-id={token_id.to_string()}
                        title={tr.t_with("branch-title", &[("token", token.clone().into())])}
                        aria-label={tr.t_with("branch-label", &[("token", token.into())])}
                        onclick={p.on.reform(move |_: MouseEvent| CompareAction::Branch { lane, token_id })}
                    >
                        { "↳" }
                    </button>
                }
            </td>
        </tr>
    }
}

/// A table's header row: each column's heading from the catalog.
fn head(columns: &[&'static str], tr: &I18n) -> Html {
    html! { <tr>{ for columns.iter().map(|c| html! { <th scope="col">{ tr.t(c) }</th> }) }</tr> }
}

/// A titled table of one kind of candidate.
fn titled_table(
    title: String,
    class: &'static str,
    columns: &[&'static str],
    rows: Html,
    tr: &I18n,
) -> Html {
    html! {
        <>
            <h4>{ title }</h4>
            <table {class}>
                <thead>{ head(columns, tr) }</thead>
                <tbody>{ rows }</tbody>
            </table>
        </>
    }
}

fn beams_table(beams: &[BeamCandidate], tr: &I18n) -> Html {
    // Diverse beam search: each group's continuations, and what the
    // diversity penalty took from each.
    let grouped = beams.iter().any(|b| b.group.is_some());
    // Constrained beam search: how many constraints each continuation meets.
    let constrained = beams.iter().any(|b| b.constraints.is_some());
    let rows = beams.iter().map(|b| {
        let fate = tr.t(match (b.padding, b.finished, b.running) {
            (true, _, _) => "beam-fate-pad",
            (_, false, true) if b.pushed => "beam-fate-pushed",
            (_, true, _) => "beam-fate-finished",
            (_, false, true) => "beam-fate-kept",
            (_, false, false) => "beam-fate-dropped",
        });
        let group = b.group.map(|g| g.to_string());
        html! {
            <tr data-testid="beam-candidate" data-group={group.clone()} class={classes!(b.padding.then_some("padding"))}>
                if grouped {
                    <td>{ b.group.map(|g| g + 1).unwrap_or(1) }</td>
                }
                <td>{ b.beam + 1 }</td>
                <td class="token">{ visible(&b.token) }</td>
                <td>{ num(b.score) }</td>
                if grouped {
                    <td data-testid="diversity-penalty">
                        { b.diversity_penalty.map(|d| format!("−{}", num(d))).unwrap_or_default() }
                    </td>
                }
                if constrained {
                    <td data-testid="constraints-met">
                        { b.constraints.map(|[met, all]| tr.t_with("met-of", &[("met", met.into()), ("all", all.into())])).unwrap_or_default() }
                    </td>
                }
                <td>{ fate }</td>
            </tr>
        }
    });
    let columns: &[&str] = match (grouped, constrained) {
        (true, _) => &[
            "col-group",
            "col-from-beam",
            "col-token",
            "col-sum-log-p",
            "col-diversity-penalty",
            "col-fate",
        ],
        (false, true) => &[
            "col-from-beam",
            "col-token",
            "col-sum-log-p",
            "col-constraints-met",
            "col-fate",
        ],
        (false, false) => &["col-from-beam", "col-token", "col-sum-log-p", "col-fate"],
    };
    titled_table(
        tr.t(match (grouped, constrained) {
            (true, _) => "beams-title-grouped",
            (false, true) => "beams-title-constrained",
            (false, false) => "beams-title",
        }),
        "beams",
        columns,
        rows.collect(),
        tr,
    )
}

/// DoLa's step: which earlier layer the final one was contrasted with, why
/// that one, and what the table's logits are.
fn dola_line(d: &DolaStep, tr: &I18n) -> Html {
    let layer = d.premature_layer;
    let why = if d.divergences.is_empty() {
        tr.t("dola-only")
    } else {
        let each = d
            .candidates
            .iter()
            .zip(&d.divergences)
            .map(|(l, js)| {
                tr.t_with(
                    "dola-layer-js",
                    &[("layer", (*l).into()), ("js", format!("{js:.2e}").into())],
                )
            })
            .collect::<Vec<_>>()
            .join(" · ");
        tr.t_with("dola-furthest", &[("each", each.into())])
    };
    html! {
        <p class="dola" data-testid="dola-step" data-layer={layer.to_string()} data-plausible={d.plausible.to_string()}>
            { tr.t_with("dola-step", &[
                ("layer", layer.into()),
                ("why", why.into()),
                ("plausible", d.plausible.into()),
            ]) }
        </p>
    }
}

fn contrastive_table(s: &Step, cands: &[ContrastiveCandidate], tr: &I18n) -> Html {
    let rows = cands.iter().map(|c| {
        html! {
            <tr class={classes!((c.id == s.token_id).then_some("chosen"))}>
                <td class="token">{ visible(&c.token) }</td>
                <td>{ prob(c.prob) }</td>
                <td>{ num(c.degeneration_penalty) }</td>
                <td>{ num(c.score) }</td>
            </tr>
        }
    });
    titled_table(
        tr.t("contrastive-title"),
        "contrastive",
        &["col-token", "col-p", "col-max-cosine", "col-score"],
        rows.collect(),
        tr,
    )
}

/// What a lane without this step says instead of a table.
fn no_step(lane: usize, r: Option<&LaneResult>, tr: &I18n) -> Html {
    let text = match r {
        None => tr.t("lane-not-run"),
        Some(r) => match r.stop {
            Some(reason) => tr.t_with(
                "stopped-after",
                &[
                    ("tokens", r.steps.len().into()),
                    ("reason", reason.as_str().into()),
                ],
            ),
            None => tr.t_with("running-so-far", &[("tokens", r.steps.len().into())]),
        },
    };
    html! {
        <>
            <h3 style={format!("color: {}", lane_color(lane))}>{ tr.t_with("lane-heading", &[("lane", (lane + 1).into())]) }</h3>
            <p class="stopped" data-testid="compare-stopped">{ text }</p>
        </>
    }
}

/// When the step's token holds part of a split character: which one (so a
/// tap on a piece in the text, which opens this view, names it).
fn split_note(r: Option<&LaneResult>, step: usize, tr: &I18n) -> Html {
    let Some(r) = r.filter(|r| !r.rewritten) else {
        return html! {};
    };
    let splits = crate::token_bytes::splits(r.steps.iter().map(|s| s.token.as_str()));
    let Some(split) = splits.get(step).cloned().flatten() else {
        return html! {};
    };
    let bytes = crate::token_bytes::hex(&split.bytes);
    let text = match split.character {
        Some(c) => tr.t_with(
            "chose-part-of",
            &[("char", c.to_string().into()), ("bytes", bytes.into())],
        ),
        None => tr.t_with("chose-dangling", &[("bytes", bytes.into())]),
    };
    html! { <span class="split-note" data-testid="split-note">{ text }</span> }
}

/// One lane's column: its step's token, the table, the funnel.
fn column(lane: usize, step: &Step, rows: &[Row], p: &Props, one_path: bool, tr: &I18n) -> Html {
    let scale = rows
        .iter()
        .filter_map(|r| r.cells[lane].as_ref())
        .map(|c| c.candidate.raw_prob.max(c.candidate.prob))
        .fold(f32::MIN_POSITIVE, f32::max);
    let branch = p.can_branch && one_path;
    let sorted = p.sort_by == lane;
    let body = html! {
        <>
            <div class="col-head">
                <h3 style={format!("color: {}", lane_color(lane))}>
                    { tr.t_with("lane-heading", &[("lane", (lane + 1).into())]) }
                    // The view's head says the step; narrow columns leave it out.
                    <span class="at-step">{ tr.t_with("at-step", &[("step", (p.step + 1).into())]) }</span>
                    { tr.t_with("chose", &[("token", visible(&step.token).into())]) }
                    { split_note(p.results[lane].as_deref(), p.step, tr) }
                </h3>
                <button
                    class="sort"
                    aria-pressed={sorted.to_string()}
                    disabled={sorted}
                    title={tr.t(if sorted { "sorted-title" } else { "sort-title" })}
                    onclick={p.on.reform(move |_: MouseEvent| CompareAction::SortBy(lane))}
                >
                    { tr.t(if sorted { "sorted" } else { "sort" }) }
                    <span class="sr-only">{ tr.t_with("sort-sr", &[("lane", (lane + 1).into())]) }</span>
                </button>
            </div>
            { summary(step, tr) }
            <table class="compare-table">
                <caption class="sr-only">
                    { tr.t_with("compare-caption", &[("lane", (lane + 1).into())]) }
                </caption>
                { table_head(html! {
                    <th scope="col" aria-label={tr.t("branch")} title={tr.t("branch-column-title")}>
                        { "↳" }
                    </th>
                }, tr) }
                <tbody>{ for rows.iter().map(|r| row(lane, r, scale, p, branch, tr)) }</tbody>
            </table>
            { funnel(step, tr) }
            if let Some(Some(line)) = p.drifts.get(lane) {
                { drift_line(line, tr) }
            }
            if p.can_branch {
                <button
                    class="try"
                    data-testid="open-sandbox"
                    data-lane={lane.to_string()}
                    onclick={p.on.reform(move |_: MouseEvent| CompareAction::TryKnobs(lane))}
                >
                    { tr.t("what-if") }
                </button>
            }
            if let Some(beams) = &step.beams {
                { beams_table(beams, tr) }
            }
            if let Some(cands) = &step.contrastive {
                { contrastive_table(step, cands, tr) }
            }
            if let Some(d) = &step.dola {
                { dola_line(d, tr) }
            }
        </>
    };
    // The lane the step was opened from is also the page's step table.
    if lane == p.lane {
        html! { <div class="lane-step" data-testid="step-table">{ body }</div> }
    } else {
        html! { <div class="lane-step">{ body }</div> }
    }
}

/// Scrolls the window so the view's top sits a third of the way down the
/// screen (at the top on a phone) — only when less than a fifth of the
/// screen would show the view.
fn reveal(el: &web_sys::HtmlElement) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let width = window
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .unwrap_or(0.0);
    let top = el.get_bounding_client_rect().top();
    if top >= 0.0 && top <= height * 0.8 {
        return;
    }
    let target = if width <= 640.0 { 8.0 } else { height / 3.0 };
    window.scroll_by_with_x_and_y(0.0, top - target);
}

#[function_component(CompareView)]
pub fn compare_view(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let node = use_node_ref();
    // Take focus when the view opens or its step changes, so the arrow keys
    // work at once. Scroll only when too little of the view shows, and then
    // only so far that the lanes' texts above it stay in sight where the
    // screen is wide enough for both.
    {
        let node = node.clone();
        use_effect_with((p.lane, p.step), move |_| {
            if let Some(el) = node.cast::<web_sys::HtmlElement>() {
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = el.focus_with_options(&options);
                reveal(&el);
            }
        });
    }
    let onkeydown = {
        let on = p.on.clone();
        Callback::from(move |e: KeyboardEvent| {
            let action = match e.key().as_str() {
                "ArrowLeft" => CompareAction::Move(StepMove::Previous),
                "ArrowRight" => CompareAction::Move(StepMove::Next),
                "Home" => CompareAction::Move(StepMove::First),
                "End" => CompareAction::Move(StepMove::Last),
                "Escape" => CompareAction::Close,
                _ => return,
            };
            e.prevent_default();
            on.emit(action);
        })
    };
    let results: [Option<&LaneResult>; LANES] = std::array::from_fn(|i| p.results[i].as_deref());
    let steps: [Option<&Step>; LANES] =
        std::array::from_fn(|i| results[i].and_then(|r| r.steps.get(p.step)).map(|s| &**s));
    let rows = rows(&steps, p.sort_by, p.align);
    let paths = paths(&results, p.step, p.align);
    let mut notes = vec![];

    for (lanes, id) in [
        (&paths.other_text, "compare-other-text"),
        (&paths.beams, "compare-beams"),
    ] {
        if !lanes.is_empty() {
            notes.push(tr.t_with(
                id,
                &[
                    ("count", lanes.len().into()),
                    ("lanes", capitalised(&tr.lane_list(lanes)).into()),
                ],
            ));
        }
    }
    let on = &p.on;
    html! {
        <section
            class="compare"
            data-testid="compare"
            data-step={p.step.to_string()}
            tabindex="0"
            aria-label={tr.t_with("compare-label", &[("step", (p.step + 1).into())])}
            ref={node}
            {onkeydown}
        >
            <div class="compare-head">
                <h2>{ tr.t_with("compare-heading", &[
                    ("step", (p.step + 1).into()),
                    ("steps", p.longest.max(p.step + 1).into()),
                ]) }</h2>
                <button
                    aria-label={tr.t("previous-step")}
                    disabled={p.step == 0}
                    onclick={on.reform(|_: MouseEvent| CompareAction::Move(StepMove::Previous))}
                >
                    { "←" }
                </button>
                <button
                    aria-label={tr.t("next-step")}
                    disabled={p.step + 1 >= p.longest}
                    onclick={on.reform(|_: MouseEvent| CompareAction::Move(StepMove::Next))}
                >
                    { "→" }
                </button>
                <span class="hint">{ tr.t("compare-keys") }</span>
                <button
                    class="lens-toggle"
                    data-testid="lens-toggle"
                    aria-pressed={p.lens.to_string()}
                    title={tr.t("lens-toggle-title")}
                    onclick={on.reform({
                        let lens = p.lens;
                        move |_: MouseEvent| CompareAction::Lens(!lens)
                    })}
                >
                    { tr.t("lens-toggle") }
                </button>
                if p.align == Align::ByText {
                    <p class="notice" data-testid="compare-by-text">{ tr.t("compare-by-text") }</p>
                }
                { for notes.into_iter().map(|n| html! { <p class="notice" data-testid="compare-paths">{ n }</p> }) }
                <button class="close" aria-label={tr.t("close")} onclick={on.reform(|_: MouseEvent| CompareAction::Close)}>
                    { "×" }
                </button>
            </div>
            <div class="compare-lanes">
                { tokens_column(&rows, &tr) }
                // Lanes that did not run (a step with fewer) get no column.
                { for (0..LANES).filter(|&l| results[l].is_some()).map(|lane| html! {
                    <div
                        class={classes!("compare-lane", (lane == p.lane).then_some("opened"))}
                        data-testid="compare-lane"
                        data-lane={lane.to_string()}
                    >
                        { match steps[lane] {
                            Some(step) => {
                                let one_path = results[lane].is_some_and(|r| !r.rewritten);
                                column(lane, step, &rows, p, one_path, &tr)
                            }
                            None => no_step(lane, results[lane], &tr),
                        } }
                    </div>
                }) }
            </div>
            if p.lens {
                { lens_section(&steps, why_no_lens(&steps, p.running), &tr) }
            }
        </section>
    }
}

/// Why each lane's step shows no lens, should it have none.
fn why_no_lens(steps: &[Option<&Step>; LANES], running: bool) -> [NoLens; LANES] {
    std::array::from_fn(|lane| match steps[lane] {
        Some(s) if s.beams.is_some() || s.contrastive.is_some() => NoLens::ManyRows,
        _ if running => NoLens::Waiting,
        _ => NoLens::NotRecorded,
    })
}

/// The rows' tokens alone, pinned at the left while the lanes scroll
/// sideways on narrow screens (hidden on wide ones, where every lane's table
/// sits under its lane). Laid out like a lane's column, so rows line up.
fn tokens_column(rows: &[Row], tr: &I18n) -> Html {
    html! {
        <div class="compare-tokens" aria-hidden="true">
            <div class="col-head"><h3>{ "\u{a0}" }</h3></div>
            <p class="summary"></p>
            <table class="compare-table">
                <thead><tr><th>{ tr.t("col-token") }</th></tr></thead>
                <tbody>
                    { for rows.iter().map(|r| html! {
                        <tr><td class="token">{ visible(&r.token) }</td></tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
