//! Where lanes on different models part ways, by text: their steps are
//! tokens of different vocabularies, so step N of one lane is not step N of
//! another; what they share is the text they write. The first character
//! where the lanes' texts differ, and the step of each lane that wrote it.

use crate::lane_result::LaneResult;
use crate::lanes::LANES;

/// The text every lane wrote before parting, and each lane's next token.
#[derive(Debug, Clone, PartialEq)]
pub struct TextDivergence {
    /// The text all the lanes share (from the prompt's end).
    pub shared: String,
    pub lanes: Vec<TextPart>,
}

/// A lane's token that goes past the shared text, and its step (0-based).
#[derive(Debug, Clone, PartialEq)]
pub struct TextPart {
    pub lane: usize,
    pub step: usize,
    pub token: String,
}

/// Each step's piece of text, end to end (the lane's text as its tokens
/// decode one by one).
fn pieces(r: &LaneResult) -> Vec<&str> {
    r.steps.iter().map(|s| s.token.as_str()).collect()
}

/// Where the lanes' texts first differ; `None` with fewer than two lanes
/// that follow one path, or when no lane's text goes past the others'.
/// Beam lanes are left out, as in the step-wise note: their steps are not
/// one path.
pub fn text_divergence(results: &[Option<&LaneResult>; LANES]) -> Option<TextDivergence> {
    let lanes: Vec<(usize, Vec<&str>)> = results
        .iter()
        .enumerate()
        .filter_map(|(lane, r)| {
            let r =
                r.filter(|r| !r.mode.is_some_and(ntl_decoding::Mode::is_beam) && !r.rewritten)?;
            Some((lane, pieces(r)))
        })
        .collect();
    if lanes.len() < 2 {
        return None;
    }
    let texts: Vec<String> = lanes.iter().map(|(_, p)| p.concat()).collect();
    let first: Vec<char> = texts[0].chars().collect();
    let mut shared = texts
        .iter()
        .map(|t| t.chars().zip(&first).take_while(|(a, b)| a == *b).count())
        .min()
        .unwrap_or(0);
    shared = shared.min(texts.iter().map(|t| t.chars().count()).min().unwrap_or(0));
    let parts: Vec<TextPart> = lanes
        .iter()
        .filter_map(|(lane, pieces)| {
            // The step whose piece holds the first character past the shared text.
            let mut end = 0;
            pieces.iter().enumerate().find_map(|(step, piece)| {
                end += piece.chars().count();
                (end > shared).then(|| TextPart {
                    lane: *lane,
                    step,
                    token: piece.to_string(),
                })
            })
        })
        .collect();
    // All the same, or only one lane goes on past where the others stopped.
    let differ = texts
        .iter()
        .any(|t| t.chars().nth(shared) != first.get(shared).copied());
    if parts.len() < 2 || !differ {
        return None;
    }
    Some(TextDivergence {
        shared: first[..shared].iter().collect(),
        lanes: parts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ntl_decoding::Mode;
    use std::rc::Rc;

    fn lane(pieces: &[&str]) -> LaneResult {
        let mut r = LaneResult::new(1, Some(Mode::Greedy), 0.0);
        let mut text = String::new();
        for (i, p) in pieces.iter().enumerate() {
            text.push_str(p);
            let step = crate::state::run::tests::step(i as u32, p);
            r.push(i, Rc::new(step), text.clone(), 0.0);
        }
        r
    }

    #[test]
    fn lanes_cut_into_other_tokens_part_where_their_texts_do() {
        // One vocabulary has " unto", the other spells it out.
        let a = lane(&[" unto", " them", ","]);
        let b = lane(&[" u", "n", "to", " the", "e"]);
        let d = text_divergence(&[Some(&a), Some(&b), None, None]).expect("they part");
        assert_eq!(d.shared, " unto the");
        assert_eq!(
            d.lanes,
            [
                TextPart {
                    lane: 0,
                    step: 1,
                    token: " them".into()
                },
                TextPart {
                    lane: 1,
                    step: 4,
                    token: "e".into()
                },
            ]
        );
    }

    #[test]
    fn the_same_text_in_other_tokens_does_not_part() {
        let a = lane(&[" unto", " them"]);
        let b = lane(&[" un", "to", " them"]);
        assert_eq!(text_divergence(&[Some(&a), None, Some(&b), None]), None);
        // A lane that stopped early has not parted from one that went on.
        let short = lane(&[" unto"]);
        assert_eq!(text_divergence(&[Some(&a), Some(&short), None, None]), None);
    }

    #[test]
    fn lanes_that_differ_at_once_share_nothing() {
        let a = lane(&[",", " I"]);
        let b = lane(&[" unto"]);
        let d = text_divergence(&[Some(&a), Some(&b), None, None]).unwrap();
        assert_eq!(d.shared, "");
        assert_eq!(d.lanes.iter().map(|p| p.step).collect::<Vec<_>>(), [0, 0]);
    }
}
