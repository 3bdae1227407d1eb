//! A lane's generated text: each token a span tinted by how likely it was,
//! clickable to open its step's table.

use crate::format;
use crate::i18n::I18n;
use crate::lane_result::LaneResult;
use crate::rc_eq::RcEq;
use crate::token_bytes::{self, Split};
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
            <span class="plain">{ token_bytes::byte_form(&r.text) }</span>
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
    /// The character this token holds part of, when it is split over tokens.
    split: Option<Rc<Split>>,
    on_select: Callback<usize>,
}

/// What a token that holds part of a character adds to its title: its
/// bytes, and the whole character with all its bytes and tokens.
fn split_title(split: Option<&Split>, tr: &I18n) -> String {
    let Some(split) = split else {
        return String::new();
    };
    let bytes = token_bytes::hex(&split.bytes);
    let tokens = format!("{}–{}", split.tokens.start + 1, split.tokens.end);
    match split.character {
        Some(c) => tr.t_with(
            "token-split",
            &[
                ("char", c.to_string().into()),
                ("bytes", bytes.into()),
                ("tokens", tokens.into()),
            ],
        ),
        None => tr.t_with("token-split-cut", &[("bytes", bytes.into())]),
    }
}

/// One token of the text: tinted by its probability, struck out when a
/// scored text's token was impossible under this lane's knobs. A component,
/// so a streamed step renders its own span and leaves the others be.
#[function_component(Token)]
fn token(p: &TokenProps) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let (i, s) = (p.index, &p.step);
    let cb = p.on_select.clone();
    let impossible = s.forced && s.chosen_prob == 0.0;
    let step = i + 1;
    let mut title = if impossible {
        tr.t_with(
            "token-impossible",
            &[
                ("step", step.into()),
                ("p", format::prob(s.chosen_raw_prob).into()),
            ],
        )
    } else {
        tr.t_with(
            "token-step",
            &[
                ("step", step.into()),
                ("p", format::prob(s.chosen_prob).into()),
            ],
        )
    };
    if p.diverge {
        title += &tr.t("token-diverge");
    }
    let (text, bytes) = shown(&p.piece, &s.token);
    title += &split_title(p.split.as_deref(), &tr);
    let class = classes!(
        "tok",
        bytes.then_some("bytes"),
        p.selected.then_some("selected"),
        impossible.then_some("impossible"),
        p.diverge.then_some("diverge"),
        p.green.map(|g| if g { "wm-green" } else { "wm-red" })
    );
    let title = match p.green {
        Some(true) => title + &tr.t("token-watermark-green"),
        Some(false) => title + &tr.t("token-watermark-red"),
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
    let partial = piece != token
        && (piece.trim().is_empty() || piece.contains('\u{FFFD}') || piece.contains("<0x"));
    if partial {
        (token_bytes::byte_form(token), true)
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
    let splits = token_bytes::splits(r.steps.iter().map(|s| s.token.as_str()));
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
                    split={splits.get(i).cloned().flatten()}
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
        assert_eq!(shown(" ", " <0xE2><0x9D>"), (" ⟨e2 9d⟩".into(), true));
        assert_eq!(shown("", "<0xE2>"), ("⟨e2⟩".into(), true));
        assert_eq!(shown("❤", "<0xA4>"), ("❤".into(), false));
        assert_eq!(shown("<0xFF>", "<0xFF>"), ("<0xFF>".into(), false));
        assert_eq!(shown("a<0xFF>", "<0xFF>"), ("⟨ff⟩".into(), true));
    }

    #[test]
    fn ordinary_tokens_show_as_written_with_newlines_marked() {
        assert_eq!(shown(" the", " the"), (" the".into(), false));
        assert_eq!(shown(" ", " "), (" ".into(), false));
        assert_eq!(shown("\n", "\n"), ("↵\n".into(), false));
    }
}
