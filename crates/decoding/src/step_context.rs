//! The tokens a recorded step's table was computed after. A lane with one
//! text: its tokens before the step. Beam search: the beam the step's best
//! continuation extends (the row its table shows), traced back through the
//! steps' beam records — each step lists its continuations in score order,
//! and those marked `running` are the next step's beams, in that order.

use crate::record::Step;
use std::borrow::Borrow;

/// The generated tokens before `step` on the path its table shows; `None`
/// when there is no such step or its beam records do not trace back. Takes
/// the steps as recorded or as the page shares them (`Rc<Step>`).
pub fn step_context<S: Borrow<Step>>(steps: &[S], step: usize) -> Option<Vec<u32>> {
    let target = steps.get(step)?.borrow();
    let Some(cands) = &target.beams else {
        return Some(steps[..step].iter().map(|s| s.borrow().token_id).collect());
    };
    // Before the first step every beam is the empty text (HF expands beam 0 only).
    let mut beams: Vec<Vec<u32>> = vec![vec![]];
    for s in &steps[..step] {
        beams = s
            .borrow()
            .beams
            .as_ref()?
            .iter()
            .filter(|c| c.running)
            .map(|c| {
                let mut seq = beams.get(c.beam)?.clone();
                seq.push(c.token_id);
                Some(seq)
            })
            .collect::<Option<_>>()?;
    }
    beams.get(cands.first()?.beam).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::BeamCandidate;

    fn step(token_id: u32, beams: Option<Vec<(usize, u32, bool)>>) -> Step {
        let mut s: Step = serde_json::from_str(
            r#"{"token_id": 0, "token": "", "kept": 1, "entropy": 0.0, "raw_entropy": 0.0,
                "rank": 1, "chosen_raw_prob": 1.0, "chosen_prob": 1.0, "nucleus": [1, 1, 1],
                "funnel": [], "top": []}"#,
        )
        .expect("a minimal step");
        s.token_id = token_id;
        s.beams = beams.map(|b| {
            b.into_iter()
                .map(|(beam, token_id, running)| BeamCandidate {
                    beam,
                    token_id,
                    token: String::new(),
                    score: 0.0,
                    finished: false,
                    running,
                    next_beam: None,
                    group: None,
                    diversity_penalty: None,
                    padding: false,
                    constraints: None,
                    pushed: false,
                })
                .collect()
        });
        s
    }

    #[test]
    fn a_single_path_lane_is_its_tokens_before_the_step() {
        let steps = [step(5, None), step(6, None), step(7, None)];
        assert_eq!(step_context(&steps, 0), Some(vec![]));
        assert_eq!(step_context(&steps, 2), Some(vec![5, 6]));
        assert_eq!(step_context(&steps, 3), None);
    }

    #[test]
    fn a_beam_steps_table_follows_the_beam_its_best_continuation_extends() {
        // Step 0 expands beam 0 into beams [10], [11]; step 1's beams are
        // [11, 21] and [10, 20]; step 2's best continuation extends beam 1.
        let steps = [
            step(10, Some(vec![(0, 10, true), (0, 11, true), (0, 12, false)])),
            step(21, Some(vec![(1, 21, true), (0, 20, true), (1, 22, false)])),
            step(30, Some(vec![(1, 30, true), (0, 31, true)])),
        ];
        assert_eq!(step_context(&steps, 0), Some(vec![]));
        assert_eq!(step_context(&steps, 1), Some(vec![11]));
        assert_eq!(step_context(&steps, 2), Some(vec![10, 20]));
    }

    #[test]
    fn beam_records_that_do_not_trace_back_give_none() {
        let steps = [
            step(10, Some(vec![(3, 10, true)])),
            step(11, Some(vec![(0, 11, true)])),
        ];
        assert_eq!(step_context(&steps, 1), None);
    }
}
