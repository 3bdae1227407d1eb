//! What the lesson's own code printed for a preset's lanes, and whether this
//! page wrote the same (judged only on the lesson's model, for a run of the
//! preset unchanged).

use crate::lesson_check::{Line, Verdict};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lines: Vec<Line>,
    /// Where it was printed (a chapter's title).
    pub source: AttrValue,
    /// The model it was printed on, by its short name.
    pub model: AttrValue,
}

fn why(model: &str) -> String {
    format!(
        "On {model} a lane without randomness (greedy, beam, contrastive, top_k 1) must write \
         exactly the lesson's text. A sampled lane cannot: torch draws its own random numbers, \
         so a seed here picks a different draw from the same distribution."
    )
}

/// Newlines as the lesson's repr() showed them, the rest as typed.
fn shown(text: &str) -> String {
    text.replace('\n', "↵")
}

/// One judged line's verdict in words (lines not judged say nothing: the
/// summary says why for all of them).
fn verdict(line: &Line) -> Option<String> {
    Some(match (&line.verdict, line.deterministic) {
        (Verdict::Same, true) => "✓ the same here".into(),
        (Verdict::Same, false) => "the same here — this draw agreed".into(),
        (Verdict::Differs { at, here }, true) => {
            format!("✗ parts at character {}: here “{}…”", at + 1, shown(here))
        }
        (Verdict::Differs { .. }, false) => "a different draw here, as expected".into(),
        (Verdict::OtherModel | Verdict::NotRun, _) => return None,
    })
}

/// The summary's last words: the exact lanes' tally once a run is judged,
/// else what it takes to judge one.
fn status(lines: &[Line], model: &str) -> String {
    if lines.iter().any(|l| l.verdict == Verdict::OtherModel) {
        return format!(" — this run was on another model: load {model} to compare");
    }
    if lines.iter().any(|l| l.verdict == Verdict::NotRun) {
        return format!(" — run this lesson unchanged on {model} to compare");
    }
    let exact: Vec<&Line> = lines.iter().filter(|l| l.deterministic).collect();
    let same = exact.iter().filter(|l| l.verdict == Verdict::Same).count();
    format!(" — {same} of {} exact lanes match", exact.len())
}

#[function_component(LessonPrinted)]
pub fn lesson_printed(p: &Props) -> Html {
    if p.lines.is_empty() {
        return html! {};
    }
    html! {
        <details class="lesson-printed" data-testid="lesson-printed">
            <summary>
                { format!("What “{}” printed on {}", p.source, p.model) }
                { status(&p.lines, &p.model) }
            </summary>
            <p class="hint">{ why(&p.model) }</p>
            <ul>
                { for p.lines.iter().map(|l| html! {
                    <li
                        class={classes!(l.deterministic.then_some("exact"))}
                        data-testid="lesson-line"
                        data-lane={l.lane.to_string()}
                        data-verdict={l.verdict.as_str()}
                        data-exact={l.deterministic.to_string()}
                    >
                        <span class="lane-name">
                            { format!("Lane {} · {}", l.lane + 1, if l.deterministic { "exact" } else { "sampled" }) }
                        </span>
                        <span>
                            <q>{ shown(&l.printed) }</q>
                            if let Some(v) = verdict(l) {
                                { " " }<span class={classes!("verdict", l.verdict.as_str())}>{ v }</span>
                            }
                        </span>
                    </li>
                }) }
            </ul>
        </details>
    }
}
