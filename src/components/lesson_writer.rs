//! "Write a lesson": the form that saves the page as a lesson step, and the
//! lesson so far — its title, language, steps to retitle, reorder and
//! remove — with preview and download. The state is `state::lesson_writer`.

use crate::i18n::{languages, I18n};
use crate::rc_eq::RcEq;
use crate::state::lesson_writer::WriterAction;
use crate::state::lesson_writer::{LessonWriter, NextStep, QuestionKind};
use ntl_protocol::lesson::{LessonStep, Recording};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub writer: RcEq<LessonWriter>,
    /// The editor's lanes (a question names one of them).
    pub lanes: usize,
    pub on: Callback<WriterAction>,
}

/// The question kinds and their labels' messages.
const KINDS: [(QuestionKind, &str); 4] = [
    (QuestionKind::None, "writer-question-none"),
    (QuestionKind::NextToken, "writer-question-next-token"),
    (QuestionKind::WhichLane, "writer-question-which-lane"),
    (QuestionKind::Choice, "writer-question-choice"),
];

fn input_value(e: &InputEvent) -> String {
    if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
        return t.value();
    }
    e.target_unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

/// A callback that edits one field of the next step's form.
fn form(p: &Props, edit: impl Fn(&mut NextStep, String) + 'static) -> Callback<InputEvent> {
    let (on, next) = (p.on.clone(), p.writer.next.clone());
    Callback::from(move |e: InputEvent| {
        let mut n = next.clone();
        edit(&mut n, input_value(&e));
        on.emit(WriterAction::Form(n));
    })
}

#[function_component(LessonWriterPanel)]
pub fn lesson_writer(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let language = tr.tag();
    let w = &p.writer;
    let n = &w.next;
    let on_kind = {
        let (on, next) = (p.on.clone(), n.clone());
        Callback::from(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            on.emit(WriterAction::Form(NextStep {
                kind: QuestionKind::parse(&s.value()),
                ..next.clone()
            }))
        })
    };
    let on_lane = {
        let (on, next) = (p.on.clone(), n.clone());
        Callback::from(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let lane = s.value().parse().unwrap_or(1);
            on.emit(WriterAction::Form(NextStep {
                lane,
                ..next.clone()
            }))
        })
    };
    let on_attach = {
        let (on, next) = (p.on.clone(), n.clone());
        Callback::from(move |e: Event| {
            let c: web_sys::HtmlInputElement = e.target_unchecked_into();
            on.emit(WriterAction::Form(NextStep {
                attach: c.checked(),
                ..next.clone()
            }))
        })
    };
    let lane_label = if n.kind == QuestionKind::WhichLane {
        "writer-question-answer-lane"
    } else {
        "writer-question-lane"
    };
    html! {
        <section class="lesson-writer" aria-labelledby="writer-heading" data-testid="lesson-writer">
            <h2 id="writer-heading">{ tr.t("writer-heading") }</h2>
            <p class="hint">{ tr.t("writer-intro") }</p>
            <div class="writer-form">
                <label>
                    { tr.t("writer-step-title-label") }
                    <input data-testid="writer-step-title" value={n.title.clone()}
                        oninput={form(p, |n, v| n.title = v)} />
                </label>
                <label>
                    { tr.t("writer-note-label") }
                    <textarea data-testid="writer-note" rows="3" value={n.note.clone()}
                        oninput={form(p, |n, v| n.note = v)} />
                </label>
                <label class="check">
                    <input type="checkbox" data-testid="writer-attach" checked={n.attach}
                        onchange={on_attach} />
                    { tr.t("writer-attach") }
                </label>
                <label>
                    { tr.t("writer-question-kind") }
                    <select data-testid="writer-question-kind" onchange={on_kind}>
                        { for KINDS.iter().map(|&(k, label)| html! {
                            <option value={k.as_str()} selected={n.kind == k}>{ tr.t(label) }</option>
                        }) }
                    </select>
                </label>
                if matches!(n.kind, QuestionKind::NextToken | QuestionKind::WhichLane) {
                    <label>
                        { tr.t(lane_label) }
                        <select data-testid="writer-question-lane" onchange={on_lane}>
                            { for (1..=p.lanes).map(|l| html! {
                                <option value={l.to_string()} selected={n.lane == l}>{ l }</option>
                            }) }
                        </select>
                    </label>
                }
                if matches!(n.kind, QuestionKind::WhichLane | QuestionKind::Choice) {
                    <label>
                        { tr.t("writer-question-ask") }
                        <input data-testid="writer-question-ask" value={n.ask.clone()}
                            oninput={form(p, |n, v| n.ask = v)} />
                    </label>
                }
                if n.kind == QuestionKind::Choice {
                    <label>
                        { tr.t("writer-question-options") }
                        <textarea data-testid="writer-question-options" rows="4"
                            value={n.options.clone()}
                            oninput={form(p, |n, v| n.options = v)} />
                    </label>
                    <label>
                        { tr.t("writer-question-answer") }
                        <input type="number" min="1" max="8" data-testid="writer-question-answer"
                            value={n.answer.to_string()}
                            oninput={form(p, |n, v| n.answer = v.trim().parse().unwrap_or(0))} />
                    </label>
                }
                if n.kind != QuestionKind::None {
                    <label>
                        { tr.t("writer-question-explanation") }
                        <textarea data-testid="writer-question-explanation" rows="2"
                            value={n.explanation.clone()}
                            oninput={form(p, |n, v| n.explanation = v)} />
                    </label>
                }
                <button class="primary" data-testid="writer-save-step"
                    title={tr.t("writer-save-step-title")}
                    onclick={p.on.reform(move |_: MouseEvent| WriterAction::SaveStep { language })}>
                    { tr.t("writer-save-step") }
                </button>
            </div>
            <div role="status" aria-live="polite" data-testid="writer-status">
                if let Some(i) = w.saved {
                    { tr.t_with("writer-saved", &[("step", (i + 1).into()), ("steps", w.lesson.steps.len().into())]) }
                }
            </div>
            if let Some(e) = &w.error {
                <p class="error" role="alert" data-testid="writer-error">{ tr.said(e) }</p>
            }
            { lesson_so_far(p, &tr) }
        </section>
    }
}

/// The lesson's title, language and model, its steps, and what to do with it.
fn lesson_so_far(p: &Props, tr: &I18n) -> Html {
    let w = &p.writer;
    let on = &p.on;
    let on_language = on.reform(|e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        WriterAction::Language(s.value())
    });
    let mut langs = languages();
    if !langs.iter().any(|(tag, _)| *tag == w.lesson.language) {
        langs.push(("", w.lesson.language.clone()));
    }
    let steps = w.lesson.steps.len();
    html! {
        <div class="writer-lesson">
            <label>
                { tr.t("writer-lesson-title") }
                <input data-testid="writer-title" value={w.lesson.title.clone()}
                    oninput={on.reform(|e: InputEvent| WriterAction::Title(input_value(&e)))} />
            </label>
            <label>
                { tr.t("writer-language") }
                <select data-testid="writer-language" onchange={on_language}>
                    { for langs.into_iter().map(|(tag, name)| {
                        let value = if tag.is_empty() { name.clone() } else { tag.to_string() };
                        let selected = value == w.lesson.language;
                        html! { <option {value} {selected}>{ name }</option> }
                    }) }
                </select>
            </label>
            if steps > 0 {
                <p class="hint" data-testid="writer-model">
                    { tr.t_with("writer-model", &[("model", w.lesson.model.clone().into())]) }
                </p>
            }
            if steps == 0 {
                <p class="hint" data-testid="writer-empty">{ tr.t("writer-empty") }</p>
            } else {
                <ol class="writer-steps">
                    { for w.lesson.steps.iter().enumerate().map(|(i, s)| step_row(i, steps, s, on, tr)) }
                </ol>
            }
            if !w.kept {
                <p class="hint warning" data-testid="writer-not-kept">{ tr.t("writer-not-kept") }</p>
            }
            <div class="actions">
                <button data-testid="writer-preview" disabled={steps == 0}
                    title={tr.t("writer-preview-title")}
                    onclick={on.reform(|_: MouseEvent| WriterAction::Preview)}>
                    { tr.t("writer-preview") }
                </button>
                <button data-testid="writer-download" disabled={steps == 0}
                    title={tr.t("writer-download-title")}
                    onclick={on.reform(|_: MouseEvent| WriterAction::Download)}>
                    { tr.t("writer-download") }
                </button>
                <button data-testid="writer-clear" disabled={w.is_empty()}
                    title={tr.t("writer-clear-title")}
                    onclick={on.reform(|_: MouseEvent| WriterAction::Clear)}>
                    { tr.t("writer-clear") }
                </button>
            </div>
        </div>
    }
}

/// One saved step: its title and note to edit, what it holds, and its moves.
fn step_row(
    i: usize,
    steps: usize,
    s: &LessonStep,
    on: &Callback<WriterAction>,
    tr: &I18n,
) -> Html {
    let n = i + 1;
    let recorded = matches!(s.recording, Some(Recording::Inline(_) | Recording::File(_)));
    let prompt: String = s.prompt.chars().take(60).collect();
    html! {
        <li data-testid="writer-step">
            <div class="writer-step-head">
                <input
                    data-testid="writer-step-title-edit"
                    aria-label={tr.t_with("writer-step-title-aria", &[("n", n.into())])}
                    placeholder={tr.t("writer-step-title-label")}
                    value={s.title.clone()}
                    oninput={on.reform(move |e: InputEvent| WriterAction::StepTitle(i, input_value(&e)))}
                />
                <button data-testid="writer-step-up" disabled={i == 0}
                    aria-label={tr.t_with("writer-step-up", &[("n", n.into())])}
                    onclick={on.reform(move |_: MouseEvent| WriterAction::Move(i, true))}>{ "↑" }</button>
                <button data-testid="writer-step-down" disabled={n == steps}
                    aria-label={tr.t_with("writer-step-down", &[("n", n.into())])}
                    onclick={on.reform(move |_: MouseEvent| WriterAction::Move(i, false))}>{ "↓" }</button>
                <button data-testid="writer-step-remove"
                    aria-label={tr.t_with("writer-step-remove", &[("n", n.into())])}
                    onclick={on.reform(move |_: MouseEvent| WriterAction::Remove(i))}>{ "✕" }</button>
            </div>
            <p class="writer-step-what" data-testid="writer-step-what">
                { tr.t_with("writer-step-what", &[
                    ("prompt", prompt.into()),
                    ("lanes", s.lanes.len().into()),
                    ("questions", s.questions.len().into()),
                    ("recorded", if recorded { "yes" } else { "no" }.into()),
                ]) }
            </p>
            <textarea
                data-testid="writer-step-note"
                rows="2"
                aria-label={tr.t_with("writer-step-note-aria", &[("n", n.into())])}
                value={s.prose.clone()}
                oninput={on.reform(move |e: InputEvent| WriterAction::StepNote(i, input_value(&e)))}
            />
        </li>
    }
}
