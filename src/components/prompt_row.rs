//! The prompt and what to do with it: the lessons, Run / Stop / Re-roll,
//! shared randomness, a text to score.

use crate::components::help::Help;
use crate::components::lesson_player::{LessonPlayerView, PlayerAction};
use crate::i18n::I18n;
use crate::lesson_check::Line;
use crate::lessons::{built_in, LessonFrom};
use crate::state::lesson_player::LessonPlayer;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// What the row asks the page to do.
pub enum PromptAction {
    Prompt(String),
    /// Open the n-th built-in lesson.
    Preset(usize),
    /// The open lesson's player.
    Lesson(PlayerAction),
    Run,
    Stop,
    /// One lane more (a copy of the last) or the last one fewer.
    AddLane,
    RemoveLane,
    Reroll,
    SharedRandomness(bool),
    ScoreText(String),
    Score,
    NegativePrompt(String),
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub prompt: AttrValue,
    pub player: LessonPlayer,
    pub shared_randomness: bool,
    /// Sampling lanes set seeds of their own, which shared randomness sets aside.
    pub seeds_differ: bool,
    pub shared_seed: u64,
    pub score_text: AttrValue,
    pub negative_prompt: AttrValue,
    /// Some lane has `guidance_scale`: the negative prompt box shows.
    pub guided: bool,
    pub embed: bool,
    /// Projector mode: the lesson's steps and the prompt as text, Run, and
    /// the keys.
    pub present: bool,
    /// The lanes shown (one to four).
    pub lanes: usize,
    pub model_ready: bool,
    pub running: bool,
    /// Tokens cut from the left of an over-long prompt in the run on screen.
    pub prompt_cropped: usize,
    /// The step's printed outputs and how this page's lanes compare.
    pub printed: Vec<Line>,
    pub on: Callback<PromptAction>,
}

fn actions(p: &Props, tr: &I18n) -> Html {
    let on = &p.on;
    html! {
        <div class="actions">
            <button
                data-testid="run"
                class="primary"
                disabled={!p.model_ready}
                onclick={on.reform(|_: MouseEvent| PromptAction::Run)}
            >
                { tr.t(if p.running { "run-again" } else { "run" }) }
            </button>
            <button
                data-testid="stop"
                disabled={!p.running}
                onclick={on.reform(|_: MouseEvent| PromptAction::Stop)}
            >
                { tr.t("stop") }
            </button>
            <button
                data-testid="reroll"
                disabled={!p.model_ready}
                title={tr.t("reroll-title")}
                onclick={on.reform(|_: MouseEvent| PromptAction::Reroll)}
            >
                { tr.t("reroll") }
            </button>
            if !p.embed && !p.present {
                if p.lanes < crate::lanes::LANES {
                    <button
                        data-testid="add-lane"
                        class="lane-count"
                        title={tr.t("add-lane-title")}
                        onclick={on.reform(|_: MouseEvent| PromptAction::AddLane)}
                    >
                        { tr.t("add-lane") }
                    </button>
                }
                if p.lanes > 1 {
                    <button
                        data-testid="remove-lane"
                        class="lane-count"
                        onclick={on.reform(|_: MouseEvent| PromptAction::RemoveLane)}
                    >
                        { tr.t_with("remove-lane", &[("lane", p.lanes.into())]) }
                    </button>
                }
            }
        </div>
    }
}

/// The editors only the full page has: shared randomness and scoring.
fn extras(p: &Props, tr: &I18n) -> Html {
    let on_shared = p.on.reform(|ev: Event| {
        PromptAction::SharedRandomness(ev.target_unchecked_into::<HtmlInputElement>().checked())
    });
    let on_score_text = p.on.reform(|ev: InputEvent| {
        PromptAction::ScoreText(
            ev.target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value(),
        )
    });
    html! {
        <div class="extras">
            <label class="shared" title={tr.t("shared-randomness-title")}>
                <input
                    type="checkbox"
                    data-testid="shared-randomness"
                    checked={p.shared_randomness}
                    onchange={on_shared}
                />
                { tr.t("shared-randomness") }
                if p.shared_randomness {
                    { tr.t_with("shared-seed", &[("seed", p.shared_seed.to_string().into())]) }
                }
            </label>
            <Help text={tr.t("shared-randomness-title")} about={tr.t("shared-randomness")} id="help-shared-randomness" />
            if p.shared_randomness && p.seeds_differ {
                <p class="notice" data-testid="seeds-set-aside">
                    { tr.t("seeds-set-aside") }
                </p>
            }
            if p.guided {
                <div class="score-row">
                    <label
                        for="negative-prompt"
                        title={tr.t("negative-prompt-title")}
                    >
                        { tr.t("negative-prompt") }
                    </label>
                    <input
                        id="negative-prompt"
                        data-testid="negative-prompt"
                        placeholder={tr.t("negative-prompt-placeholder")}
                        value={p.negative_prompt.clone()}
                        oninput={p.on.reform(|ev: InputEvent| {
                            PromptAction::NegativePrompt(ev.target_unchecked_into::<HtmlInputElement>().value())
                        })}
                    />
                </div>
            }
            <div class="score-row">
                <label for="score-text" title={tr.t("score-text-title")}>{ tr.t("score-text") }</label>
                <Help text={tr.t("score-text-title")} about={tr.t("score-text")} id="help-score-text" />
                // Grows with its text, up to six lines: a row per line typed
                // and per 48 characters of a long one (CSS `field-sizing` is
                // not in every browser yet).
                <textarea
                    id="score-text"
                    data-testid="score-text"
                    rows={score_rows(&p.score_text).to_string()}
                    placeholder={tr.t("score-text-placeholder")}
                    value={p.score_text.clone()}
                    oninput={on_score_text}
                />
                <button
                    data-testid="score"
                    disabled={!p.model_ready || p.running}
                    onclick={p.on.reform(|_: MouseEvent| PromptAction::Score)}
                    title={tr.t("score-button-title")}
                >
                    { tr.t("score-button") }
                </button>
            </div>
        </div>
    }
}

/// The score box's height in rows for `text`.
fn score_rows(text: &str) -> usize {
    text.lines()
        .map(|l| l.chars().count().div_ceil(48).max(1))
        .sum::<usize>()
        .clamp(1, 6)
}

#[function_component(PromptRow)]
pub fn prompt_row(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let on_prompt = p.on.reform(|ev: InputEvent| {
        PromptAction::Prompt(ev.target_unchecked_into::<HtmlTextAreaElement>().value())
    });
    let on = p.on.clone();
    let on_preset = Callback::from(move |ev: Event| {
        let value = ev.target_unchecked_into::<HtmlSelectElement>().value();
        // "open": the lesson already open, not a built-in one.
        if let Ok(i) = value.parse() {
            on.emit(PromptAction::Preset(i));
        }
    });
    let selected = match p.player.open.from {
        LessonFrom::BuiltIn(i) => Some(i),
        _ => None,
    };
    // The built-in lessons in the reader's language (each in English where
    // it is not translated); the value is the lesson's place in the list of all.
    let titles: Vec<(usize, String)> = built_in(|all| {
        crate::lessons::offered(tr.tag())
            .into_iter()
            .map(|i| (i, all[i].lesson.title.clone()))
            .collect()
    });
    let value = p.prompt.clone();
    html! {
        <section class="prompt-row">
            if (p.embed && selected.is_none()) || p.present {
                // An embedded lesson: its steps and prose, without the file picker.
                <div class="preset-row">
                    <LessonPlayerView
                        player={p.player.clone()}
                        printed={p.printed.clone()}
                        embed=true
                        on={p.on.reform(PromptAction::Lesson)}
                    />
                </div>
            }
            if p.embed || p.present {
                <p class="embed-prompt" data-testid="embed-prompt">
                    <span class="label">{ tr.t("prompt-label") }</span>{ p.prompt.clone() }
                </p>
            } else {
                <div class="preset-row">
                    <label for="preset">{ tr.t("lesson") }</label>
                    <select id="preset" data-testid="preset" onchange={on_preset}>
                        if selected.is_none() {
                            <option value="open" selected=true>
                                { p.player.open.lesson.title.clone() }
                            </option>
                        }
                        { for titles.into_iter().map(|(i, title)| html! {
                            <option value={i.to_string()} selected={Some(i) == selected}>
                                { title }
                            </option>
                        }) }
                    </select>
                    <LessonPlayerView
                        player={p.player.clone()}
                        printed={p.printed.clone()}
                        on={p.on.reform(PromptAction::Lesson)}
                    />
                </div>
                <label for="prompt">{ tr.t("prompt") }</label>
                <textarea id="prompt" data-testid="prompt" rows="2" {value} oninput={on_prompt} />
            }
            { actions(p, &tr) }
            if p.present {
                <p class="hint present-keys" data-testid="present-keys">{ tr.t("present-keys") }</p>
            } else if !p.embed {
                { extras(p, &tr) }
            }
            if p.prompt_cropped > 0 {
                <p class="notice">
                    { tr.t_with("prompt-cropped", &[("tokens", p.prompt_cropped.into())]) }
                </p>
            }
        </section>
    }
}
