//! What the lesson's own code printed for a preset's lanes, and whether this
//! page wrote the same (judged only on the lesson's model, for a run of the
//! preset unchanged).

use crate::i18n::I18n;
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

/// Newlines as the lesson's repr() showed them, the rest as typed.
fn shown(text: &str) -> String {
    text.replace('\n', "↵")
}

/// One judged line's verdict in words (lines not judged say nothing: the
/// summary says why for all of them).
fn verdict(line: &Line, tr: &I18n) -> Option<String> {
    Some(match (&line.verdict, line.deterministic) {
        (Verdict::Same, true) => tr.t("printed-same"),
        (Verdict::Same, false) => tr.t("printed-same-draw"),
        (Verdict::Differs { at, here }, true) => tr.t_with(
            "printed-differs",
            &[("at", (at + 1).into()), ("here", shown(here).into())],
        ),
        (Verdict::Differs { .. }, false) => tr.t("printed-other-draw"),
        (Verdict::OtherModel | Verdict::NotRun, _) => return None,
    })
}

/// The summary's last words: the exact lanes' tally once a run is judged,
/// else what it takes to judge one.
fn status(lines: &[Line], model: &str, tr: &I18n) -> String {
    if lines.iter().any(|l| l.verdict == Verdict::OtherModel) {
        return tr.t_with("printed-other-model", &[("model", model.into())]);
    }
    if lines.iter().any(|l| l.verdict == Verdict::NotRun) {
        return tr.t_with("printed-not-run", &[("model", model.into())]);
    }
    let exact: Vec<&Line> = lines.iter().filter(|l| l.deterministic).collect();
    let same = exact.iter().filter(|l| l.verdict == Verdict::Same).count();
    tr.t_with(
        "printed-tally",
        &[("same", same.into()), ("exact", exact.len().into())],
    )
}

#[function_component(LessonPrinted)]
pub fn lesson_printed(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    if p.lines.is_empty() {
        return html! {};
    }
    html! {
        <details class="lesson-printed" data-testid="lesson-printed">
            <summary>
                { tr.t_with("printed-summary", &[
                    ("source", p.source.to_string().into()),
                    ("model", p.model.to_string().into()),
                ]) }
                { status(&p.lines, &p.model, &tr) }
            </summary>
            <p class="hint">{ tr.t_with("printed-why", &[("model", p.model.to_string().into())]) }</p>
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
                            { tr.t_with(
                                if l.deterministic { "printed-lane-exact" } else { "printed-lane-sampled" },
                                &[("lane", (l.lane + 1).into())],
                            ) }
                        </span>
                        <span>
                            <q>{ shown(&l.printed) }</q>
                            if let Some(v) = verdict(l, &tr) {
                                { " " }<span class={classes!("verdict", l.verdict.as_str())}>{ v }</span>
                            }
                        </span>
                    </li>
                }) }
            </ul>
        </details>
    }
}
