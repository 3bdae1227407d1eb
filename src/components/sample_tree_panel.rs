//! Many samples of one lane as a tree: the settings, the progress while it
//! grows, the drawing (a column per token, each branch with the share of
//! samples that wrote it beside the probability the sampler gave it), the
//! open branch's path, and the exports.

use crate::format::{boxed, prob, prompt_tail, visible};
use crate::i18n::I18n;
use crate::rc_eq::RcEq;
use crate::state::sample_tree::{Grown, TreePanel, SAMPLE_CHOICES};
use crate::state::tree_steps::{TreeAction, TreeSetting};
use crate::tree_layout::{layout, ItemKind, BOX_H, BOX_W};
use ntl_decoding::sample_tree::{TreeNode, MAX_TREE_TOKENS};
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub tree: RcEq<TreePanel>,
    /// Lanes on the page (the tree may run any of them).
    pub lanes: usize,
    pub model_ready: bool,
    pub on: Callback<TreeAction>,
}

/// The drawing's own style, inside the SVG so a saved file looks the same;
/// the page's theme colours where it is shown, their light values where not.
const SVG_STYLE: &str = "\
.tree-svg{font:12px system-ui,sans-serif}\
.tree-svg .st-edge{fill:none;stroke:var(--bar-raw,#a8a29e);stroke-opacity:.75}\
.tree-svg .st-edge.st-on{stroke:var(--accent,#c2410c);stroke-opacity:1}\
.tree-svg rect{fill:var(--panel,#fff);stroke:var(--line,#bdb8ae)}\
.tree-svg .st-on rect{stroke:var(--accent,#c2410c);stroke-width:2}\
.tree-svg text{fill:var(--fg,#1d1d1f)}\
.tree-svg .st-prob,.tree-svg .st-more text{fill:var(--muted,#5f5f64)}\
.tree-svg .st-share{font-weight:600}\
.tree-svg .st-node{cursor:pointer}\
.tree-svg .st-node:focus{outline:none}\
.tree-svg .st-node:focus-visible rect{stroke:var(--focus,#2563eb);stroke-width:3}";

fn percent(x: f64) -> String {
    prob(x as f32)
}

/// The number a `<select>` holds (both tree panels' pickers).
pub(super) fn select_value(e: &Event) -> Option<usize> {
    e.target()?
        .dyn_into::<web_sys::HtmlSelectElement>()
        .ok()?
        .value()
        .parse()
        .ok()
}

#[function_component(SampleTreePanel)]
pub fn sample_tree_panel(props: &Props) -> Html {
    let i18n = use_context::<I18n>().expect("the page provides I18n");
    let tree = &props.tree;
    let on = props.on.clone();
    let setting = |make: fn(usize) -> TreeSetting| {
        let on = on.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e) {
                on.emit(TreeAction::Set(make(v)));
            }
        })
    };
    let lane_options = (0..props.lanes).map(|l| {
        html! { <option value={l.to_string()} selected={tree.lane == l}>{ i18n.t_with("tree-lane-n", &[("lane", (l + 1).into())]) }</option> }
    });
    // A lesson may ask for a count the menu does not offer: it is listed too.
    let mut counts = SAMPLE_CHOICES.to_vec();
    if !counts.contains(&tree.samples) {
        counts.push(tree.samples);
        counts.sort_unstable();
    }
    let sample_options = counts.into_iter().map(|n| {
        html! { <option value={n.to_string()} selected={tree.samples == n}>{ n }</option> }
    });
    let token_options = (1..=MAX_TREE_TOKENS).map(|n| {
        html! { <option value={n.to_string()} selected={tree.tokens == n}>{ n }</option> }
    });
    let growing = tree.growing;
    let button = match growing {
        Some(_) => {
            let on = on.clone();
            html! { <button data-testid="tree-cancel" onclick={move |_| on.emit(TreeAction::Cancel)}>{ i18n.t("tree-cancel") }</button> }
        }
        None => {
            let on = on.clone();
            html! {
                <button class="primary" data-testid="tree-grow" disabled={!props.model_ready}
                    onclick={move |_| on.emit(TreeAction::Grow)}>{ i18n.t("tree-grow") }</button>
            }
        }
    };
    let progress = growing.map(|g| {
        let words = i18n.t_with(
            "tree-progress",
            &[
                ("level", g.level.into()),
                ("levels", g.levels.into()),
                ("rows", g.rows.into()),
            ],
        );
        html! {
            <p class="tree-growing">
                <progress data-testid="tree-progress" max="1" value={format!("{:.3}", g.fraction)} aria-label={words.clone()}></progress>
                <span aria-live="polite">{ words }</span>
            </p>
        }
    });
    let error = tree.error.as_ref().map(|e| {
        html! { <p class="error" data-testid="tree-error" role="alert">{ i18n.said(e) }</p> }
    });
    html! {
        <section class="tree" data-testid="tree" aria-labelledby="tree-title">
            <h2 id="tree-title">{ i18n.t("tree-title") }</h2>
            <p class="muted">{ i18n.t("tree-intro") }</p>
            <div class="tree-controls">
                <label>{ i18n.t("tree-lane") }
                    <select data-testid="tree-lane" onchange={setting(TreeSetting::Lane)}>{ for lane_options }</select>
                </label>
                <label>{ i18n.t("tree-samples") }
                    <select data-testid="tree-samples" onchange={setting(TreeSetting::Samples)}>{ for sample_options }</select>
                </label>
                <label>{ i18n.t("tree-tokens") }
                    <select data-testid="tree-tokens" onchange={setting(TreeSetting::Tokens)}>{ for token_options }</select>
                </label>
                { button }
            </div>
            { for progress }
            { for error }
            if let Some(grown) = &tree.grown {
                <GrownTree grown={grown.clone()} selected={tree.selected} on={on.clone()} />
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct GrownProps {
    grown: Grown,
    selected: Option<u32>,
    on: Callback<TreeAction>,
}

#[function_component(GrownTree)]
fn grown_tree(props: &GrownProps) -> Html {
    let i18n = use_context::<I18n>().expect("the page provides I18n");
    let svg_ref = use_node_ref();
    let doc = &props.grown.doc;
    let t = &doc.tree;
    let seed = match &t.config {
        ntl_decoding::LaneConfig::Transformers(c) => c.seed.unwrap_or(0),
        _ => 0,
    };
    let summary = i18n.t_with(
        if t.complete {
            "tree-summary"
        } else {
            "tree-summary-cancelled"
        },
        &[
            ("samples", t.samples.into()),
            ("lane", (props.grown.lane + 1).into()),
            ("seed", seed.to_string().into()),
            ("tokens", t.tokens.into()),
            ("branches", t.nodes.len().into()),
            ("rows", t.rows.into()),
            ("separate", (t.samples * t.tokens).into()),
            ("seconds", format!("{:.1}", props.grown.ms / 1000.0).into()),
        ],
    );
    let l = layout(t, props.selected);
    let title = |n: &TreeNode| {
        i18n.t_with(
            "tree-node-title",
            &[
                ("token", visible(&n.token).into()),
                ("count", n.count.into()),
                ("samples", t.samples.into()),
                ("share", percent(n.share).into()),
                ("prob", percent(n.path_prob).into()),
                ("raw", percent(n.path_raw_prob).into()),
            ],
        )
    };
    let edges = l.items.iter().map(|item| {
        let (x1, y1) = item.from;
        let (x2, y2) = (item.x, item.y + BOX_H / 2.0);
        let mid = (x1 + x2) / 2.0;
        let width = 1.0 + 9.0 * item.share;
        html! {
            <path class={classes!("st-edge", item.on_path.then_some("st-on"))}
                d={format!("M{x1:.1} {y1:.1}C{mid:.1} {y1:.1} {mid:.1} {y2:.1} {x2:.1} {y2:.1}")}
                stroke-width={format!("{width:.2}")} />
        }
    });
    let items = l.items.iter().map(|item| {
        let (x, y) = (item.x, item.y);
        match item.kind {
            ItemKind::Node(id) => {
                let n = &t.nodes[id as usize];
                let ended = n.stop.map(|_| " ■").unwrap_or_default();
                let (token, share, path) = (
                    format!("{}{ended}", boxed(&n.token)),
                    percent(n.share),
                    format!("p {}", percent(n.path_prob)),
                );
                // The name starts with the words the box shows (what a
                // voice-control user says), then says them in full.
                let described = title(n);
                let label = format!("{token} {share} {path} — {described}");
                let on = props.on.clone();
                let onclick = Callback::from(move |_| on.emit(TreeAction::Select(id)));
                let on = props.on.clone();
                let onkeydown = Callback::from(move |e: KeyboardEvent| {
                    if e.key() == "Enter" || e.key() == " " {
                        e.prevent_default();
                        on.emit(TreeAction::Select(id));
                    }
                });
                html! {
                    <g class={classes!("st-node", item.on_path.then_some("st-on"))} data-testid="tree-node"
                        data-node={id.to_string()} data-count={n.count.to_string()} tabindex="0" role="button"
                        aria-label={label.clone()} aria-pressed={(props.selected == Some(id)).to_string()}
                        {onclick} {onkeydown}>
                        <title>{ described }</title>
                        <rect x={format!("{x:.1}")} y={format!("{y:.1}")} width={BOX_W.to_string()} height={BOX_H.to_string()} rx="4" />
                        // One text, its parts placed apart: spaces between them, so
                        // the box reads as its name says it.
                        <text>
                            <tspan class="tok" x={format!("{:.1}", x + 6.0)} y={format!("{:.1}", y + 15.0)}>{ token }</tspan>{ " " }
                            <tspan class="st-share" x={format!("{:.1}", x + BOX_W + 5.0)} y={format!("{:.1}", y + 10.0)}>{ share }</tspan>{ " " }
                            <tspan class="st-prob" x={format!("{:.1}", x + BOX_W + 5.0)} y={format!("{:.1}", y + 21.0)}>{ path }</tspan>
                        </text>
                    </g>
                }
            }
            ItemKind::More { branches, count } => html! {
                <g class="st-more">
                    <text x={format!("{:.1}", x + 2.0)} y={format!("{:.1}", y + 15.0)}>
                        { i18n.t_with("tree-more", &[("branches", branches.into()), ("count", count.into()), ("share", percent(item.share).into())]) }
                    </text>
                </g>
            },
        }
    });
    let tail = prompt_tail(&doc.prompt);
    let (rx, ry) = l.root;
    let on = props.on.clone();
    let export_json = Callback::from(move |_| on.emit(TreeAction::ExportJson));
    let on = props.on.clone();
    let svg = svg_ref.clone();
    let export_svg = Callback::from(move |_| {
        if let Some(el) = svg.cast::<web_sys::Element>() {
            on.emit(TreeAction::ExportSvg(el.outer_html()));
        }
    });
    let path = crate::state::sample_tree::path_to(&t.nodes, props.selected.unwrap_or(u32::MAX));
    html! {
        <div class="tree-grown">
            <p data-testid="tree-summary">{ summary }</p>
            <p class="muted">{ i18n.t("tree-legend") }</p>
            <div class="tree-scroll">
                <svg ref={svg_ref} class="tree-svg" data-testid="tree-svg" xmlns="http://www.w3.org/2000/svg"
                    width={format!("{:.0}", l.width)} height={format!("{:.0}", l.height)}
                    viewBox={format!("0 0 {:.0} {:.0}", l.width, l.height)} role="group"
                    aria-label={i18n.t("tree-svg-label")}>
                    <style>{ SVG_STYLE }</style>
                    { for edges }
                    <g class="st-root">
                        <rect x={format!("{rx:.1}")} y={format!("{ry:.1}")} width={BOX_W.to_string()} height={BOX_H.to_string()} rx="4" />
                        <text class="tok" x={format!("{:.1}", rx + 6.0)} y={format!("{:.1}", ry + 15.0)}>{ tail }</text>
                    </g>
                    { for items }
                </svg>
            </div>
            if !path.is_empty() {
                <BranchPath grown={props.grown.clone()} selected={props.selected.unwrap_or(0)} on={props.on.clone()} />
            }
            <p class="tree-exports">
                <button data-testid="tree-export-json" onclick={export_json}>{ i18n.t("tree-export-json") }</button>
                <button data-testid="tree-export-svg" onclick={export_svg}>{ i18n.t("tree-export-svg") }</button>
            </p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct PathProps {
    grown: Grown,
    selected: u32,
    on: Callback<TreeAction>,
}

/// The open branch: its text, each token's probabilities, and its share
/// beside the probability of the whole path.
#[function_component(BranchPath)]
fn branch_path(props: &PathProps) -> Html {
    let i18n = use_context::<I18n>().expect("the page provides I18n");
    let t = &props.grown.doc.tree;
    let path = crate::state::sample_tree::path_to(&t.nodes, props.selected);
    let Some(last) = path.last() else {
        return html! {};
    };
    let text: String = path.iter().map(|n| n.token.as_str()).collect();
    let rows = path.iter().map(|n| {
        html! {
            <tr>
                <td class="tok">{ visible(&n.token) }</td>
                <td>{ n.count }</td>
                <td>{ percent(n.prob as f64) }</td>
                <td>{ percent(n.raw_prob as f64) }</td>
            </tr>
        }
    });
    let on = props.on.clone();
    html! {
        <div class="tree-path" data-testid="tree-path">
            <p>
                <span class="muted tok">{ visible(&props.grown.doc.prompt) }</span>
                <strong class="tok" data-testid="tree-path-text">{ visible(&text) }</strong>
            </p>
            <p data-testid="tree-path-share">{ i18n.t_with("tree-path-share", &[
                ("count", last.count.into()),
                ("samples", t.samples.into()),
                ("share", percent(last.share).into()),
                ("prob", percent(last.path_prob).into()),
                ("raw", percent(last.path_raw_prob).into()),
            ]) }</p>
            <table class="tree-path-table">
                <thead><tr>
                    <th scope="col">{ i18n.t("tree-col-token") }</th>
                    <th scope="col">{ i18n.t("tree-col-count") }</th>
                    <th scope="col">{ i18n.t("tree-col-prob") }</th>
                    <th scope="col">{ i18n.t("tree-col-raw") }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <button data-testid="tree-follow" onclick={move |_| on.emit(TreeAction::Follow)}>{ i18n.t("tree-follow") }</button>
        </div>
    }
}
