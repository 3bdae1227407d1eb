//! The prompt and what to do with it: the lessons, Run / Stop / Re-roll,
//! shared randomness, a text to score.

use crate::components::lesson_player::{LessonPlayerView, PlayerAction};
use crate::lesson_check::Line;
use crate::lessons::{built_in, LessonFrom};
use crate::state::lesson_player::LessonPlayer;
use crate::state::projector::KEYS_HELP;
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

const SHARED_HINT: &str = "every sampling lane uses the same random numbers at each step, so \
lanes differ only by their knobs";
const SHARED_LABEL: &str = " Shared randomness: sampling lanes draw the same random numbers, \
so they differ only by their knobs";
const SCORE_BUTTON_HINT: &str =
    "each lane shows the probability its configuration gave every token of this text";
const SCORE_HINT: &str = "teacher forcing: every lane follows this text and shows what its knobs \
made of each token";

fn actions(p: &Props) -> Html {
    let on = &p.on;
    html! {
        <div class="actions">
            <button
                data-testid="run"
                class="primary"
                disabled={!p.model_ready}
                onclick={on.reform(|_: MouseEvent| PromptAction::Run)}
            >
                { if p.running { "Run again" } else { "Run" } }
            </button>
            <button
                data-testid="stop"
                disabled={!p.running}
                onclick={on.reform(|_: MouseEvent| PromptAction::Stop)}
            >
                { "Stop" }
            </button>
            <button
                data-testid="reroll"
                disabled={!p.model_ready}
                title="new seeds for every sampling lane, then run"
                onclick={on.reform(|_: MouseEvent| PromptAction::Reroll)}
            >
                { "Re-roll" }
            </button>
            if !p.embed && !p.present {
                if p.lanes < crate::lanes::LANES {
                    <button
                        data-testid="add-lane"
                        class="lane-count"
                        title="one more lane, a copy of the last"
                        onclick={on.reform(|_: MouseEvent| PromptAction::AddLane)}
                    >
                        { "+ Add a lane" }
                    </button>
                }
                if p.lanes > 1 {
                    <button
                        data-testid="remove-lane"
                        class="lane-count"
                        onclick={on.reform(|_: MouseEvent| PromptAction::RemoveLane)}
                    >
                        { format!("− Remove lane {}", p.lanes) }
                    </button>
                }
            }
        </div>
    }
}

/// The editors only the full page has: shared randomness and scoring.
fn extras(p: &Props) -> Html {
    let on_shared = p.on.reform(|ev: Event| {
        PromptAction::SharedRandomness(ev.target_unchecked_into::<HtmlInputElement>().checked())
    });
    let on_score_text = p.on.reform(|ev: InputEvent| {
        PromptAction::ScoreText(ev.target_unchecked_into::<HtmlInputElement>().value())
    });
    html! {
        <div class="extras">
            <label class="shared" title={SHARED_HINT}>
                <input
                    type="checkbox"
                    data-testid="shared-randomness"
                    checked={p.shared_randomness}
                    onchange={on_shared}
                />
                { SHARED_LABEL }
                if p.shared_randomness { { format!(" (shared seed {})", p.shared_seed) } }
            </label>
            if p.shared_randomness && p.seeds_differ {
                <p class="notice" data-testid="seeds-set-aside">
                    { "The lanes' own seeds differ, and shared randomness sets them aside: \
                       lanes that differ only by their seed will write the same text." }
                </p>
            }
            if p.guided {
                <div class="score-row">
                    <label
                        for="negative-prompt"
                        title="HF's negative_prompt: guidance_scale lanes push away from what the model says after this text (empty: after the prompt's last token alone)"
                    >
                        { "Negative prompt: " }
                    </label>
                    <input
                        id="negative-prompt"
                        data-testid="negative-prompt"
                        placeholder=" empty: guidance starts from the prompt's last token"
                        value={p.negative_prompt.clone()}
                        oninput={p.on.reform(|ev: InputEvent| {
                            PromptAction::NegativePrompt(ev.target_unchecked_into::<HtmlInputElement>().value())
                        })}
                    />
                </div>
            }
            <div class="score-row">
                <label for="score-text" title={SCORE_HINT}>{ "Score a text: " }</label>
                <input
                    id="score-text"
                    data-testid="score-text"
                    placeholder=" a continuation of the prompt, e.g.  to practice every day"
                    value={p.score_text.clone()}
                    oninput={on_score_text}
                />
                <button
                    data-testid="score"
                    disabled={!p.model_ready || p.running}
                    onclick={p.on.reform(|_: MouseEvent| PromptAction::Score)}
                    title={SCORE_BUTTON_HINT}
                >
                    { "Score in every lane" }
                </button>
            </div>
        </div>
    }
}

#[function_component(PromptRow)]
pub fn prompt_row(p: &Props) -> Html {
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
    let titles: Vec<String> = built_in(|all| all.iter().map(|b| b.lesson.title.clone()).collect());
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
                    <span class="label">{ "Prompt: " }</span>{ p.prompt.clone() }
                </p>
            } else {
                <div class="preset-row">
                    <label for="preset">{ "Lesson" }</label>
                    <select id="preset" data-testid="preset" onchange={on_preset}>
                        if selected.is_none() {
                            <option value="open" selected=true>
                                { p.player.open.lesson.title.clone() }
                            </option>
                        }
                        { for titles.into_iter().enumerate().map(|(i, title)| html! {
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
                <label for="prompt">{ "Prompt" }</label>
                <textarea id="prompt" data-testid="prompt" rows="2" {value} oninput={on_prompt} />
            }
            { actions(p) }
            if p.present {
                <p class="hint present-keys" data-testid="present-keys">{ KEYS_HELP }</p>
            } else if !p.embed {
                { extras(p) }
            }
            if p.prompt_cropped > 0 {
                <p class="notice">
                    { format!(
                        "The prompt was longer than the model's context: \
                         its first {} tokens were left out.",
                        p.prompt_cropped
                    ) }
                </p>
            }
        </section>
    }
}
