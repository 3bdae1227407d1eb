//! A lesson step's questions: each asks before the step's run is shown,
//! then reveals whether the guess was right, where it ranked in every lane
//! and the teacher's explanation; the lesson's score and its reset.
//! Everything is a form: radio buttons, a text box, Enter answers.

use crate::components::prose::Prose;
use crate::format::visible;
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

pub(crate) fn ask(q: &Question) -> String {
    match q {
        Question::NextToken { lane, step: 1, .. } => {
            format!("Which token comes next in lane {lane}?")
        }
        Question::NextToken { lane, step, .. } => {
            format!("Which token does lane {lane} write as its token {step}?")
        }
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
fn options(p: &FormProps) -> Option<Vec<(QuizInput, String)>> {
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
                .map(|l| (QuizInput::Lane(l), format!("Lane {l}")))
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
    let picked = use_state(|| None::<usize>);
    let typed = use_node_ref();
    let Some(options) = options(p) else {
        return html! {
            <p class="hint" data-testid="question-waiting">
                { "Run the step, or show its recorded run, to see the candidates. The lanes stay hidden until you answer." }
            </p>
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
                <legend class="visually-hidden">{ ask(&p.question) }</legend>
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
                    { "…or type it: " }
                    <input type="text" ref={typed} data-testid="question-typed" autocomplete="off" />
                </label>
            }
            <div class="question-buttons">
                <button type="submit" data-testid="question-answer" disabled={p.pending}>{ "Answer" }</button>
                <button type="button" data-testid="question-skip" onclick={skip}>{ "Show the answer" }</button>
            </div>
            if p.pending {
                <p class="hint" data-testid="question-pending" aria-live="polite">
                    { "Reading your text with the model's tokenizer…" }
                </p>
            }
        </form>
    }
}

fn place(r: &LaneReveal) -> Html {
    let pct = |x: f32| format!("{:.1}%", 100.0 * x);
    let (rank, prob, raw) = match &r.place {
        Place::Ranked {
            rank,
            prob,
            raw_prob,
        } => (format!("#{rank}"), pct(*prob), pct(*raw_prob)),
        Place::Removed { by, raw_prob } => {
            (format!("removed by {by}"), "0%".into(), pct(*raw_prob))
        }
        Place::Outside { shown } => (format!("below its top {shown}"), "—".into(), "—".into()),
        Place::NoStep => ("no such step".into(), "—".into(), "—".into()),
    };
    html! {
        <tr data-testid="reveal-lane" data-lane={r.lane.to_string()}>
            <th scope="row">{ format!("Lane {}", r.lane + 1) }</th>
            <td class="token">{ r.chosen.as_deref().map(visible).unwrap_or_else(|| "—".into()) }</td>
            <td>{ rank }</td>
            <td>{ prob }</td>
            <td>{ raw }</td>
        </tr>
    }
}

fn reveal(q: &Question, a: &Answer, results: Option<&Results>, lanes: usize) -> Html {
    let right_answer = match q {
        Question::NextToken { lane, step, .. } => results
            .and_then(|r| marking::step_of(r, lane - 1, *step))
            .map(|s| format!("Lane {lane} wrote {}.", visible(&s.token)))
            .unwrap_or_else(|| format!("Run the step to see what lane {lane} writes.")),
        Question::WhichLane { answer, .. } => format!("The answer is lane {answer}."),
        Question::Choice {
            options, answer, ..
        } => format!(
            "The answer is “{}”.",
            options.get(answer - 1).map(String::as_str).unwrap_or("")
        ),
    };
    let yours = match &a.guess {
        Guess::Token {
            token, typed: None, ..
        } => format!("You picked {}.", visible(token)),
        Guess::Token {
            token,
            typed: Some(t),
            ..
        } => format!("You typed “{t}”, read as the token {}.", visible(token)),
        Guess::Unmatched { typed } => {
            format!("You typed “{typed}”, which is none of the step's candidates.")
        }
        Guess::Lane(l) => format!("You picked lane {l}."),
        Guess::Option(o) => match q {
            Question::Choice { options, .. } => format!(
                "You picked “{}”.",
                options.get(o - 1).map(String::as_str).unwrap_or("")
            ),
            _ => String::new(),
        },
        Guess::Skipped => "You looked without guessing.".into(),
    };
    let verdict = match (&a.guess, a.right) {
        (Guess::Skipped, _) => "Shown",
        (_, true) => "Right",
        (_, false) => "Not this time",
    };
    let table = match (q, &a.guess) {
        (Question::NextToken { step, .. }, Guess::Token { id, .. }) => results.map(|r| {
            let rows = marking::reveal_token(Some(*id), *step, lanes, r);
            html! {
                <table class="reveal-lanes">
                    <caption>{ "Your token in each lane at this step" }</caption>
                    <thead><tr>
                        <th scope="col">{ "Lane" }</th>
                        <th scope="col">{ "It wrote" }</th>
                        <th scope="col">{ "Your token's rank" }</th>
                        <th scope="col">{ "after its knobs" }</th>
                        <th scope="col">{ "before" }</th>
                    </tr></thead>
                    <tbody>{ for rows.iter().map(place) }</tbody>
                </table>
            }
        }),
        _ => None,
    };
    let explain = explanation(q);
    html! {
        <div class="reveal" data-testid="reveal" role="status">
            <p data-testid="reveal-verdict" data-right={a.right.to_string()}>
                <strong>{ format!("{verdict}. ") }</strong>
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
    if p.questions.is_empty() && p.score.total == 0 {
        return html! {};
    }
    let score = p.score;
    let reset = p.on.reform(|_: MouseEvent| QuizAction::Reset);
    html! {
        <section class="quiz" data-testid="quiz" aria-label="Questions">
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
                            <strong>{ format!("Question {}: ", k + 1) }</strong>{ ask(q) }
                        </p>
                        if let Some(a) = &answer {
                            { reveal(q, a, p.results.as_ref(), p.lanes) }
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
                    { format!("Score: {} right of {} answered ({} questions in this lesson; kept in this page only). ", score.right, score.answered, score.total) }
                    <button type="button" data-testid="quiz-reset" onclick={reset} disabled={score.answered == 0}>
                        { "Start the questions again" }
                    </button>
                </p>
            }
        </section>
    }
}
