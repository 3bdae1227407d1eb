//! Where the lanes first part ways and why, one line per lane.

use crate::format::{prob, visible};
use crate::i18n::I18n;
use crate::theme::lane_color;
use ntl_decoding::divergence::{Divergence, Pick, Why};
use ntl_decoding::Stage;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub divergence: Divergence,
    pub on_select: Callback<(usize, usize)>,
}

/// Knob stages as a list of their names (identifiers, not words).
fn names(knobs: &[Stage]) -> String {
    knobs
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One reason in the reader's language.
pub fn why_words(why: &Why, tr: &I18n) -> String {
    let q = |t: &str| format!("“{}”", visible(t));
    match why {
        Why::KnobsRemoved {
            knobs,
            theirs,
            kept,
        } => tr.t_with(
            "why-knobs-removed",
            &[
                ("knobs", names(knobs).into()),
                ("theirs", q(theirs).into()),
                ("kept", (*kept).into()),
            ],
        ),
        Why::BelowTable {
            theirs,
            shown,
            floor,
            pick,
            mine,
            p_mine,
        } => tr.t_with(
            "why-below-table",
            &[
                ("theirs", q(theirs).into()),
                ("shown", (*shown).into()),
                ("floor", prob(*floor).into()),
                (
                    "pick",
                    match pick {
                        Pick::Given => "given",
                        Pick::Drawn => "drawn",
                        Pick::Highest => "highest",
                    }
                    .into(),
                ),
                ("mine", q(mine).into()),
                ("p_mine", prob(*p_mine).into()),
            ],
        ),
        Why::RemovedBy { knob, theirs, raw } => tr.t_with(
            "why-removed-by",
            &[
                ("knob", knob.name().into()),
                ("theirs", q(theirs).into()),
                ("raw", prob(*raw).into()),
            ],
        ),
        Why::Impossible { theirs } => tr.t_with("why-impossible", &[("theirs", q(theirs).into())]),
        Why::Given { mine } => tr.t_with("why-given", &[("mine", q(mine).into())]),
        Why::Drawn {
            theirs,
            p_theirs,
            mine,
            p_mine,
        }
        | Why::LlamaCppDrawn {
            theirs,
            p_theirs,
            mine,
            p_mine,
        } => tr.t_with(
            if matches!(why, Why::Drawn { .. }) {
                "why-drawn"
            } else {
                "why-llama-drawn"
            },
            &[
                ("theirs", q(theirs).into()),
                ("p_theirs", prob(*p_theirs).into()),
                ("mine", q(mine).into()),
                ("p_mine", prob(*p_mine).into()),
            ],
        ),
        Why::Degeneration { mine, theirs } => tr.t_with(
            "why-degeneration",
            &[("mine", q(mine).into()), ("theirs", q(theirs).into())],
        ),
        Why::Lowered {
            knobs,
            theirs,
            mine,
            raw_theirs,
            raw_mine,
        } => tr.t_with(
            "why-lowered",
            &[
                ("knobs", names(knobs).into()),
                ("theirs", q(theirs).into()),
                ("mine", q(mine).into()),
                ("p_theirs", prob(*raw_theirs).into()),
                ("p_mine", prob(*raw_mine).into()),
            ],
        ),
        Why::Greedy {
            mine,
            p_mine,
            theirs,
            p_theirs,
        } => tr.t_with(
            "why-greedy",
            &[
                ("mine", q(mine).into()),
                ("p_mine", prob(*p_mine).into()),
                ("theirs", q(theirs).into()),
                ("p_theirs", prob(*p_theirs).into()),
            ],
        ),
    }
}

#[function_component(DivergenceNote)]
pub fn divergence_note(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let d = &p.divergence;
    html! {
        <section class="divergence" data-testid="divergence" data-step={d.step.to_string()}>
            <strong>{ tr.t_with("diverge-heading", &[("step", (d.step + 1).into())]) }</strong>
            <ul>
                { for d.lanes.iter().map(|l| {
                    let (lane, step, cb) = (l.lane, d.step, p.on_select.clone());
                    let reasons = l
                        .why
                        .iter()
                        .map(|w| why_words(w, &tr))
                        .collect::<Vec<_>>()
                        .join(&tr.t("reason-separator"));
                    html! {
                        <li data-lane={l.lane.to_string()}>
                            <button
                                class="link"
                                style={format!("color: {}", lane_color(l.lane))}
                                onclick={Callback::from(move |_| cb.emit((lane, step)))}
                            >
                                { tr.t_with("diverge-lane-chose", &[
                                    ("lane", (l.lane + 1).into()),
                                    ("token", visible(&l.token).into()),
                                ]) }
                            </button>
                            { tr.t_with("diverge-reasons", &[("reasons", reasons.into())]) }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct TextProps {
    pub divergence: crate::text_divergence::TextDivergence,
    pub on_select: Callback<(usize, usize)>,
}

/// Lanes on different models: the text they share and each lane's next
/// token, by text (their steps are other vocabularies' tokens).
#[function_component(TextDivergenceNote)]
pub fn text_divergence_note(p: &TextProps) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let d = &p.divergence;
    let heading = match d.shared.is_empty() {
        true => tr.t("diverge-text-at-once"),
        false => tr.t_with(
            "diverge-text-heading",
            &[("shared", crate::format::prompt_tail(&d.shared).into())],
        ),
    };
    html! {
        <section class="divergence" data-testid="divergence-text">
            <strong>{ heading }</strong>
            <ul>
                { for d.lanes.iter().map(|l| {
                    let (lane, step, cb) = (l.lane, l.step, p.on_select.clone());
                    html! {
                        <li data-lane={l.lane.to_string()} data-step={l.step.to_string()}>
                            <button
                                class="link"
                                style={format!("color: {}", lane_color(l.lane))}
                                onclick={Callback::from(move |_| cb.emit((lane, step)))}
                            >
                                { tr.t_with("diverge-text-lane", &[
                                    ("lane", (l.lane + 1).into()),
                                    ("token", visible(&l.token).into()),
                                    ("step", (l.step + 1).into()),
                                ]) }
                            </button>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reason_reads_as_before_in_english_and_in_chinese() {
        let en = I18n::new("en");
        let greedy = Why::Greedy {
            mine: " the".into(),
            p_mine: 0.5,
            theirs: " a".into(),
            p_theirs: 0.25,
        };
        assert_eq!(
            why_words(&greedy, &en),
            "greedy takes the highest score: “␣the” 50.0% vs “␣a” 25.0%"
        );
        let below = Why::BelowTable {
            theirs: "t9".into(),
            shown: 2,
            floor: 0.3,
            pick: Pick::Highest,
            mine: "t1".into(),
            p_mine: 0.5,
        };
        assert_eq!(
            why_words(&below, &en),
            "“t9” was not even among this lane's top 2 (p below 30.0%); “t1” scored highest at 50.0%"
        );
        let removed = Why::KnobsRemoved {
            knobs: vec![Stage::Knob(ntl_decoding::Knob::TopK)],
            theirs: "t1".into(),
            kept: 1,
        };
        assert_eq!(
            why_words(&removed, &en),
            "the knobs (top_k) removed “t1”: this lane kept only 1 token"
        );
        let zh = why_words(&removed, &I18n::new("zh-CN"));
        assert!(
            zh.contains("top_k") && zh.contains("只保留了 1 个词元"),
            "{zh}"
        );
    }
}
