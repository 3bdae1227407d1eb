//! Where lanes first part ways, and why: for each lane, what happened at that
//! step to the tokens the other lanes chose (a knob removed it, the random
//! draw went elsewhere, greedy or a penalty preferred another token).

use crate::knob::Stage;
use crate::mode::Mode;
use crate::record::{Candidate, Step};
use serde::{Deserialize, Serialize};
use std::borrow::Borrow;

/// One lane's token path, as the page and the CLI hold it (steps owned, or
/// shared as `Rc<Step>` on the page).
pub struct LanePath<'a, S: Borrow<Step> = Step> {
    pub lane: usize,
    pub mode: Mode,
    pub steps: &'a [S],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaneReason {
    pub lane: usize,
    pub token: String,
    /// One reason per other token chosen at the step.
    pub why: Vec<Why>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Divergence {
    /// 0-based step index.
    pub step: usize,
    pub lanes: Vec<LaneReason>,
}

/// The first step at which the lanes that reached it chose different tokens.
/// Beam lanes are left out: their steps do not form one path. Lanes that were
/// given their tokens (scoring a text) never diverge.
pub fn first_divergence<S: Borrow<Step>>(paths: &[LanePath<S>]) -> Option<Divergence> {
    let paths: Vec<&LanePath<S>> = paths
        .iter()
        .filter(|p| !p.mode.is_beam() && !p.steps.iter().any(|s| s.borrow().beams.is_some()))
        .collect();
    if paths.len() < 2 {
        return None;
    }
    let longest = paths.iter().map(|p| p.steps.len()).max()?;
    for i in 0..longest {
        let here: Vec<(&LanePath<S>, &Step)> = paths
            .iter()
            .filter_map(|p| p.steps.get(i).map(|s| (*p, s.borrow())))
            .collect();
        if here.len() < 2 {
            return None;
        }
        let first = here[0].1.token_id;
        if here.iter().all(|(_, s)| s.token_id == first) {
            continue;
        }
        let lanes = here
            .iter()
            .map(|(p, s)| {
                let others = unique(
                    here.iter()
                        .map(|(_, o)| (o.token_id, o.token.as_str()))
                        .filter(|&(t, _)| t != s.token_id),
                );
                LaneReason {
                    lane: p.lane,
                    token: s.token.clone(),
                    why: explain(p.mode, s, &others),
                }
            })
            .collect();
        return Some(Divergence { step: i, lanes });
    }
    None
}

fn unique<'a>(tokens: impl Iterator<Item = (u32, &'a str)>) -> Vec<(u32, &'a str)> {
    let mut out: Vec<(u32, &str)> = Vec::new();
    for t in tokens {
        if !out.iter().any(|o| o.0 == t.0) {
            out.push(t);
        }
    }
    out
}

/// How the lane picked its own token, when another lane's was outside its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pick {
    /// Scoring a text: the token was given.
    Given,
    Drawn,
    Highest,
}

/// Why a lane did not choose another lane's token at the step where they
/// part ways. Tokens are as tables show them; probabilities in 0..=1. The
/// page words each case in its reader's language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Why {
    /// The knobs (those that removed mass) removed `theirs`: the lane kept
    /// only `kept` tokens.
    KnobsRemoved {
        knobs: Vec<Stage>,
        theirs: String,
        kept: usize,
    },
    /// `theirs` was less likely than every row of the lane's table (`shown`
    /// rows, the least likely at `floor`); the lane's token won as `pick`.
    BelowTable {
        theirs: String,
        shown: usize,
        floor: f32,
        pick: Pick,
        mine: String,
        p_mine: f32,
    },
    /// One knob removed `theirs`, which the model gave `raw`.
    RemovedBy {
        knob: Stage,
        theirs: String,
        raw: f32,
    },
    /// `theirs` had no score at all here.
    Impossible { theirs: String },
    /// Scoring a text: the lane's token was given.
    Given { mine: String },
    /// Both were possible; the lane's random draw picked its token.
    Drawn {
        theirs: String,
        p_theirs: f32,
        mine: String,
        p_mine: f32,
    },
    /// Both survived llama.cpp's chain; its own seeded draw picked.
    LlamaCppDrawn {
        theirs: String,
        p_theirs: f32,
        mine: String,
        p_mine: f32,
    },
    /// Contrastive search's degeneration penalty preferred the lane's token.
    Degeneration { mine: String, theirs: String },
    /// The knobs lowered `theirs` (more likely to the model) below the lane's.
    Lowered {
        knobs: Vec<Stage>,
        theirs: String,
        mine: String,
        raw_theirs: f32,
        raw_mine: f32,
    },
    /// Greedy took the higher score.
    Greedy {
        mine: String,
        p_mine: f32,
        theirs: String,
        p_theirs: f32,
    },
}

/// Why this lane chose `step.token_id` over each of `others`.
fn explain(mode: Mode, step: &Step, others: &[(u32, &str)]) -> Vec<Why> {
    others
        .iter()
        .map(|&(o, token)| match step.top.iter().find(|c| c.id == o) {
            Some(c) => beaten_in_table(mode, step, c),
            None => missing_from_table(step, token),
        })
        .collect()
}

/// Another lane's token that is not in this lane's table.
fn missing_from_table(step: &Step, token: &str) -> Why {
    // Every kept token is in the table: one missing from it was removed.
    let kept_rows = step.top.iter().filter(|c| c.score.is_some()).count();
    if kept_rows >= step.kept && step.funnel.len() > 1 {
        return Why::KnobsRemoved {
            knobs: stages(step, |f| f.removed_mass > 0.0),
            theirs: token.to_string(),
            kept: step.kept,
        };
    }
    // Outside the table: less likely than every row shown, so also below the chosen token.
    let pick = if step.forced {
        Pick::Given
    } else if step.draw.is_some() {
        Pick::Drawn
    } else {
        Pick::Highest
    };
    let floor = step
        .top
        .iter()
        .map(|c| c.prob)
        .filter(|p| *p > 0.0)
        .fold(1.0, f32::min);
    Why::BelowTable {
        theirs: token.to_string(),
        shown: step.top.len(),
        floor,
        pick,
        mine: step.token.clone(),
        p_mine: step.chosen_prob,
    }
}

/// Another lane's token `c`, which this lane's table holds.
fn beaten_in_table(mode: Mode, step: &Step, c: &Candidate) -> Why {
    let (theirs, mine) = (c.token.clone(), step.token.clone());
    if let Some(knob) = c.removed_by {
        return Why::RemovedBy {
            knob,
            theirs,
            raw: c.raw_prob,
        };
    }
    if c.score.is_none() {
        return Why::Impossible { theirs };
    }
    if step.forced {
        return Why::Given { mine };
    }
    let (p_theirs, p_mine) = (c.prob, step.chosen_prob);
    if step.draw.is_some() {
        return Why::Drawn {
            theirs,
            p_theirs,
            mine,
            p_mine,
        };
    }
    if mode == Mode::LlamaCpp && step.kept > 1 {
        // llama.cpp's chain ends in its own seeded draw (an mt19937, not the
        // other lanes' stream), over the survivors.
        return Why::LlamaCppDrawn {
            theirs,
            p_theirs,
            mine,
            p_mine,
        };
    }
    if step.contrastive.is_some() || mode == Mode::Contrastive {
        return Why::Degeneration { mine, theirs };
    }
    let knobs = stages(step, |_| true);
    if c.raw_prob > step.chosen_raw_prob && !knobs.is_empty() {
        Why::Lowered {
            knobs,
            theirs,
            mine,
            raw_theirs: c.raw_prob,
            raw_mine: step.chosen_raw_prob,
        }
    } else {
        Why::Greedy {
            mine,
            p_mine,
            theirs,
            p_theirs,
        }
    }
}

/// The step's knob stages that pass `keep`, in the funnel's order.
fn stages(step: &Step, keep: impl Fn(&crate::record::FunnelStage) -> bool) -> Vec<Stage> {
    step.funnel
        .iter()
        .skip(1)
        .filter(|f| keep(f))
        .map(|f| f.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::FunnelStage;

    fn cand(id: u32, raw: f32, prob: f32, removed_by: Option<&str>) -> Candidate {
        Candidate {
            id,
            token: format!("t{id}"),
            logit: 0.0,
            raw_prob: raw,
            score: removed_by.is_none().then_some(0.0),
            prob,
            removed_by: removed_by.map(|k| k.parse().expect("a stage name")),
        }
    }

    fn step(id: u32, top: Vec<Candidate>, draw: Option<f64>, knobs: &[&str]) -> Step {
        let c = top.iter().find(|c| c.id == id).cloned().unwrap();
        let mut funnel = vec![FunnelStage {
            name: Stage::Model,
            kept: 10,
            removed_mass: 0.0,
            entropy: 1.0,
        }];
        funnel.extend(knobs.iter().map(|k| FunnelStage {
            name: k.parse().expect("a stage name"),
            kept: 5,
            removed_mass: 0.1,
            entropy: 0.5,
        }));
        Step {
            token_id: id,
            token: c.token.clone(),
            kept: 5,
            entropy: 0.5,
            raw_entropy: 1.0,
            rank: 1,
            chosen_raw_prob: c.raw_prob,
            chosen_prob: c.prob,
            nucleus: [1, 2, 3],
            funnel,
            top,
            draw,
            forced: false,
            beams: None,
            contrastive: None,
            dola: None,
            lens: None,
        }
    }

    #[test]
    fn lanes_that_agree_throughout_do_not_diverge() {
        let s = vec![step(1, vec![cand(1, 0.6, 0.6, None)], None, &[])];
        let p = [
            LanePath {
                lane: 0,
                mode: Mode::Greedy,
                steps: &s,
            },
            LanePath {
                lane: 1,
                mode: Mode::Greedy,
                steps: &s,
            },
        ];
        assert_eq!(first_divergence(&p), None);
    }

    #[test]
    fn divergence_names_the_knob_that_removed_the_other_lanes_token() {
        let same = step(1, vec![cand(1, 0.6, 0.6, None)], None, &[]);
        let greedy = vec![
            same.clone(),
            step(
                2,
                vec![cand(2, 0.5, 0.5, None), cand(3, 0.1, 0.1, None)],
                None,
                &[],
            ),
        ];
        let sampled = vec![
            same,
            step(
                3,
                vec![cand(3, 0.1, 0.4, None), cand(2, 0.5, 0.0, Some("top_k"))],
                Some(0.3),
                &["top_k"],
            ),
        ];
        let d = first_divergence(&[
            LanePath {
                lane: 0,
                mode: Mode::Greedy,
                steps: &greedy,
            },
            LanePath {
                lane: 2,
                mode: Mode::Sample,
                steps: &sampled,
            },
        ])
        .unwrap();
        assert_eq!(d.step, 1);
        assert_eq!(d.lanes[0].lane, 0);
        assert!(
            matches!(d.lanes[0].why[..], [Why::Greedy { .. }, ..]),
            "{:?}",
            d.lanes[0].why
        );
        assert_eq!(d.lanes[1].lane, 2);
        assert!(
            d.lanes[1].why.contains(&Why::RemovedBy {
                knob: Stage::Knob(crate::knob::Knob::TopK),
                theirs: "t2".into(),
                raw: 0.5
            }),
            "{:?}",
            d.lanes[1].why
        );
    }

    #[test]
    fn a_draw_between_two_kept_tokens_is_blamed_on_the_random_draw() {
        let a = vec![step(
            1,
            vec![cand(1, 0.5, 0.5, None), cand(2, 0.4, 0.4, None)],
            Some(0.1),
            &[],
        )];
        let b = vec![step(
            2,
            vec![cand(2, 0.4, 0.4, None), cand(1, 0.5, 0.5, None)],
            Some(0.9),
            &["temperature"],
        )];
        let d = first_divergence(&[
            LanePath {
                lane: 0,
                mode: Mode::Sample,
                steps: &a,
            },
            LanePath {
                lane: 1,
                mode: Mode::Sample,
                steps: &b,
            },
        ])
        .unwrap();
        assert!(
            d.lanes
                .iter()
                .all(|l| matches!(l.why[..], [Why::Drawn { .. }])),
            "{:?}",
            d
        );
    }

    #[test]
    fn a_penalty_that_lowered_the_model_favourite_is_named() {
        let a = vec![step(
            1,
            vec![cand(1, 0.5, 0.5, None), cand(2, 0.4, 0.4, None)],
            None,
            &[],
        )];
        let b = vec![step(
            2,
            vec![cand(2, 0.4, 0.6, None), cand(1, 0.5, 0.3, None)],
            None,
            &["repetition_penalty"],
        )];
        let d = first_divergence(&[
            LanePath {
                lane: 0,
                mode: Mode::Greedy,
                steps: &a,
            },
            LanePath {
                lane: 1,
                mode: Mode::Greedy,
                steps: &b,
            },
        ])
        .unwrap();
        assert_eq!(
            d.lanes[1].why,
            [Why::Lowered {
                knobs: vec![Stage::Knob(crate::knob::Knob::RepetitionPenalty)],
                theirs: "t1".into(),
                mine: "t2".into(),
                raw_theirs: 0.5,
                raw_mine: 0.4
            }]
        );
    }

    #[test]
    fn beam_lanes_are_left_out() {
        let a = vec![step(1, vec![cand(1, 0.5, 0.5, None)], None, &[])];
        let b = vec![step(2, vec![cand(2, 0.5, 0.5, None)], None, &[])];
        assert_eq!(
            first_divergence(&[
                LanePath {
                    lane: 0,
                    mode: Mode::Greedy,
                    steps: &a
                },
                LanePath {
                    lane: 1,
                    mode: Mode::Beam,
                    steps: &b
                }
            ]),
            None
        );
    }

    #[test]
    fn a_token_missing_from_a_table_that_holds_every_kept_token_was_removed() {
        let a = vec![step(
            1,
            vec![cand(1, 0.5, 0.5, None), cand(2, 0.3, 0.3, None)],
            None,
            &[],
        )];
        let mut s = step(
            2,
            vec![cand(2, 0.3, 1.0, None), cand(3, 0.2, 0.0, Some("top_k"))],
            Some(0.5),
            &["top_k"],
        );
        s.kept = 1;
        let d = first_divergence(&[
            LanePath {
                lane: 0,
                mode: Mode::Greedy,
                steps: &a,
            },
            LanePath {
                lane: 1,
                mode: Mode::Sample,
                steps: &[s],
            },
        ])
        .unwrap();
        assert_eq!(
            d.lanes[1].why,
            [Why::KnobsRemoved {
                knobs: vec![Stage::Knob(crate::knob::Knob::TopK)],
                theirs: "t1".into(),
                kept: 1
            }]
        );
    }

    #[test]
    fn a_token_outside_the_table_is_named_with_the_tables_floor() {
        let a = vec![step(
            1,
            vec![cand(1, 0.5, 0.5, None), cand(2, 0.3, 0.3, None)],
            None,
            &[],
        )];
        let b = vec![step(
            9,
            vec![cand(9, 0.01, 0.02, None)],
            Some(0.5),
            &["temperature"],
        )];
        let d = first_divergence(&[
            LanePath {
                lane: 0,
                mode: Mode::Greedy,
                steps: &a,
            },
            LanePath {
                lane: 1,
                mode: Mode::Sample,
                steps: &b,
            },
        ])
        .unwrap();
        assert_eq!(
            d.lanes[0].why,
            [Why::BelowTable {
                theirs: "t9".into(),
                shown: 2,
                floor: 0.3,
                pick: Pick::Highest,
                mine: "t1".into(),
                p_mine: 0.5
            }]
        );
    }
}
