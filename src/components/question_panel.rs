//! A lesson step's questions: each asks before the step's run is shown,
//! then reveals whether the guess was right, where it ranked in every lane
//! and the teacher's explanation; the lesson's score and its reset.
//! Everything is a form: radio buttons, a text box, Enter answers.

use crate::components::prose::Prose;
use crate::format::{prob, visible};
use crate::i18n::I18n;
use crate::state::quiz::{Answer, Guess, QuestionAt, Score};
use crate::state::quiz_marking::{self as marking, LaneReveal, Place};
use crate::state::run::Results;
use crate::state::QuizInput;
use ntl_protocol::lesson::Question;
use web_sys::HtmlInputElement;
use yew::prelude::*;

pub enum QuizAction {
    Answer(QuestionAt, QuizInput),
    Reset,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// From 0.
    pub step: usize,
    pub questions: Vec<Question>,
    /// The answers so far to this step's questions, in order.
    pub answers: Vec<Option<Answer>>,
    /// A typed guess of this step is with the tokenizer.
    pub pending: Option<usize>,
    /// The step's run, when it is on screen as written.
    pub results: Option<Results>,
    pub lanes: usize,
    pub score: Score,
    pub on: Callback<QuizAction>,
}

pub(crate) fn ask(q: &Question, tr: &I18n) -> String {
    match q {
        Question::NextToken { lane, step: 1, .. } => {
            tr.t_with("ask-next", &[("lane", (*lane).into())])
        }
        Question::NextToken { lane, step, .. } => tr.t_with(
            "ask-token-n",
            &[("lane", (*lane).into()), ("step", (*step).into())],
        ),
        Question::WhichLane { ask, .. } | Question::Choice { ask, .. } => ask.clone(),
    }
}

pub(crate) fn explanation(q: &Question) -> &str {
    match q {
        Question::NextToken { explanation, .. }
        | Question::WhichLane { explanation, .. }
        | Question::Choice { explanation, .. } => explanation,
    }
}

#[derive(Properties, PartialEq)]
struct FormProps {
    at: QuestionAt,
    question: Question,
    results: Option<Results>,
    lanes: usize,
    pending: bool,
    on: Callback<QuizAction>,
}

/// The options a question offers: (value sent, label).
fn options(p: &FormProps, tr: &I18n) -> Option<Vec<(QuizInput, String)>> {
    match &p.question {
        Question::NextToken { lane, step, .. } => {
            let results = p.results.as_ref()?;
            let record = marking::step_of(results, lane - 1, *step)?;
            Some(
                marking::choices(record)
                    .into_iter()
                    .map(|(id, token)| {
                        let label = visible(&token);
                        (QuizInput::Token { id, token }, label)
                    })
                    .collect(),
            )
        }
        Question::WhichLane { .. } => Some(
            (1..=p.lanes)
                .map(|l| {
                    (
                        QuizInput::Lane(l),
                        tr.t_with("lane-heading", &[("lane", l.into())]),
                    )
                })
                .collect(),
        ),
        Question::Choice { options, .. } => Some(
            options
                .iter()
                .enumerate()
                .map(|(k, o)| (QuizInput::Option(k + 1), o.clone()))
                .collect(),
        ),
    }
}

#[function_component(QuestionForm)]
fn question_form(p: &FormProps) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let picked = use_state(|| None::<usize>);
    let typed = use_node_ref();
    let Some(options) = options(p, &tr) else {
        return html! {
            <p class="hint" data-testid="question-waiting">{ tr.t("question-waiting") }</p>
        };
    };
    let name = format!("question-{}-{}", p.at.0, p.at.1);
    let is_token = matches!(p.question, Question::NextToken { .. });
    let onsubmit = {
        let (on, at, picked, typed) = (p.on.clone(), p.at, picked.clone(), typed.clone());
        let values: Vec<QuizInput> = options.iter().map(|(v, _)| v.clone()).collect();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let text = typed
                .cast::<HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            let input = if !text.trim().is_empty() {
                Some(QuizInput::Typed(text))
            } else {
                picked.and_then(|k| values.get(k).cloned())
            };
            if let Some(input) = input {
                on.emit(QuizAction::Answer(at, input));
            }
        })
    };
    let skip = {
        let at = p.at;
        p.on.reform(move |_: MouseEvent| QuizAction::Answer(at, QuizInput::Skip))
    };
    html! {
        <form class="question-form" {onsubmit}>
            <fieldset>
                <legend class="visually-hidden">{ ask(&p.question, &tr) }</legend>
                <div class={classes!("question-choices", is_token.then_some("tokens"))}>
                    { for options.iter().enumerate().map(|(k, (_, label))| {
                        let picked = picked.clone();
                        html! {
                            <label class="question-choice">
                                <input
                                    type="radio"
                                    name={name.clone()}
                                    data-testid="question-choice"
                                    checked={*picked == Some(k)}
                                    onchange={Callback::from(move |_: Event| picked.set(Some(k)))}
                                />
                                <span class={classes!(is_token.then_some("token"))}>{ label }</span>
                            </label>
                        }
                    }) }
                </div>
            </fieldset>
            if is_token {
                <label class="question-typed">
                    { tr.t("question-type-it") }
                    <input type="text" ref={typed} data-testid="question-typed" autocomplete="off" />
                </label>
            }
            <div class="question-buttons">
                <button type="submit" data-testid="question-answer" disabled={p.pending}>{ tr.t("question-answer") }</button>
                <button type="button" data-testid="question-skip" onclick={skip}>{ tr.t("question-show") }</button>
            </div>
            if p.pending {
                <p class="hint" data-testid="question-pending" aria-live="polite">
                    { tr.t("question-pending") }
                </p>
            }
        </form>
    }
}

fn place(r: &LaneReveal, tr: &I18n) -> Html {
    let (rank, after, raw) = match &r.place {
        Place::Ranked {
            rank,
            prob: p,
            raw_prob,
        } => (format!("#{rank}"), prob(*p), prob(*raw_prob)),
        Place::Removed { by, raw_prob } => (
            tr.t_with("place-removed", &[("by", by.to_string().into())]),
            "0%".into(),
            prob(*raw_prob),
        ),
        Place::Outside { shown } => (
            tr.t_with("place-outside", &[("shown", (*shown).into())]),
            "—".into(),
            "—".into(),
        ),
        Place::NoStep => (tr.t("place-no-step"), "—".into(), "—".into()),
    };
    html! {
        <tr data-testid="reveal-lane" data-lane={r.lane.to_string()}>
            <th scope="row">{ tr.t_with("lane-heading", &[("lane", (r.lane + 1).into())]) }</th>
            <td class="token">{ r.chosen.as_deref().map(visible).unwrap_or_else(|| "—".into()) }</td>
            <td>{ rank }</td>
            <td>{ after }</td>
            <td>{ raw }</td>
        </tr>
    }
}

fn reveal(q: &Question, a: &Answer, results: Option<&Results>, lanes: usize, tr: &I18n) -> Html {
    let option = |options: &[String], k: usize| -> String {
        options.get(k.wrapping_sub(1)).cloned().unwrap_or_default()
    };
    let right_answer = match q {
        Question::NextToken { lane, step, .. } => results
            .and_then(|r| marking::step_of(r, lane - 1, *step))
            .map(|s| {
                tr.t_with(
                    "answer-lane-wrote",
                    &[
                        ("lane", (*lane).into()),
                        ("token", visible(&s.token).into()),
                    ],
                )
            })
            .unwrap_or_else(|| tr.t_with("answer-run-to-see", &[("lane", (*lane).into())])),
        Question::WhichLane { answer, .. } => {
            tr.t_with("answer-lane", &[("lane", (*answer).into())])
        }
        Question::Choice {
            options, answer, ..
        } => tr.t_with(
            "answer-option",
            &[("option", option(options, *answer).into())],
        ),
    };
    let yours = match &a.guess {
        Guess::Token {
            token, typed: None, ..
        } => tr.t_with("yours-token", &[("token", visible(token).into())]),
        Guess::Token {
            token,
            typed: Some(t),
            ..
        } => tr.t_with(
            "yours-typed",
            &[
                ("typed", t.clone().into()),
                ("token", visible(token).into()),
            ],
        ),
        Guess::Unmatched { typed } => {
            tr.t_with("yours-unmatched", &[("typed", typed.clone().into())])
        }
        Guess::Lane(l) => tr.t_with("yours-lane", &[("lane", (*l).into())]),
        Guess::Option(o) => match q {
            Question::Choice { options, .. } => {
                tr.t_with("yours-option", &[("option", option(options, *o).into())])
            }
            _ => String::new(),
        },
        Guess::Skipped => tr.t("yours-skipped"),
    };
    let verdict = tr.t(match (&a.guess, a.right) {
        (Guess::Skipped, _) => "verdict-shown",
        (_, true) => "verdict-right",
        (_, false) => "verdict-wrong",
    });
    let table = match (q, &a.guess) {
        (Question::NextToken { step, .. }, Guess::Token { id, .. }) => results.map(|r| {
            let rows = marking::reveal_token(Some(*id), *step, lanes, r);
            html! {
                <table class="reveal-lanes">
                    <caption>{ tr.t("reveal-caption") }</caption>
                    <thead><tr>
                        <th scope="col">{ tr.t("reveal-col-lane") }</th>
                        <th scope="col">{ tr.t("reveal-col-wrote") }</th>
                        <th scope="col">{ tr.t("reveal-col-rank") }</th>
                        <th scope="col">{ tr.t("reveal-col-after") }</th>
                        <th scope="col">{ tr.t("reveal-col-before") }</th>
                    </tr></thead>
                    <tbody>{ for rows.iter().map(|r| place(r, tr)) }</tbody>
                </table>
            }
        }),
        _ => None,
    };
    let explain = explanation(q);
    html! {
        <div class="reveal" data-testid="reveal" role="status">
            <p data-testid="reveal-verdict" data-right={a.right.to_string()}>
                <strong>{ tr.t_with("verdict", &[("verdict", verdict.into())]) }</strong>
                { yours } { " " } { right_answer }
            </p>
            { for table }
            if !explain.is_empty() {
                <Prose text={explain.to_string()} class="reveal-explanation" testid="reveal-explanation" />
            }
        </div>
    }
}

#[function_component(QuestionPanel)]
pub fn question_panel(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    if p.questions.is_empty() && p.score.total == 0 {
        return html! {};
    }
    let score = p.score;
    let reset = p.on.reform(|_: MouseEvent| QuizAction::Reset);
    html! {
        <section class="quiz" data-testid="quiz" aria-label={tr.t("questions")}>
            { for p.questions.iter().enumerate().map(|(k, q)| {
                let at = (p.step, k);
                let answer = p.answers.get(k).cloned().flatten();
                html! {
                    <div
                        class="question"
                        data-testid="question"
                        data-state={if answer.is_some() { "answered" } else { "open" }}
                    >
                        <p class="question-ask" data-testid="question-ask">
                            <strong>{ tr.t_with("question-n", &[("n", (k + 1).into())]) }</strong>{ ask(q, &tr) }
                        </p>
                        if let Some(a) = &answer {
                            { reveal(q, a, p.results.as_ref(), p.lanes, &tr) }
                        } else {
                            <QuestionForm
                                key={format!("{}-{k}", p.step)}
                                {at}
                                question={q.clone()}
                                results={p.results.clone()}
                                lanes={p.lanes}
                                pending={p.pending == Some(k)}
                                on={p.on.clone()}
                            />
                        }
                    </div>
                }
            }) }
            if score.total > 0 {
                <p class="quiz-score" data-testid="quiz-score"
                   data-right={score.right.to_string()} data-answered={score.answered.to_string()}>
                    { tr.t_with("quiz-score", &[
                        ("right", score.right.into()),
                        ("answered", score.answered.into()),
                        ("total", score.total.into()),
                    ]) }
                    <button type="button" data-testid="quiz-reset" onclick={reset} disabled={score.answered == 0}>
                        { tr.t("quiz-reset") }
                    </button>
                </p>
            }
        </section>
    }
}
