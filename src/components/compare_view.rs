//! One step in every lane at once: four tables in four columns under their
//! lanes, their rows aligned by token, each cell the token's probability
//! before and after the lane's knobs. ←/→ move the step in every lane.
//!
//! The column of the lane the step was opened from is also its "step table"
//! (`data-testid="step-table"`): one lane's candidates, funnel and branch
//! buttons, as the page has always offered them.

use super::distribution::{bars, funnel, table_head};
use crate::compare::{lane_list, paths, rows, Row};
use crate::format::{num, prob, visible};
use crate::lane_result::LaneResult;
use crate::state::page_actions::CompareAction;
use crate::state::run::{Results, StepMove};
use crate::state::LANES;
use crate::theme::lane_color;
use ntl_decoding::record::{BeamCandidate, ContrastiveCandidate, DolaStep};
use ntl_decoding::{Stage, Step};
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
    pub on: Callback<CompareAction>,
}

const KEYS_HINT: &str = "← → move the step in every lane · Home / End jump · Esc closes";

/// How the step's token was picked, in a few words.
fn how(s: &Step) -> String {
    if s.forced {
        "given (scoring a text)".to_string()
    } else if let Some(u) = s.draw {
        format!("seeded draw, u = {u:.3}")
    } else if s.beams.is_some() {
        "best beam continuation".to_string()
    } else if s.contrastive.is_some() {
        "best contrastive score".to_string()
    } else {
        "greedy: most probable".to_string()
    }
}

/// Two short lines on the step: how the token was picked, its rank and
/// probability; how many tokens the knobs kept and the distribution's
/// spread. The same in words as the hover text.
fn summary(s: &Step) -> Html {
    let [n50, n90, n95] = s.nucleus;
    let (p0, p1) = (prob(s.chosen_raw_prob), prob(s.chosen_prob));
    let (e0, e1) = (s.raw_entropy, s.entropy);
    let picked = format!("{} · rank {} · p {p0} → {p1}", how(s), s.rank);
    let spread = format!(
        "{} kept · entropy {e0:.2} → {e1:.2} · nucleus 50/90/95%: {n50}/{n90}/{n95}",
        s.kept
    );
    let title = format!(
        "Picked: {}. Rank {} by the model; p {p0} before the knobs, {p1} after; \
         {} tokens kept; entropy {e0:.2} → {e1:.2} nats; the top-p nucleus holds \
         {n50} tokens at 50%, {n90} at 90%, {n95} at 95%.",
        how(s),
        s.rank,
        s.kept
    );
    html! {
        <p class="summary" {title}>
            { picked }<br />{ spread }
        </p>
    }
}

/// One token's row in one lane's table.
fn row(lane: usize, r: &Row, scale: f32, p: &Props, branch: bool) -> Html {
    let token = visible(&r.token);
    let Some(cell) = &r.cells[lane] else {
        return html! {
            <tr data-testid="compare-row" data-token-id={r.token_id.to_string()} data-chosen="false" class="absent">
                <td class="token" role="rowheader">{ token }</td>
                <td colspan="3" class="absent-note">{ "not in this lane's table" }</td>
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
        .unwrap_or(if removed { "removed" } else { "" });
    html! {
        <tr data-testid="compare-row" data-token-id={r.token_id.to_string()} data-chosen={cell.chosen.to_string()} {class}>
            <td class="token" role="rowheader">
                <span data-testid="candidate" data-prob={c.prob.to_string()}>{ token.clone() }</span>
                if cell.chosen { <span class="sr-only">{ " (chosen)" }</span> }
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
                        title={format!("every lane continues from here with “{token}”")}
                        aria-label={format!("branch with “{token}”")}
                        onclick={p.on.reform(move |_: MouseEvent| CompareAction::Branch { lane, token_id })}
                    >
                        { "↳" }
                    </button>
                }
            </td>
        </tr>
    }
}

/// A table's header row.
fn head(columns: &[&'static str]) -> Html {
    html! { <tr>{ for columns.iter().map(|c| html! { <th scope="col">{ *c }</th> }) }</tr> }
}

/// A titled table of one kind of candidate.
fn titled_table(
    title: &'static str,
    class: &'static str,
    columns: &[&'static str],
    rows: Html,
) -> Html {
    html! {
        <>
            <h4>{ title }</h4>
            <table {class}>
                <thead>{ head(columns) }</thead>
                <tbody>{ rows }</tbody>
            </table>
        </>
    }
}

fn beams_table(beams: &[BeamCandidate]) -> Html {
    // Diverse beam search: each group's continuations, and what the
    // diversity penalty took from each.
    let grouped = beams.iter().any(|b| b.group.is_some());
    // Constrained beam search: how many constraints each continuation meets.
    let constrained = beams.iter().any(|b| b.constraints.is_some());
    let rows = beams.iter().map(|b| {
        let fate = match (b.padding, b.finished, b.running) {
            (true, _, _) => "group done: pad",
            (_, false, true) if b.pushed => "kept: moves a constraint on",
            (_, true, _) => "finished",
            (_, false, true) => "kept",
            (_, false, false) => "dropped",
        };
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
                        { b.constraints.map(|[met, all]| format!("{met} of {all}")).unwrap_or_default() }
                    </td>
                }
                <td>{ fate }</td>
            </tr>
        }
    });
    let columns: &[&str] = match (grouped, constrained) {
        (true, _) => &[
            "group",
            "from beam",
            "token",
            "sum log p",
            "diversity penalty",
            "fate",
        ],
        (false, true) => &["from beam", "token", "sum log p", "constraints met", "fate"],
        (false, false) => &["from beam", "token", "sum log p", "fate"],
    };
    titled_table(
        match (grouped, constrained) {
            (true, _) => "Beam continuations this step, group by group (later groups pay for tokens earlier groups just chose)",
            (false, true) => "Beam continuations this step: the best of each level of progress on the forced words go on first",
            (false, false) => "Beam continuations this step",
        },
        "beams",
        columns,
        rows.collect(),
    )
}

/// DoLa's step: which earlier layer the final one was contrasted with, why
/// that one, and what the table's logits are.
fn dola_line(d: &DolaStep) -> Html {
    let layer = d.premature_layer;
    let why = if d.divergences.is_empty() {
        "its only candidate".to_string()
    } else {
        let each = d
            .candidates
            .iter()
            .zip(&d.divergences)
            .map(|(l, js)| format!("layer {l}: {js:.2e}"))
            .collect::<Vec<_>>()
            .join(" · ");
        format!("the furthest from the final layer by Jensen–Shannon divergence ({each})")
    };
    html! {
        <p class="dola" data-testid="dola-step" data-layer={layer.to_string()} data-plausible={d.plausible.to_string()}>
            { format!(
                "DoLa: contrasted with layer {layer}, {why}. The knobs see \
                 log p(final layer) − log p(layer {layer}) on the {} tokens within 10% of the \
                 final layer's top probability; the rest are dropped (the funnel's dola_layers \
                 stage). The logit column is the final layer's own.",
                d.plausible
            ) }
        </p>
    }
}

fn contrastive_table(s: &Step, cands: &[ContrastiveCandidate]) -> Html {
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
    let title = "Contrastive candidates: (1 − α)·p − α·max cosine";
    titled_table(
        title,
        "contrastive",
        &["token", "p", "max cosine", "score"],
        rows.collect(),
    )
}

/// What a lane without this step says instead of a table.
fn no_step(lane: usize, r: Option<&LaneResult>) -> Html {
    let text = match r {
        None => "not run yet".to_string(),
        Some(r) => match r.stop {
            Some(reason) => format!(
                "stopped after {} tokens: {}",
                r.steps.len(),
                reason.as_str()
            ),
            None => format!("running… {} tokens so far", r.steps.len()),
        },
    };
    html! {
        <>
            <h3 style={format!("color: {}", lane_color(lane))}>{ format!("Lane {}", lane + 1) }</h3>
            <p class="stopped" data-testid="compare-stopped">{ text }</p>
        </>
    }
}

/// One lane's column: its step's token, the table, the funnel.
fn column(lane: usize, step: &Step, rows: &[Row], p: &Props, one_path: bool) -> Html {
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
                    { format!("Lane {}", lane + 1) }
                    // The view's head says the step; narrow columns leave it out.
                    <span class="at-step">{ format!(" · step {}", p.step + 1) }</span>
                    { format!(" · chose “{}”", visible(&step.token)) }
                </h3>
                <button
                    class="sort"
                    aria-pressed={sorted.to_string()}
                    disabled={sorted}
                    title={if sorted { "the rows are in this lane's order" } else { "sort the rows by this lane's probabilities" }}
                    onclick={p.on.reform(move |_: MouseEvent| CompareAction::SortBy(lane))}
                >
                    { if sorted { "sorted" } else { "sort" } }
                    <span class="sr-only">{ format!(" rows by lane {}", lane + 1) }</span>
                </button>
            </div>
            { summary(step) }
            <table class="compare-table">
                <caption class="sr-only">
                    { format!("Lane {}: each token's probability before and after its knobs.", lane + 1) }
                </caption>
                { table_head(html! {
                    <th scope="col" aria-label="branch" title="branch: every lane continues from here with this token">
                        { "↳" }
                    </th>
                }) }
                <tbody>{ for rows.iter().map(|r| row(lane, r, scale, p, branch)) }</tbody>
            </table>
            { funnel(step) }
            if p.can_branch {
                <button
                    class="try"
                    data-testid="open-sandbox"
                    data-lane={lane.to_string()}
                    onclick={p.on.reform(move |_: MouseEvent| CompareAction::TryKnobs(lane))}
                >
                    { "What if? Try the knobs on this step" }
                </button>
            }
            if let Some(beams) = &step.beams {
                { beams_table(beams) }
            }
            if let Some(cands) = &step.contrastive {
                { contrastive_table(step, cands) }
            }
            if let Some(d) = &step.dola {
                { dola_line(d) }
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
    let rows = rows(&steps, p.sort_by);
    let paths = paths(&results, p.step);
    let mut notes = vec![];
    if !paths.other_text.is_empty() {
        notes.push(format!(
            "{} {} different text before this step: each column is its own lane's context.",
            capitalised(&lane_list(&paths.other_text)),
            if paths.other_text.len() == 1 {
                "has"
            } else {
                "have"
            }
        ));
    }
    if !paths.beams.is_empty() {
        notes.push(format!(
            "{} {} beam search: its step is the best continuation of several beams, not one path.",
            capitalised(&lane_list(&paths.beams)),
            if paths.beams.len() == 1 { "is" } else { "are" }
        ));
    }
    let on = &p.on;
    html! {
        <section
            class="compare"
            data-testid="compare"
            data-step={p.step.to_string()}
            tabindex="0"
            aria-label={format!("step {} in every lane", p.step + 1)}
            ref={node}
            {onkeydown}
        >
            <div class="compare-head">
                <h2>{ format!("Step {} of {} in every lane", p.step + 1, p.longest.max(p.step + 1)) }</h2>
                <button
                    aria-label="previous step"
                    disabled={p.step == 0}
                    onclick={on.reform(|_: MouseEvent| CompareAction::Move(StepMove::Previous))}
                >
                    { "←" }
                </button>
                <button
                    aria-label="next step"
                    disabled={p.step + 1 >= p.longest}
                    onclick={on.reform(|_: MouseEvent| CompareAction::Move(StepMove::Next))}
                >
                    { "→" }
                </button>
                <span class="hint">{ KEYS_HINT }</span>
                { for notes.into_iter().map(|n| html! { <p class="notice" data-testid="compare-paths">{ n }</p> }) }
                <button class="close" aria-label="close" onclick={on.reform(|_: MouseEvent| CompareAction::Close)}>
                    { "×" }
                </button>
            </div>
            <div class="compare-lanes">
                { tokens_column(&rows) }
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
                                column(lane, step, &rows, p, one_path)
                            }
                            None => no_step(lane, results[lane]),
                        } }
                    </div>
                }) }
            </div>
        </section>
    }
}

/// The rows' tokens alone, pinned at the left while the lanes scroll
/// sideways on narrow screens (hidden on wide ones, where every lane's table
/// sits under its lane). Laid out like a lane's column, so rows line up.
fn tokens_column(rows: &[Row]) -> Html {
    html! {
        <div class="compare-tokens" aria-hidden="true">
            <div class="col-head"><h3>{ "\u{a0}" }</h3></div>
            <p class="summary"></p>
            <table class="compare-table">
                <thead><tr><th>{ "token" }</th></tr></thead>
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
