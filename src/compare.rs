//! One step, every lane: the rows of the compare view, aligned by token (the
//! union of the lanes' candidate tables, one row per token id, so a token
//! sits on the same row in every lane), and which lanes reached the step by
//! another path than the first lane's.

use crate::lane_result::LaneResult;
use crate::lanes::LANES;
use ntl_decoding::record::Candidate;
use ntl_decoding::{Mode, Step};
use std::cmp::Ordering;

/// A token's row: what each lane's table says of it at this step (`None`
/// where that lane's table does not hold the token, or the lane has no step).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub token_id: u32,
    pub token: String,
    pub cells: [Option<Cell>; LANES],
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub candidate: Candidate,
    /// The lane chose this token at this step.
    pub chosen: bool,
}

/// How rows line up across lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// By token id: every lane's model shares one vocabulary.
    ById,
    /// By the candidate's decoded text: lanes run on models whose
    /// vocabularies differ, where one id means different tokens.
    ByText,
}

/// The rows for `steps` (each lane's step at one index), sorted by lane
/// `sort_by`'s raw probability; tokens that lane's table lacks come after,
/// by the highest raw probability any lane gives them.
pub fn rows(steps: &[Option<&Step>; LANES], sort_by: usize, align: Align) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for (lane, step) in steps.iter().enumerate() {
        let Some(step) = step else { continue };
        for c in &step.top {
            let same = |r: &Row| match align {
                Align::ById => r.token_id == c.id,
                Align::ByText => r.token == c.token,
            };
            let at = match rows.iter().position(same) {
                Some(i) => i,
                None => {
                    let cells = Default::default();
                    rows.push(Row {
                        token_id: c.id,
                        token: c.token.clone(),
                        cells,
                    });
                    rows.len() - 1
                }
            };
            let chosen = c.id == step.token_id;
            rows[at].cells[lane] = Some(Cell {
                candidate: c.clone(),
                chosen,
            });
        }
    }
    let key = |r: &Row| -> (Option<f32>, f32) {
        let own = r
            .cells
            .get(sort_by)
            .and_then(|c| c.as_ref())
            .map(|c| c.candidate.raw_prob);
        let best = r
            .cells
            .iter()
            .flatten()
            .map(|c| c.candidate.raw_prob)
            .fold(0.0, f32::max);
        (own, best)
    };
    rows.sort_by(|a, b| {
        let ((own_a, best_a), (own_b, best_b)) = (key(a), key(b));
        let by_own = match (own_a, own_b) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_own
            .then(best_b.total_cmp(&best_a))
            .then(a.token_id.cmp(&b.token_id))
            .then(a.token.cmp(&b.token))
    });
    rows
}

/// Lanes that reached step `index` by other tokens than the first lane
/// that did (their tables are about another context), and beam lanes, whose
/// steps are not one path.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Paths {
    pub other_text: Vec<usize>,
    pub beams: Vec<usize>,
}

pub fn paths(results: &[Option<&LaneResult>; LANES], index: usize, align: Align) -> Paths {
    let mut out = Paths::default();
    let mut first: Option<String> = None;
    for (lane, r) in results.iter().enumerate() {
        let Some(r) = r.filter(|r| r.steps.len() > index) else {
            continue;
        };
        if r.mode.is_some_and(Mode::is_beam) || r.rewritten {
            out.beams.push(lane);
            continue;
        }
        // Ids as text (`Align::ById`) or the tokens' own text.
        let before: String = r.steps[..index]
            .iter()
            .map(|s| match align {
                Align::ById => format!("{} ", s.token_id),
                Align::ByText => s.token.clone(),
            })
            .collect();
        match &first {
            None => first = Some(before),
            Some(f) if *f != before => out.other_text.push(lane),
            Some(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn cand(id: u32, raw: f32) -> Candidate {
        Candidate {
            id,
            token: format!("t{id}"),
            logit: 0.0,
            raw_prob: raw,
            score: Some(0.0),
            prob: raw,
            removed_by: None,
        }
    }

    fn step(chosen: u32, top: Vec<Candidate>) -> Step {
        Step {
            token_id: chosen,
            token: format!("t{chosen}"),
            kept: top.len(),
            entropy: 0.0,
            raw_entropy: 0.0,
            rank: 1,
            chosen_raw_prob: 0.5,
            chosen_prob: 0.5,
            nucleus: [1, 1, 1],
            funnel: vec![],
            top,
            draw: None,
            forced: false,
            beams: None,
            contrastive: None,
            dola: None,
            lens: None,
        }
    }

    #[test]
    fn a_token_in_two_lanes_tables_is_one_row_and_rows_follow_the_sort_lane() {
        let a = step(1, vec![cand(1, 0.5), cand(2, 0.3), cand(3, 0.1)]);
        let b = step(2, vec![cand(2, 0.6), cand(4, 0.2), cand(1, 0.1)]);
        let rows = rows(&[Some(&a), None, Some(&b), None], 0, Align::ById);
        let ids: Vec<u32> = rows.iter().map(|r| r.token_id).collect();
        // Lane 1's order first, then what only lane 3 holds.
        assert_eq!(ids, [1, 2, 3, 4]);
        assert!(rows[0].cells[0].as_ref().unwrap().chosen);
        assert!(rows[1].cells[2].as_ref().unwrap().chosen);
        assert_eq!(rows[1].cells[2].as_ref().unwrap().candidate.raw_prob, 0.6);
        assert!(rows[2].cells[2].is_none() && rows[0].cells[1].is_none());
        let by_third: Vec<u32> = super::rows(&[Some(&a), None, Some(&b), None], 2, Align::ById)
            .iter()
            .map(|r| r.token_id)
            .collect();
        assert_eq!(by_third, [2, 4, 1, 3]);
    }

    #[test]
    fn lanes_that_got_here_by_other_tokens_are_named() {
        let mut same = LaneResult::new(1, Some(Mode::Greedy), 0.0);
        let mut other = LaneResult::new(1, Some(Mode::Sample), 0.0);
        for (i, (x, y)) in [(5, 5), (6, 7), (8, 8)].into_iter().enumerate() {
            let text = "x".repeat(i + 1);
            same.push(i, Rc::new(step(x, vec![])), text.clone(), 0.0);
            other.push(i, Rc::new(step(y, vec![])), text, 0.0);
        }
        let lanes = [Some(&same), Some(&same), Some(&other), None];
        assert_eq!(
            paths(&lanes, 1, Align::ById),
            Paths::default(),
            "the same first token"
        );
        assert_eq!(paths(&lanes, 2, Align::ById).other_text, [2]);
    }

    #[test]
    fn lanes_on_models_with_other_vocabularies_line_up_by_the_tokens_text() {
        // Id 7 is " the" in one vocabulary and " a" in the other.
        let mut a_the = cand(7, 0.5);
        a_the.token = " the".into();
        let mut b_the = cand(3, 0.4);
        b_the.token = " the".into();
        let mut b_a = cand(7, 0.2);
        b_a.token = " a".into();
        let a = step(7, vec![a_the]);
        let b = step(3, vec![b_the, b_a]);
        let by_text = rows(&[Some(&a), Some(&b), None, None], 0, Align::ByText);
        let tokens: Vec<&str> = by_text.iter().map(|r| r.token.as_str()).collect();
        assert_eq!(tokens, [" the", " a"]);
        assert!(by_text[0].cells[0].is_some() && by_text[0].cells[1].is_some());
        assert_eq!(by_text[0].cells[1].as_ref().unwrap().candidate.id, 3);
        assert!(
            by_text[1].cells[0].is_none(),
            "lane 1's id 7 is not lane 2's"
        );
        // By id the two different tokens would share a row.
        let by_id = rows(&[Some(&a), Some(&b), None, None], 0, Align::ById);
        assert!(by_id.iter().any(|r| r.cells[0].is_some()
            && r.cells[1]
                .as_ref()
                .is_some_and(|c| c.candidate.token == " a")));
    }

    #[test]
    fn lanes_on_other_models_took_the_same_path_when_their_texts_agree() {
        let mut one = LaneResult::new(1, Some(Mode::Greedy), 0.0);
        let mut other = LaneResult::new(1, Some(Mode::Greedy), 0.0);
        let mut s1 = step(11, vec![]);
        s1.token = " and".into();
        let mut s2 = step(42, vec![]);
        s2.token = " and".into();
        one.push(0, Rc::new(s1.clone()), " and".into(), 0.0);
        one.push(1, Rc::new(s1), " and and".into(), 0.0);
        other.push(0, Rc::new(s2.clone()), " and".into(), 0.0);
        other.push(1, Rc::new(s2), " and and".into(), 0.0);
        let lanes = [Some(&one), Some(&other), None, None];
        assert_eq!(paths(&lanes, 1, Align::ByText), Paths::default());
        assert_eq!(paths(&lanes, 1, Align::ById).other_text, [1]);
    }
}
