//! Where lanes first part ways, and why: for each lane, what happened at that
//! step to the tokens the other lanes chose (a knob removed it, the random
//! draw went elsewhere, greedy or a penalty preferred another token).

use crate::record::Step;
use serde::{Deserialize, Serialize};

/// One lane's token path, as the page and the CLI hold it.
pub struct LanePath<'a> {
    pub lane: usize,
    pub mode: &'a str,
    pub steps: &'a [Step],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaneReason {
    pub lane: usize,
    pub token: String,
    pub reason: String,
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
pub fn first_divergence(paths: &[LanePath]) -> Option<Divergence> {
    let paths: Vec<&LanePath> = paths
        .iter()
        .filter(|p| p.mode != "beam" && !p.steps.iter().any(|s| s.beams.is_some()))
        .collect();
    if paths.len() < 2 {
        return None;
    }
    let longest = paths.iter().map(|p| p.steps.len()).max()?;
    for i in 0..longest {
        let here: Vec<(&LanePath, &Step)> = paths
            .iter()
            .filter_map(|p| p.steps.get(i).map(|s| (*p, s)))
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
                    reason: explain(p.mode, s, &others),
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

fn pct(p: f32) -> String {
    if p > 0.0 && p < 0.001 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", p * 100.0)
    }
}

/// Why this lane chose `step.token_id` over each of `others`.
fn explain(mode: &str, step: &Step, others: &[(u32, &str)]) -> String {
    let mine = format!("“{}”", step.token);
    let parts: Vec<String> = others
        .iter()
        .map(|&(o, token)| {
            let Some(c) = step.top.iter().find(|c| c.id == o) else {
                // Every kept token is in the table: one missing from it was removed.
                let kept_rows = step.top.iter().filter(|c| c.score.is_some()).count();
                if kept_rows >= step.kept && step.funnel.len() > 1 {
                    let cutters: Vec<&str> = step.funnel.iter().skip(1).filter(|f| f.removed_mass > 0.0).map(|f| f.name.as_str()).collect();
                    let noun = if step.kept == 1 { "token" } else { "tokens" };
                    return format!("the knobs ({}) removed “{token}”: this lane kept only {} {noun}", cutters.join(", "), step.kept);
                }
                // Outside the table: less likely than every row shown, so also below the chosen token.
                let how = if step.forced {
                    "was given"
                } else if step.draw.is_some() {
                    "was drawn"
                } else {
                    "scored highest"
                };
                return format!("“{token}” was not even among this lane's top {} (p below {}); {mine} {how} at {}", step.top.len(), pct(step.top.iter().map(|c| c.prob).filter(|p| *p > 0.0).fold(1.0, f32::min)), pct(step.chosen_prob));
            };
            let theirs = format!("“{}”", c.token);
            if let Some(knob) = &c.removed_by {
                return format!("`{knob}` removed {theirs} (model p {})", pct(c.raw_prob));
            }
            if c.score.is_none() {
                return format!("{theirs} was impossible here");
            }
            if step.forced {
                return format!("{mine} was given (scoring a text)");
            }
            if step.draw.is_some() {
                return format!("both were possible ({theirs} {} vs {mine} {}); the random draw picked {mine}", pct(c.prob), pct(step.chosen_prob));
            }
            if step.contrastive.is_some() || mode == "contrastive" {
                return format!("the degeneration penalty favoured {mine} over {theirs}");
            }
            let knobs: Vec<&str> = step.funnel.iter().skip(1).map(|f| f.name.as_str()).collect();
            if c.raw_prob > step.chosen_raw_prob && !knobs.is_empty() {
                format!("{} lowered {theirs} below {mine} (model p {} vs {})", knobs.join(", "), pct(c.raw_prob), pct(step.chosen_raw_prob))
            } else {
                format!("greedy takes the highest score: {mine} {} vs {theirs} {}", pct(step.chosen_prob), pct(c.prob))
            }
        })
        .collect();
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Candidate, FunnelStage};

    fn cand(id: u32, raw: f32, prob: f32, removed_by: Option<&str>) -> Candidate {
        Candidate {
            id,
            token: format!("t{id}"),
            logit: 0.0,
            raw_prob: raw,
            score: removed_by.is_none().then_some(0.0),
            prob,
            removed_by: removed_by.map(str::to_string),
        }
    }

    fn step(id: u32, top: Vec<Candidate>, draw: Option<f64>, knobs: &[&str]) -> Step {
        let c = top.iter().find(|c| c.id == id).cloned().unwrap();
        let mut funnel = vec![FunnelStage {
            name: "model".into(),
            kept: 10,
            removed_mass: 0.0,
            entropy: 1.0,
        }];
        funnel.extend(knobs.iter().map(|k| FunnelStage {
            name: (*k).into(),
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
        }
    }

    #[test]
    fn lanes_that_agree_throughout_do_not_diverge() {
        let s = vec![step(1, vec![cand(1, 0.6, 0.6, None)], None, &[])];
        let p = [
            LanePath {
                lane: 0,
                mode: "greedy",
                steps: &s,
            },
            LanePath {
                lane: 1,
                mode: "greedy",
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
                mode: "greedy",
                steps: &greedy,
            },
            LanePath {
                lane: 2,
                mode: "sample",
                steps: &sampled,
            },
        ])
        .unwrap();
        assert_eq!(d.step, 1);
        assert_eq!(d.lanes[0].lane, 0);
        assert!(
            d.lanes[0].reason.contains("greedy takes the highest score"),
            "{}",
            d.lanes[0].reason
        );
        assert_eq!(d.lanes[1].lane, 2);
        assert!(
            d.lanes[1].reason.contains("`top_k` removed “t2”"),
            "{}",
            d.lanes[1].reason
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
                mode: "sample",
                steps: &a,
            },
            LanePath {
                lane: 1,
                mode: "sample",
                steps: &b,
            },
        ])
        .unwrap();
        assert!(
            d.lanes
                .iter()
                .all(|l| l.reason.contains("the random draw picked")),
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
                mode: "greedy",
                steps: &a,
            },
            LanePath {
                lane: 1,
                mode: "greedy",
                steps: &b,
            },
        ])
        .unwrap();
        assert!(
            d.lanes[1]
                .reason
                .starts_with("repetition_penalty lowered “t1” below “t2”"),
            "{}",
            d.lanes[1].reason
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
                    mode: "greedy",
                    steps: &a
                },
                LanePath {
                    lane: 1,
                    mode: "beam",
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
                mode: "greedy",
                steps: &a,
            },
            LanePath {
                lane: 1,
                mode: "sample",
                steps: &[s],
            },
        ])
        .unwrap();
        assert_eq!(
            d.lanes[1].reason,
            "the knobs (top_k) removed “t1”: this lane kept only 1 token"
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
                mode: "greedy",
                steps: &a,
            },
            LanePath {
                lane: 1,
                mode: "sample",
                steps: &b,
            },
        ])
        .unwrap();
        assert_eq!(d.lanes[0].reason, "“t9” was not even among this lane's top 2 (p below 30.0%); “t1” scored highest at 50.0%");
    }
}
