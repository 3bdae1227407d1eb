//! The open lesson: its steps, the step's prose, what a book printed for it,
//! its recorded run, and opening a lesson file.

use crate::components::lesson_printed::LessonPrinted;
use crate::components::prose::Prose;
use crate::i18n::I18n;
use crate::lesson_check::{model_name, Line};
use crate::lessons::LessonFrom;
use crate::state::lesson_player::{LessonPlayer, Recorded};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the player asks the page to do.
pub enum PlayerAction {
    /// Go to a step of the open lesson (from 0).
    Step(usize),
    ShowRecording,
    /// A lesson file picked or dropped.
    Pick(web_sys::File),
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub player: LessonPlayer,
    /// The step's printed outputs and how this page's lanes compare.
    pub printed: Vec<Line>,
    pub on: Callback<PlayerAction>,
    /// In an embed: no file picker.
    #[prop_or_default]
    pub embed: bool,
}

fn steps_nav(p: &Props, tr: &I18n) -> Html {
    let player = &p.player;
    let n = player.open.lesson.steps.len();
    let k = player.step;
    let title = &player.current().title;
    html! {
        <nav class="lesson-steps" aria-label={tr.t("lesson-steps")}>
            <button
                data-testid="lesson-prev"
                disabled={k == 0}
                onclick={p.on.reform(move |_: MouseEvent| PlayerAction::Step(k.saturating_sub(1)))}
            >
                { tr.t("lesson-previous") }
            </button>
            <span data-testid="lesson-step" aria-live="polite">
                { tr.t_with("lesson-step-of", &[("step", (k + 1).into()), ("steps", n.into())]) }
                if !title.is_empty() { { tr.t_with("lesson-step-title", &[("title", title.as_str().into())]) } }
            </span>
            <button
                data-testid="lesson-next"
                disabled={k + 1 >= n}
                onclick={p.on.reform(move |_: MouseEvent| PlayerAction::Step(k + 1))}
            >
                { tr.t("lesson-next") }
            </button>
        </nav>
    }
}

fn recording(p: &Props, tr: &I18n) -> Html {
    if !p.player.has_recording() {
        return html! {};
    }
    let model = &p.player.open.lesson.model;
    let model = if model == ntl_protocol::share::BUNDLED {
        tr.t("the-bundled-model")
    } else {
        model.clone()
    };
    match &p.player.recorded {
        Recorded::Shown => html! {
            <p class="notice" data-testid="lesson-recorded">
                { tr.t_with("lesson-recorded", &[("model", model.as_str().into())]) }
            </p>
        },
        Recorded::Fetching => html! {
            <p class="hint" data-testid="lesson-recording-fetching">{ tr.t("lesson-recording-fetching") }</p>
        },
        Recorded::Failed(why) => html! {
            <p class="error" role="alert" data-testid="lesson-recording-error">
                { tr.t_with("lesson-recording-error", &[("why", tr.said(why).into())]) }
            </p>
        },
        Recorded::NotShown => html! {
            <button
                data-testid="lesson-show-recording"
                title={tr.t_with("lesson-show-recording-title", &[("model", model.as_str().into())])}
                onclick={p.on.reform(|_: MouseEvent| PlayerAction::ShowRecording)}
            >
                { tr.t("lesson-show-recording") }
            </button>
        },
    }
}

fn open_file(p: &Props, tr: &I18n) -> Html {
    let on = p.on.clone();
    let on_pick = Callback::from(move |ev: Event| {
        let input = ev.target_unchecked_into::<HtmlInputElement>();
        let file = input.files().and_then(|f| f.get(0));
        // The same file may be picked again after an edit.
        input.set_value("");
        if let Some(f) = file {
            on.emit(PlayerAction::Pick(f));
        }
    });
    html! {
        <label class="lesson-file file-button" title={tr.t("lesson-file-title")}>
            { tr.t("lesson-file") }
            <input
                type="file"
                accept=".json,application/json"
                data-testid="lesson-file"
                onchange={on_pick}
            />
        </label>
    }
}

#[function_component(LessonPlayerView)]
pub fn lesson_player(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let player = &p.player;
    let lesson = &player.open.lesson;
    let step = player.current();
    let several = lesson.steps.len() > 1;
    let heading = if step.title.is_empty() || !several {
        lesson.title.clone()
    } else {
        step.title.clone()
    };
    let from_file = match &player.open.from {
        LessonFrom::File(name) => {
            Some(tr.t_with("lesson-from-file", &[("name", name.as_str().into())]))
        }
        LessonFrom::Site(path) => {
            Some(tr.t_with("lesson-from-site", &[("path", path.as_str().into())]))
        }
        LessonFrom::Link => Some(tr.t("lesson-from-link")),
        LessonFrom::Writer => Some(tr.t("lesson-from-writer")),
        LessonFrom::BuiltIn(_) => None,
    };
    let on = p.on.clone();
    let on_drop = Callback::from(move |ev: DragEvent| {
        ev.prevent_default();
        let file = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if let Some(f) = file {
            on.emit(PlayerAction::Pick(f));
        }
    });
    let printed = step.printed.as_ref();
    html! {
        <div
            class="lesson-player"
            data-testid="lesson-player"
            ondragover={Callback::from(|ev: DragEvent| ev.prevent_default())}
            ondrop={on_drop}
        >
            if several || from_file.is_some() {
                <p class="lesson-title" data-testid="lesson-title">
                    <strong>{ lesson.title.clone() }</strong>
                    if let Some(f) = from_file { <span class="hint">{ format!(" — {f}") }</span> }
                </p>
            }
            if several { { steps_nav(p, &tr) } }
            <div class="hint lesson-prose" data-testid="preset-notice">
                <strong>{ heading }</strong>{ tr.t("heading-colon") }
                <Prose text={step.prose.clone()} class="inline-first" testid="lesson-prose" />
            </div>
            if let Some(printed) = printed {
                <LessonPrinted
                    lines={p.printed.clone()}
                    source={printed.source.clone()}
                    model={model_name(printed).to_string()}
                />
            }
            if let Some(e) = &player.error {
                <div class="error" role="alert" data-testid="lesson-error">{ tr.said(e) }</div>
            }
            <div class="lesson-tools">
                { recording(p, &tr) }
                if !p.embed { { open_file(p, &tr) } }
            </div>
        </div>
    }
}
