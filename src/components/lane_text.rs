//! A lane's generated text: each token a span tinted by how likely it was,
//! clickable to open its step's table.

use crate::format;
use crate::lane_result::LaneResult;
use crate::rc_eq::RcEq;
use ntl_decoding::Step;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub result: Option<RcEq<LaneResult>>,
    pub selected: Option<usize>,
    /// The step where the lanes first part ways, marked ◆.
    pub diverge: Option<usize>,
    /// The watermark detector's verdict per token (green, red, unscored).
    #[prop_or_default]
    pub green: Option<RcEq<Vec<Option<bool>>>>,
    pub on_select: Callback<usize>,
}

/// Beam search: the best hypothesis can change under earlier tokens, so the
/// text is shown whole and the steps as numbered chips.
fn chips(r: &LaneResult, p: &Props) -> Html {
    html! {
        <div class="lane-text" data-testid="lane-text">
            <span class="plain">{ r.text.clone() }</span>
            <div class="chips">
                { for r.steps.iter().enumerate().map(|(i, s)| {
                    let cb = p.on_select.clone();
                    html! {
                        <button
                            key={i}
                            class={classes!("chip", (p.selected == Some(i)).then_some("selected"))}
                            data-testid="token"
                            title={format::visible(&s.token)}
                            onclick={Callback::from(move |_| cb.emit(i))}
                        >
                            { i + 1 }
                        </button>
                    }
                }) }
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct TokenProps {
    index: usize,
    piece: Rc<str>,
    step: RcEq<Step>,
    selected: bool,
    diverge: bool,
    green: Option<bool>,
    on_select: Callback<usize>,
}

/// One token of the text: tinted by its probability, struck out when a
/// scored text's token was impossible under this lane's knobs. A component,
/// so a streamed step renders its own span and leaves the others be.
#[function_component(Token)]
fn token(p: &TokenProps) -> Html {
    let (i, s) = (p.index, &p.step);
    let cb = p.on_select.clone();
    let impossible = s.forced && s.chosen_prob == 0.0;
    let title = if impossible {
        let model_p = format::prob(s.chosen_raw_prob);
        format!(
            "step {} · impossible under this lane's knobs (model p = {model_p})",
            i + 1
        )
    } else {
        let note = if p.diverge {
            " · the lanes part ways here"
        } else {
            ""
        };
        format!("step {} · p = {}{note}", i + 1, format::prob(s.chosen_prob))
    };
    let (text, bytes) = shown(&p.piece, &s.token);
    let title = if &*p.piece != s.token.as_str() && s.token.contains("<0x") {
        format!("{title} · bytes {}", format::visible(&s.token))
    } else {
        title
    };
    let class = classes!(
        "tok",
        bytes.then_some("bytes"),
        p.selected.then_some("selected"),
        impossible.then_some("impossible"),
        p.diverge.then_some("diverge"),
        p.green.map(|g| if g { "wm-green" } else { "wm-red" })
    );
    let title = match p.green {
        Some(true) => format!("{title} · watermark: green"),
        Some(false) => format!("{title} · watermark: red"),
        None => title,
    };
    // Enter opens the step; the arrows open its neighbours.
    let onkeydown = {
        let cb = p.on_select.clone();
        Callback::from(move |e: KeyboardEvent| {
            let step = match e.key().as_str() {
                "Enter" | " " => i,
                "ArrowLeft" => i.saturating_sub(1),
                "ArrowRight" => i + 1,
                _ => return,
            };
            e.prevent_default();
            cb.emit(step);
        })
    };
    html! {
        <span
            {class}
            data-testid="token"
            data-step={i.to_string()}
            data-impossible={impossible.then_some("true")}
            data-green={p.green.map(|g| g.to_string())}
            style={format::tint(s.chosen_prob)}
            role="button"
            tabindex="0"
            aria-label={format!("“{}”, {title}", format::visible(&p.piece))}
            {title}
            onclick={Callback::from(move |_| cb.emit(i))}
            {onkeydown}
        >
            { text }
        </span>
    }
}

/// A token's text in the running text: as written, but a line break shows
/// as ↵ before it breaks the line (so the token can be seen and clicked).
/// A token that holds only part of a character, so added no visible text,
/// shows its bytes (`<0xE2>`) as the tables and the step grid do; the token
/// that completes the character shows the character.
fn shown(piece: &str, token: &str) -> (String, bool) {
    let partial = piece != token && (piece.trim().is_empty() || piece.contains('\u{FFFD}'));
    if partial {
        (token.to_string(), true)
    } else {
        (piece.replace('\n', "↵\n"), false)
    }
}

#[function_component(LaneText)]
pub fn lane_text(p: &Props) -> Html {
    let Some(r) = &p.result else {
        return html! { <div class="lane-text empty" data-testid="lane-text"></div> };
    };
    if r.rewritten {
        return chips(r, p);
    }
    html! {
        <div class="lane-text" data-testid="lane-text">
            // Keyed: yew matches unkeyed children from the end, so an appended
            // token would shift every span's contents to its neighbour.
            { for r.pieces.iter().zip(&r.steps).enumerate().map(|(i, (piece, s))| html! {
                <Token
                    key={i}
                    index={i}
                    piece={Rc::clone(piece)}
                    step={RcEq::from(Rc::clone(s))}
                    selected={p.selected == Some(i)}
                    diverge={p.diverge == Some(i)}
                    green={p.green.as_ref().and_then(|g| g.get(i).copied().flatten())}
                    on_select={p.on_select.clone()}
                />
            }) }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn a_token_holding_part_of_a_character_shows_its_bytes_and_the_one_completing_it_the_character()
    {
        // "❤" is E2 9D A4; GPT-2 splits " ❤" as " <0xE2><0x9D>" + "<0xA4>".
        assert_eq!(shown(" ", " <0xE2><0x9D>"), (" <0xE2><0x9D>".into(), true));
        assert_eq!(shown("", "<0xE2>"), ("<0xE2>".into(), true));
        assert_eq!(shown("❤", "<0xA4>"), ("❤".into(), false));
        assert_eq!(shown("\u{FFFD}", "<0xFF>"), ("<0xFF>".into(), true));
    }

    #[test]
    fn ordinary_tokens_show_as_written_with_newlines_marked() {
        assert_eq!(shown(" the", " the"), (" the".into(), false));
        assert_eq!(shown(" ", " "), (" ".into(), false));
        assert_eq!(shown("\n", "\n"), ("↵\n".into(), false));
    }
}
