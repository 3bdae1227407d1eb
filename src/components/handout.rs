//! A lesson as a handout: on paper (or a PDF), every step's prose, prompt,
//! lanes with their recorded texts and the first token's candidates, the
//! questions, and the answer key at the end. Hidden on screen; the print
//! stylesheet shows it alone.

use crate::components::prose::Prose;
use crate::components::question_panel::{ask, explanation};
use crate::format::{prob, visible};
use crate::i18n::I18n;
use crate::lane_config::KnobText;
use crate::lessons::step_lanes;
use crate::state::handout::{Handout, StepRecording};
use ntl_decoding::Document;
use ntl_protocol::lesson::{LessonStep, Question};
use yew::prelude::*;

/// Candidates printed per lane for a step's first token.
const CANDIDATES: usize = 5;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub handout: Handout,
}

/// The lanes' settings and recorded texts.
fn lanes(step: &LessonStep, doc: Option<&Document>, tr: &I18n) -> Html {
    let configs = step_lanes(step);
    html! {
        <table class="handout-lanes">
            <thead><tr>
                <th>{ tr.t("reveal-col-lane") }</th>
                <th>{ tr.t("handout-settings") }</th>
                <th>{ tr.t("handout-text") }</th>
            </tr></thead>
            <tbody>
                { for (0..step.lanes.len()).map(|i| {
                    let text = doc.and_then(|d| d.runs.get(i)).map(|r| crate::token_bytes::byte_form(&crate::lane_result::shown_text(r)));
                    html! {
                        <tr data-testid="handout-lane">
                            <th scope="row">{ i + 1 }</th>
                            <td><code>{ configs[i].summary(tr) }</code></td>
                            <td class="text">{ text.unwrap_or_else(|| tr.t("handout-not-recorded")) }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

/// Each lane's candidates for the first token, after the knobs.
fn first_tables(doc: &Document, tr: &I18n) -> Html {
    html! {
        <div class="handout-tables">
            { for doc.runs.iter().enumerate().filter_map(|(i, run)| {
                let step = run.steps.first()?;
                Some(html! {
                    <table class="handout-table">
                        <caption>{ tr.t_with("handout-first-token", &[("lane", (i + 1).into())]) }</caption>
                        <thead><tr>
                            <th>{ tr.t("col-token") }</th>
                            <th>{ tr.t("handout-col-model") }</th>
                            <th>{ tr.t("handout-col-knobs") }</th>
                        </tr></thead>
                        <tbody>
                            { for step.top.iter().take(CANDIDATES).map(|c| html! {
                                <tr class={classes!((c.id == step.token_id).then_some("chosen"))}>
                                    <td class="token">{ visible(&c.token) }</td>
                                    <td>{ prob(c.raw_prob) }</td>
                                    <td>{ prob(c.prob) }</td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                })
            }) }
        </div>
    }
}

/// A question as asked on paper: its options, or a line to write on.
fn question(q: &Question, lanes: usize, tr: &I18n) -> Html {
    let options: Vec<String> = match q {
        Question::Choice { options, .. } => options.clone(),
        Question::WhichLane { .. } => (1..=lanes)
            .map(|l| tr.t_with("lane-heading", &[("lane", l.into())]))
            .collect(),
        Question::NextToken { .. } => vec![],
    };
    html! {
        <li data-testid="handout-question">
            { ask(q, tr) }
            if options.is_empty() {
                <span class="blank">{ " ______________" }</span>
            } else {
                <ol class="options" type="A">
                    { for options.into_iter().map(|o| html! { <li>{ o }</li> }) }
                </ol>
            }
        </li>
    }
}

/// The answer, as the key states it.
fn answer(q: &Question, doc: Option<&Document>, tr: &I18n) -> String {
    match q {
        Question::NextToken { lane, step, .. } => doc
            .and_then(|d| d.runs.get(lane - 1)?.steps.get(step - 1))
            .map(|s| format!("“{}”", visible(&s.token)))
            .unwrap_or_else(|| tr.t("handout-answer-not-recorded")),
        Question::WhichLane { answer, .. } => {
            tr.t_with("lane-heading", &[("lane", (*answer).into())])
        }
        Question::Choice {
            options, answer, ..
        } => {
            let letter = char::from(b'A' + (*answer as u8).saturating_sub(1));
            format!(
                "{letter}: {}",
                options.get(answer - 1).cloned().unwrap_or_default()
            )
        }
    }
}

#[function_component(HandoutView)]
pub fn handout_view(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let lesson = &p.handout.lesson.lesson;
    let doc = |i: usize| match p.handout.recordings.get(i) {
        Some(StepRecording::Ready(d)) => Some(&**d),
        _ => None,
    };
    let questions: Vec<(usize, usize, &Question)> = lesson
        .steps
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.questions.iter().enumerate().map(move |(k, q)| (i, k, q)))
        .collect();
    html! {
        <article class="handout" data-testid="handout">
            <h1>{ lesson.title.clone() }</h1>
            <p class="handout-meta">
                { tr.t_with("handout-meta", &[
                    ("steps", lesson.steps.len().into()),
                    ("model", lesson.model.to_string().into()),
                ]) }
            </p>
            { for lesson.steps.iter().enumerate().map(|(i, step)| html! {
                <section class="handout-step" data-testid="handout-step">
                    <h2>
                        { tr.t_with("handout-step", &[("step", (i + 1).into())]) }
                        if !step.title.is_empty() {
                            { tr.t_with("lesson-step-title", &[("title", step.title.clone().into())]) }
                        }
                    </h2>
                    <Prose text={step.prose.clone()} />
                    <p class="handout-prompt"><strong>{ tr.t("prompt-label") }</strong><q>{ step.prompt.clone() }</q></p>
                    if let Some(StepRecording::Failed(why)) = p.handout.recordings.get(i) {
                        <p class="error">{ tr.t_with("handout-recording-failed", &[("why", tr.said(why).into())]) }</p>
                    }
                    { lanes(step, doc(i), &tr) }
                    if let Some(d) = doc(i) { { first_tables(d, &tr) } }
                    if !step.questions.is_empty() {
                        <h3>{ tr.t("questions") }</h3>
                        <ol class="handout-questions">
                            { for step.questions.iter().map(|q| question(q, step.lanes.len(), &tr)) }
                        </ol>
                    }
                </section>
            }) }
            if !questions.is_empty() {
                <section class="handout-key" data-testid="handout-key">
                    <h2>{ tr.t("handout-key") }</h2>
                    <ol>
                        { for questions.iter().map(|&(i, k, q)| html! {
                            <li data-testid="handout-answer">
                                <strong>{ tr.t_with("handout-key-line", &[
                                    ("step", (i + 1).into()),
                                    ("question", (k + 1).into()),
                                    ("answer", answer(q, doc(i), &tr).into()),
                                ]) }</strong>
                                if !explanation(q).is_empty() { { format!(" — {}", explanation(q)) } }
                            </li>
                        }) }
                    </ol>
                </section>
            }
        </article>
    }
}
