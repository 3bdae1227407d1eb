//! One lane: its knobs, its text as it streams, its status line.

use super::config_editor::ConfigEditor;
use super::lane_text::LaneText;
use crate::i18n::I18n;
use crate::lane_config::{KnobText, LaneKnobs};
use crate::lane_result::LaneResult;
use crate::rc_eq::RcEq;
use crate::state::editor::LaneError;
use crate::state::lane_models::{LaneModel, LaneModelStatus};
use crate::state::lane_outlook::{LaneOutlook, StartsFrom};
use crate::theme::lane_color;
use crate::watermark_check::LaneCheck;
use ntl_decoding::{Defaults, Mode, Semantics};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub index: usize,
    pub config: LaneKnobs,
    pub error: Option<LaneError>,
    pub result: Option<RcEq<LaneResult>>,
    pub selected: Option<usize>,
    pub diverge: Option<usize>,
    /// The watermark detector's word on this lane's text, when a lane has one.
    pub watermark: Option<LaneCheck>,
    /// Embed mode: text and status only, no editors.
    pub compact: bool,
    /// A lesson's question hides what the lane wrote until it is answered.
    #[prop_or_default]
    pub veiled: bool,
    /// The knob editor is unfolded.
    pub open: bool,
    pub on_edit: Callback<()>,
    pub on_field: Callback<(String, String)>,
    pub on_semantics: Callback<Semantics>,
    pub on_mode: Callback<Mode>,
    pub on_json: Callback<String>,
    /// The lane as its JSON box shows it (its model included).
    pub json: String,
    /// The lane's own model (`None`: the page's), and where it stands.
    #[prop_or_default]
    pub model: Option<String>,
    #[prop_or_default]
    pub model_state: Option<LaneModel>,
    #[prop_or_default]
    pub on_model: Callback<String>,
    pub on_select: Callback<usize>,
    /// What the lane takes from the model's generation_config.json.
    /// How the lane will run (model defaults, warnings), derived in state.
    pub outlook: RcEq<LaneOutlook>,
    pub on_starts_from: Callback<Defaults>,
    /// The seed drawn for this lane's run on screen (it asked for a new one).
    #[prop_or_default]
    pub drawn_seed: Option<u32>,
    #[prop_or_default]
    pub on_keep_seed: Callback<()>,
}

/// "Seed 2026148210, drawn for this run" and, in the full page, a button
/// that makes it the lane's own seed.
fn drawn_seed_line(seed: u32, p: &Props, tr: &I18n) -> Html {
    let kept = p.config.seed() == Some(seed as u64);
    html! {
        <p class="drawn-seed" data-testid="drawn-seed" data-seed={seed.to_string()}>
            { tr.t_with("drawn-seed", &[("seed", seed.to_string().into())]) }
            if !p.compact && !kept {
                { " " }
                <button
                    data-testid="keep-seed"
                    title={tr.t("keep-seed-title")}
                    onclick={p.on_keep_seed.reform(|_: MouseEvent| ())}
                >
                    { tr.t("keep-seed") }
                </button>
            }
        </p>
    }
}

/// "Starts from this model's generation_config.json: do_sample true · temperature 0.7 → sampling"
fn starts_from_line(s: &StartsFrom, on: &Callback<Defaults>, tr: &I18n) -> Html {
    let from_model = s.choice == Defaults::Model;
    let onchange = on.reform(move |_: Event| {
        if from_model {
            Defaults::Library
        } else {
            Defaults::Model
        }
    });
    let taken = if s.taken.is_empty() {
        tr.t("starts-from-nothing")
    } else {
        s.taken.join(" · ")
    };
    let mode = tr.mode(s.mode);
    let outcome = match s.other_mode {
        Some(other) => tr.t_with(
            if from_model {
                "starts-from-runs-as-library-other"
            } else {
                "starts-from-runs-as-model-other"
            },
            &[("mode", mode.into()), ("other", tr.mode(other).into())],
        ),
        None => tr.t_with("starts-from-runs-as", &[("mode", mode.into())]),
    };
    html! {
        <p
            class="starts-from"
            data-testid="starts-from"
            data-from={if from_model { "model" } else { "library" }}
            data-mode={s.mode.to_string()}
            title={tr.t("starts-from-title")}
        >
            <label>
                <input type="checkbox" checked={from_model} {onchange} />
                { tr.t("starts-from") }
            </label>
            { tr.t("heading-colon") }
            <code>{ taken }</code>
            { outcome }
        </p>
    }
}

/// "greedy · 12 tokens · 30.1 tokens/s · stopped: eos"
fn status(result: &Option<RcEq<LaneResult>>, config: &LaneKnobs, tr: &I18n) -> String {
    let Some(r) = result else {
        return tr.t("lane-not-run");
    };
    let mode = tr.mode(r.mode.unwrap_or_else(|| config.mode()));
    let speed = r
        .tokens_per_s()
        .map(|t| tr.t_with("lane-speed", &[("speed", format!("{t:.1}").into())]))
        .unwrap_or_default();
    let state = match r.stop {
        Some(s) => tr.t_with("lane-stopped", &[("reason", s.as_str().into())]),
        None => tr.t("lane-running"),
    };
    let tokens = tr.t_with("lane-tokens", &[("tokens", r.steps.len().into())]);
    format!("{mode} · {tokens}{speed} · {state}")
}

/// Warnings by the knob (or funnel stage) they are about. Each keeps to one
/// line until pointed at or focused (the style sheet's), so it is focusable
/// and carries its whole text as hover text too.
fn warning_list(testid: &'static str, items: impl Iterator<Item = (&'static str, String)>) -> Html {
    let items: Vec<Html> = items
        .map(|(field, message)| {
            html! {
                <li data-field={field} tabindex="0" title={message.clone()}>{ message.clone() }</li>
            }
        })
        .collect();
    if items.is_empty() {
        return html! {};
    }
    html! { <ul class="warnings" data-testid={testid}>{ for items }</ul> }
}

fn score_line(result: &LaneResult, tr: &I18n) -> Html {
    let Some(sc) = result.score() else {
        return html! {};
    };
    let text = if sc.impossible > 0 {
        tr.t_with(
            "lane-score-impossible",
            &[
                ("impossible", sc.impossible.into()),
                ("tokens", sc.tokens.into()),
            ],
        )
    } else {
        let (lp, n, ppl) = (sc.log_prob, sc.tokens, sc.perplexity());
        tr.t_with(
            "lane-score",
            &[
                ("logp", format!("{lp:.2}").into()),
                ("tokens", n.into()),
                ("perplexity", format!("{ppl:.1}").into()),
            ],
        )
    };
    html! {
        <p class="score" data-testid="lane-score" data-impossible={sc.impossible.to_string()}>
            { text }
        </p>
    }
}

/// One line: how many of the lane's tokens are green under the key, the
/// z-score and HF's verdict.
fn watermark_line(lane: usize, w: &LaneCheck, tr: &I18n) -> Html {
    let d = &w.detection;
    let key = if w.key_lane == lane {
        tr.t("watermark-own-key")
    } else {
        tr.t_with("watermark-lane-key", &[("lane", (w.key_lane + 1).into())])
    };
    let verdict = tr.t(if d.prediction {
        "watermark-yes"
    } else {
        "watermark-no"
    });
    let expected = w.greenlist_ratio * 100.0;
    html! {
        <p
            class={classes!("watermark-line", d.prediction.then_some("marked"))}
            data-testid="watermark"
            data-z={d.z_score.to_string()}
            data-green={d.num_green_tokens.to_string()}
            data-scored={d.num_tokens_scored.to_string()}
            data-prediction={d.prediction.to_string()}
            title={tr.t("watermark-title")}
        >
            { tr.t_with("watermark-check", &[
                ("key", key.into()),
                ("green", d.num_green_tokens.into()),
                ("scored", d.num_tokens_scored.into()),
                ("share", format!("{:.0}", d.green_fraction * 100.0).into()),
                ("expected", format!("{expected:.0}").into()),
                ("z", format!("{:.2}", d.z_score).into()),
                ("verdict", verdict.into()),
            ]) }
        </p>
    }
}

/// A lane's several sequences (beams, or num_return_sequences samples).
fn sequences(result: &Option<RcEq<LaneResult>>, tr: &I18n) -> Html {
    let Some(r) = result.as_ref().filter(|r| r.sequences.len() > 1) else {
        return html! {};
    };
    html! {
        <ol class="sequences" data-testid="sequences">
            { for r.sequences.iter().enumerate().map(|(k, s)| html! {
                <li data-testid="sequence">
                    { match s.score {
                        // Beams: their score. Samples: which one, and how likely it was.
                        Some(score) => format!("{score:.3} · {}", s.text),
                        None => {
                            // The first sample's steps are the lane's own.
                            let lp: f64 = if k == 0 {
                                r.steps.iter().map(|st| f64::from(st.chosen_prob).ln()).sum()
                            } else {
                                s.steps.iter().map(|st| f64::from(st.chosen_prob).ln()).sum()
                            };
                            tr.t_with("lane-sample", &[
                                ("sample", (k + 1).into()),
                                ("logp", format!("{lp:.2}").into()),
                                ("text", s.text.as_str().into()),
                            ])
                        }
                    } }
                </li>
            }) }
        </ol>
    }
}

/// "On models/tutorial-minigpt/ · 6.4 MB download, about 60 MB in memory ·
/// loading 40 %": the lane's own model, what it costs, where it stands.
fn model_line(name: &str, state: Option<&LaneModel>, tr: &I18n) -> Html {
    let cost = state.and_then(|m| m.cost).map(|c| {
        tr.t_with(
            "lane-model-cost",
            &[
                ("download", crate::format::bytes(c.download).into()),
                ("memory", crate::format::bytes(c.memory).into()),
            ],
        )
    });
    let (status, words) = match state.map(|m| &m.status) {
        None => ("named", None),
        Some(LaneModelStatus::Measuring) => ("measuring", Some(tr.t("lane-model-measuring"))),
        Some(LaneModelStatus::Sized) => ("sized", Some(tr.t("lane-model-sized"))),
        Some(LaneModelStatus::Queued) => ("queued", Some(tr.t("lane-model-queued"))),
        Some(LaneModelStatus::Loading { loaded, total, .. }) => (
            "loading",
            Some(match total {
                Some(t) if *t > 0 => tr.t_with(
                    "lane-model-loading-share",
                    &[("percent", (loaded * 100 / t).to_string().into())],
                ),
                _ => tr.t("lane-model-loading"),
            }),
        ),
        Some(LaneModelStatus::Ready { info }) => (
            "ready",
            Some(tr.t_with(
                "lane-model-ready",
                &[
                    ("layers", info.n_layer.to_string().into()),
                    ("vocab", info.vocab_size.to_string().into()),
                ],
            )),
        ),
        Some(LaneModelStatus::Failed(_)) => ("failed", Some(tr.t("lane-model-failed"))),
    };
    let parts: Vec<String> = [cost, words].into_iter().flatten().collect();
    html! {
        <p class="lane-model" data-testid="lane-model" data-model={name.to_string()} data-status={status}>
            { tr.t("lane-model-on") }{ " " }<code>{ name }</code>
            if !parts.is_empty() {
                { " · " }{ parts.join(" · ") }
            }
        </p>
    }
}

#[function_component(LaneColumn)]
pub fn lane_column(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let warnings = &p.outlook.warnings;
    let finished = p.result.as_ref().filter(|r| r.stop.is_some());
    let run_notes = finished.map(|r| r.run_warnings()).unwrap_or_default();
    let run_id = p
        .result
        .as_ref()
        .map(|r| r.run_id.to_string())
        .unwrap_or_default();
    let stop = p
        .result
        .as_ref()
        .and_then(|r| r.stop)
        .map(|s| s.as_str())
        .unwrap_or("");
    let summary = p
        .config
        .to_json()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let editor_id = format!("lane-editor-{}", p.index);
    html! {
        <section class="lane" data-testid={format!("lane-{}", p.index)}>
            <h2 style={format!("color: {}", lane_color(p.index))}>
                { tr.t_with("lane-heading", &[("lane", (p.index + 1).into())]) }
            </h2>
            if let Some(name) = &p.model {
                { model_line(name, p.model_state.as_ref(), &tr) }
            }
            if p.compact {
                <p class="config-summary" data-testid="config-summary"><code>{ summary }</code></p>
                if let Some(e) = &p.error {
                    <p class="error" data-testid="lane-error">{ tr.said(&e.message) }</p>
                }
            } else {
                <div class="lane-summary" data-testid="lane-summary">
                    <code>{ p.config.summary(&tr) }</code>
                    <button
                        data-testid="lane-edit"
                        aria-expanded={p.open.to_string()}
                        aria-controls={editor_id.clone()}
                        onclick={p.on_edit.reform(|_: MouseEvent| ())}
                    >
                        { tr.t(if p.open { "lane-edit-done" } else { "lane-edit" }) }
                    </button>
                </div>
                if let Some(starts) = &p.outlook.starts_from {
                    { starts_from_line(starts, &p.on_starts_from, &tr) }
                }
                <div id={editor_id} class="lane-editor" hidden={!p.open}>
                    <ConfigEditor
                        index={p.index}
                        config={p.config.clone()}
                        error={p.error.clone()}
                        on_field={p.on_field.clone()}
                        on_semantics={p.on_semantics.clone()}
                        on_mode={p.on_mode.clone()}
                        on_json={p.on_json.clone()}
                        json={p.json.clone()}
                        model={p.model.clone()}
                        on_model={p.on_model.clone()}
                    />
                </div>
            }
            { warning_list("lane-warnings", warnings.iter().map(|n| {
                let words = tr.note(&n.note);
                let words = if n.from_file {
                    words + &tr.t_with("note-from-file", &[("knob", n.field.into())])
                } else {
                    words
                };
                (n.field, words)
            })) }
            if p.veiled {
                <p class="veil" data-testid="lane-veiled">
                    { tr.t("lane-veiled") }
                </p>
            } else {
                <LaneText
                    result={p.result.clone()}
                    selected={p.selected}
                    diverge={p.diverge}
                    green={p.watermark.as_ref().map(|w| w.green.clone())}
                    on_select={p.on_select.clone()}
                />
                if let Some(w) = &p.watermark {
                    { watermark_line(p.index, w, &tr) }
                }
                if let Some(r) = finished {
                    { score_line(r, &tr) }
                }
            }
            <div class="lane-status" data-testid="lane-status" data-run={run_id} data-stop={stop}>
                { if p.veiled { "—".to_string() } else { status(&p.result, &p.config, &tr) } }
            </div>
            if let Some(seed) = p.drawn_seed.filter(|_| !p.veiled) {
                { drawn_seed_line(seed, p, &tr) }
            }
            if !p.veiled {
                { warning_list("run-warnings", run_notes.iter().map(|w| (w.field.name(), tr.note(&w.note)))) }
                { sequences(&p.result, &tr) }
            }
        </section>
    }
}
