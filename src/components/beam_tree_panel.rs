//! A beam lane's search as a tree: every continuation each step weighed,
//! under the beam it extended, kept, finished or dropped, with its sum of
//! log-probabilities; the path of the text the search returned drawn thick.
//! A node opens its step's tables in every lane.

use super::sample_tree_panel::select_value;
use crate::format::{boxed, prompt_tail, visible};
use crate::i18n::I18n;
use crate::state::beam_tree::{BeamTreeAction, ShownBeamTree};
use crate::tree_layout::{layout, ItemKind, BOX_H, BOX_W};
use ntl_decoding::beam_tree::{BeamFate, BeamNode};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub shown: ShownBeamTree,
    /// The prompt the run continued.
    pub prompt: String,
    pub on: Callback<BeamTreeAction>,
}

/// The drawing's own style, inside the SVG so a saved file looks the same;
/// the page's theme colours where it is shown, their light values where not.
const SVG_STYLE: &str = "\
.tree-svg{font:12px system-ui,sans-serif}\
.tree-svg .bt-edge{fill:none;stroke:var(--bar-raw,#a8a29e);stroke-width:1.5}\
.tree-svg .bt-edge.bt-dropped{stroke-dasharray:4 3}\
.tree-svg .bt-edge.bt-answer{stroke:var(--accent,#c2410c);stroke-width:4}\
.tree-svg rect{fill:var(--panel,#fff);stroke:var(--line,#bdb8ae)}\
.tree-svg .bt-kept rect{stroke:var(--fg,#1d1d1f)}\
.tree-svg .bt-finished rect{stroke:var(--ok,#15803d);stroke-width:2}\
.tree-svg .bt-dropped rect{stroke-dasharray:3 2}\
.tree-svg .bt-answer rect{stroke:var(--accent,#c2410c);stroke-width:2.5}\
.tree-svg .bt-open rect{stroke:var(--focus,#2563eb);stroke-width:3}\
.tree-svg text{fill:var(--fg,#1d1d1f)}\
.tree-svg .bt-fate{fill:var(--muted,#5f5f64)}\
.tree-svg .bt-score{font-weight:600}\
.tree-svg .bt-node{cursor:pointer}\
.tree-svg .bt-node:focus{outline:none}\
.tree-svg .bt-node:focus-visible rect{stroke:var(--focus,#2563eb);stroke-width:3}";

fn fate_class(fate: BeamFate) -> &'static str {
    match fate {
        BeamFate::Kept => "bt-kept",
        BeamFate::Finished => "bt-finished",
        BeamFate::Dropped => "bt-dropped",
    }
}

fn fate_key(fate: BeamFate) -> &'static str {
    match fate {
        BeamFate::Kept => "beam-fate-kept",
        BeamFate::Finished => "beam-fate-finished",
        BeamFate::Dropped => "beam-fate-dropped",
    }
}

/// What a node's box says after its token: ■ where a hypothesis ended, ★
/// on the text returned, #k on the other returned sequences.
fn marks(n: &BeamNode) -> String {
    let ended = if n.fate == BeamFate::Finished {
        " ■"
    } else {
        ""
    };
    let returned = match n.returned {
        Some(0) => " ★".to_string(),
        Some(k) => format!(" #{}", k + 1),
        None => String::new(),
    };
    format!("{ended}{returned}")
}

#[function_component(BeamTreePanel)]
pub fn beam_tree_panel(props: &Props) -> Html {
    let i18n = use_context::<I18n>().expect("the page provides I18n");
    let svg_ref = use_node_ref();
    let shown = &props.shown;
    let tree = &shown.tree;
    let [kept, finished, dropped] = tree.counts();
    let summary = if shown.growing {
        i18n.t_with(
            "beam-tree-summary-growing",
            &[
                ("lane", (shown.lane + 1).into()),
                ("weighed", tree.nodes.len().into()),
                ("steps", tree.steps.into()),
            ],
        )
    } else {
        i18n.t_with(
            "beam-tree-summary",
            &[
                ("lane", (shown.lane + 1).into()),
                ("weighed", tree.nodes.len().into()),
                ("steps", tree.steps.into()),
                ("kept", kept.into()),
                ("finished", finished.into()),
                ("dropped", dropped.into()),
            ],
        )
    };
    let lane_picker = (shown.lanes.len() > 1).then(|| {
        let on = props.on.clone();
        let onchange = Callback::from(move |e: Event| {
            if let Some(l) = select_value(&e) {
                on.emit(BeamTreeAction::Lane(l));
            }
        });
        let options = shown.lanes.iter().map(|&l| {
            html! { <option value={l.to_string()} selected={shown.lane == l}>{ i18n.t_with("tree-lane-n", &[("lane", (l + 1).into())]) }</option> }
        });
        html! {
            <p class="tree-controls">
                <label>{ i18n.t("tree-lane") }
                    <select data-testid="beam-tree-lane" {onchange}>{ for options }</select>
                </label>
            </p>
        }
    });
    let l = layout(tree, shown.open);
    let node_at = |item: &crate::tree_layout::Item| match item.kind {
        ItemKind::Node(id) => Some((id, &tree.nodes[id as usize])),
        ItemKind::More { .. } => None,
    };
    let edges = l.items.iter().filter_map(|item| {
        let (_, n) = node_at(item)?;
        let (x1, y1) = item.from;
        let (x2, y2) = (item.x, item.y + BOX_H / 2.0);
        let mid = (x1 + x2) / 2.0;
        Some(html! {
            <path class={classes!("bt-edge", fate_class(n.fate), n.on_answer.then_some("bt-answer"))}
                d={format!("M{x1:.1} {y1:.1}C{mid:.1} {y1:.1} {mid:.1} {y2:.1} {x2:.1} {y2:.1}")} />
        })
    });
    let items = l.items.iter().filter_map(|item| {
        let (id, n) = node_at(item)?;
        let (x, y) = (item.x, item.y);
        let fate = i18n.t(fate_key(n.fate));
        let token = format!("{}{}", boxed(&n.token), marks(n));
        let score = format!("{:.2}", n.score);
        let described = i18n.t_with(
            "beam-tree-node-title",
            &[
                ("step", (n.step + 1).into()),
                ("token", visible(&n.token).into()),
                ("score", score.clone().into()),
                ("fate", fate.clone().into()),
            ],
        );
        // The name starts with the words the box shows (what a voice-control
        // user says), then says them in full.
        let label = format!("{token} {score} {fate} — {described}");
        let on = props.on.clone();
        let onclick = Callback::from(move |_| on.emit(BeamTreeAction::Select(id)));
        let on = props.on.clone();
        let onkeydown = Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                on.emit(BeamTreeAction::Select(id));
            }
        });
        let open = shown.open == Some(id);
        Some(html! {
            <g class={classes!("bt-node", fate_class(n.fate), n.on_answer.then_some("bt-answer"), open.then_some("bt-open"))}
                data-testid="beam-tree-node" data-node={id.to_string()} data-step={n.step.to_string()}
                data-fate={fate_class(n.fate).trim_start_matches("bt-").to_string()}
                data-answer={n.on_answer.to_string()}
                tabindex="0" role="button" aria-label={label} aria-pressed={open.to_string()}
                {onclick} {onkeydown}>
                <title>{ described }</title>
                <rect x={format!("{x:.1}")} y={format!("{y:.1}")} width={BOX_W.to_string()} height={BOX_H.to_string()} rx="4" />
                <text>
                    <tspan class="tok" x={format!("{:.1}", x + 6.0)} y={format!("{:.1}", y + 15.0)}>{ token }</tspan>{ " " }
                    <tspan class="bt-score" x={format!("{:.1}", x + BOX_W + 5.0)} y={format!("{:.1}", y + 10.0)}>{ score }</tspan>{ " " }
                    <tspan class="bt-fate" x={format!("{:.1}", x + BOX_W + 5.0)} y={format!("{:.1}", y + 21.0)}>{ fate }</tspan>
                </text>
            </g>
        })
    });
    let (rx, ry) = l.root;
    let on = props.on.clone();
    let export_json = Callback::from(move |_| on.emit(BeamTreeAction::ExportJson));
    let on = props.on.clone();
    let svg = svg_ref.clone();
    let export_svg = Callback::from(move |_| {
        if let Some(el) = svg.cast::<web_sys::Element>() {
            on.emit(BeamTreeAction::ExportSvg(el.outer_html()));
        }
    });
    let open = shown.open.map(|id| {
        let n = &tree.nodes[id as usize];
        let text: String = tree
            .path(id)
            .iter()
            .map(|&p| tree.nodes[p as usize].token.as_str())
            .collect();
        let mut words = i18n.t_with(
            "beam-tree-open",
            &[
                ("step", (n.step + 1).into()),
                ("score", format!("{:.2}", n.score).into()),
                ("fate", i18n.t(fate_key(n.fate)).into()),
            ],
        );
        if let Some(k) = n.returned {
            words.push(' ');
            words.push_str(&i18n.t_with("beam-tree-returned", &[("k", (k + 1).into())]));
        }
        html! {
            <div class="tree-path" data-testid="beam-tree-path">
                <p>
                    <span class="muted tok">{ visible(&props.prompt) }</span>
                    <strong class="tok" data-testid="beam-tree-path-text">{ visible(&text) }</strong>
                </p>
                <p>{ words }</p>
            </div>
        }
    });
    html! {
        <section class="tree beam-tree" data-testid="beam-tree" aria-labelledby="beam-tree-title">
            <h2 id="beam-tree-title">{ i18n.t("beam-tree-title") }</h2>
            <p class="muted">{ i18n.t("beam-tree-intro") }</p>
            { for lane_picker }
            <p data-testid="beam-tree-summary" aria-live="polite">{ summary }</p>
            <p class="muted">{ i18n.t("beam-tree-legend") }</p>
            <div class="tree-scroll">
                <svg ref={svg_ref} class="tree-svg" data-testid="beam-tree-svg" xmlns="http://www.w3.org/2000/svg"
                    width={format!("{:.0}", l.width)} height={format!("{:.0}", l.height)}
                    viewBox={format!("0 0 {:.0} {:.0}", l.width, l.height)} role="group"
                    aria-label={i18n.t("beam-tree-svg-label")}>
                    <style>{ SVG_STYLE }</style>
                    { for edges }
                    <g class="bt-root">
                        <rect x={format!("{rx:.1}")} y={format!("{ry:.1}")} width={BOX_W.to_string()} height={BOX_H.to_string()} rx="4" />
                        <text class="tok" x={format!("{:.1}", rx + 6.0)} y={format!("{:.1}", ry + 15.0)}>{ prompt_tail(&props.prompt) }</text>
                    </g>
                    { for items }
                </svg>
            </div>
            { for open }
            <p class="tree-exports">
                <button data-testid="beam-tree-export-json" onclick={export_json}>{ i18n.t("beam-tree-export-json") }</button>
                <button data-testid="beam-tree-export-svg" onclick={export_svg}>{ i18n.t("tree-export-svg") }</button>
            </p>
        </section>
    }
}
