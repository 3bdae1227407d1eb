//! One lane: its knobs, its text as it streams, its status line.

use super::config_editor::ConfigEditor;
use super::lane_text::LaneText;
use super::plots::LANE_COLORS;
use crate::lane_config::LaneConfig;
use crate::lane_result::LaneResult;
use ntl_decoding::warnings::config_warnings;
use ntl_decoding::{ConfigError, Mode};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub index: usize,
    pub config: LaneConfig,
    pub error: Option<ConfigError>,
    pub result: Option<LaneResult>,
    pub running: bool,
    pub selected: Option<usize>,
    pub diverge: Option<usize>,
    /// Embed mode: text and status only, no editors.
    pub compact: bool,
    pub on_field: Callback<(&'static str, String)>,
    pub on_mode: Callback<Mode>,
    pub on_json: Callback<String>,
    pub on_select: Callback<usize>,
}

#[function_component(LaneColumn)]
pub fn lane_column(p: &Props) -> Html {
    let warnings = p
        .config
        .config()
        .map(|c| config_warnings(&c))
        .unwrap_or_default();
    let run_notes = p
        .result
        .as_ref()
        .filter(|r| r.stop.is_some())
        .map(LaneResult::run_warnings)
        .unwrap_or_default();
    let status = match &p.result {
        None => "not run yet".to_string(),
        Some(r) => {
            let mode = if r.mode.is_empty() {
                p.config.mode().as_str().to_string()
            } else {
                r.mode.clone()
            };
            let speed = r
                .tokens_per_s()
                .map(|t| format!(" · {t:.1} tokens/s"))
                .unwrap_or_default();
            let state = match r.stop {
                Some(s) => format!("stopped: {}", s.as_str()),
                None => "running…".into(),
            };
            format!("{mode} · {} tokens{speed} · {state}", r.steps.len())
        }
    };
    html! {
        <section class="lane" data-testid={format!("lane-{}", p.index)}>
            <h2 style={format!("color: {}", LANE_COLORS[p.index % LANE_COLORS.len()])}>{ format!("Lane {}", p.index + 1) }</h2>
            if p.compact {
                <p class="config-summary" data-testid="config-summary"><code>{ p.config.to_json().split_whitespace().collect::<Vec<_>>().join(" ") }</code></p>
                if let Some(e) = &p.error { <p class="error" data-testid="lane-error">{ e.to_string() }</p> }
            } else {
                <ConfigEditor index={p.index} config={p.config.clone()} error={p.error.clone()}
                    on_field={p.on_field.clone()} on_mode={p.on_mode.clone()} on_json={p.on_json.clone()} />
            }
            if !warnings.is_empty() {
                <ul class="warnings" data-testid="lane-warnings">
                    { for warnings.iter().map(|w| html! { <li data-field={w.field.clone()}>{ w.message.clone() }</li> }) }
                </ul>
            }
            <LaneText result={p.result.clone()} selected={p.selected} diverge={p.diverge} on_select={p.on_select.clone()} />
            if let Some(sc) = p.result.as_ref().filter(|r| r.stop.is_some()).and_then(LaneResult::score) {
                <p class="score" data-testid="lane-score" data-impossible={sc.impossible.to_string()}>
                    { if sc.impossible > 0 {
                        format!("This lane's knobs made {} of the {} tokens impossible (struck out): the text has probability 0 here.", sc.impossible, sc.tokens)
                    } else {
                        format!("log p = {:.2} over {} tokens · perplexity {:.1}", sc.log_prob, sc.tokens, sc.perplexity())
                    } }
                </p>
            }
            <div class="lane-status" data-testid="lane-status" data-run={p.result.as_ref().map(|r| r.run_id.to_string()).unwrap_or_default()} data-stop={p.result.as_ref().and_then(|r| r.stop).map(|s| s.as_str()).unwrap_or("")}>{ status }</div>
            if !run_notes.is_empty() {
                <ul class="warnings" data-testid="run-warnings">
                    { for run_notes.iter().map(|w| html! { <li data-field={w.field.clone()}>{ w.message.clone() }</li> }) }
                </ul>
            }
            if let Some(r) = p.result.as_ref().filter(|r| r.sequences.len() > 1) {
                <ol class="sequences">
                    { for r.sequences.iter().map(|s| html! { <li>{ format!("{:.3} · {}", s.score.unwrap_or(f32::NAN), s.text) }</li> }) }
                </ol>
            }
        </section>
    }
}
