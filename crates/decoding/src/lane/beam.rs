//! Beam search as HF 5.x `_beam_search` does it: the first step expands beam 0
//! only; each step keeps the top `max(2, 1 + n_eos) * num_beams` continuations;
//! a continuation that hits a stopping criterion becomes a finished hypothesis
//! only if it ranks in the top `num_beams`; finished scores are
//! `sum_logprobs / generated_len ** length_penalty`; `early_stopping` is one of
//! HF's three behaviours. With `do_sample` (HF's beam sampling) the kept
//! continuations are drawn without replacement from the softmax over every
//! beam's scores, then ranked by score, as HF's `_get_top_k_continuations`.

use super::beam_common::{beam_scores, beam_step, full_ids, stop_reason};
use super::contract::{finish_run, sequence, Lane, LaneEnv, Next, RowOutputs};
use crate::config::{EarlyStopping, ValidConfig};
use crate::draws::{pick_k, Draws};
use crate::processors::Pipeline;
use crate::record::{BeamCandidate, Run, Sequence, Step, StopReason};
use crate::scores::top_indices;
use crate::stop::stop_string_hit;

const NEG_BIG: f32 = -1.0e9;

#[derive(Clone)]
struct Finished {
    tokens: Vec<u32>,
    score: f32,
    done: bool,
}

pub struct BeamLane {
    cfg: ValidConfig,
    pipeline: Pipeline,
    prompt: Vec<u32>,
    num_beams: usize,
    running: Vec<Vec<u32>>,
    running_scores: Vec<f32>,
    /// Which of the lane's current cache rows holds each running beam.
    row_of_beam: Vec<usize>,
    finished: Vec<Finished>,
    heuristic_unsatisfied: bool,
    steps: Vec<Step>,
    stop: Option<StopReason>,
    /// The lane's random stream, when its beams sample.
    draws: Option<Draws>,
}

impl BeamLane {
    pub fn new(cfg: ValidConfig, pipeline: Pipeline, prompt: &[u32]) -> BeamLane {
        let n = cfg.num_beams;
        let mut running_scores = vec![NEG_BIG; n];
        running_scores[0] = 0.0;
        BeamLane {
            num_beams: n,
            running: vec![vec![]; n],
            running_scores,
            row_of_beam: vec![0; n],
            finished: vec![
                Finished {
                    tokens: vec![],
                    score: NEG_BIG,
                    done: false
                };
                n
            ],
            heuristic_unsatisfied: true,
            steps: vec![],
            stop: None,
            draws: cfg.is_sampling().then(|| Draws::new(cfg.seed)),
            prompt: prompt.to_vec(),
            cfg,
            pipeline,
        }
    }

    fn full_ids(&self, generated: &[u32]) -> Vec<u32> {
        full_ids(&self.prompt, generated)
    }

    /// Whether a continuation ends its hypothesis (HF's stopping criteria on the candidate).
    fn hits_stop(&self, seq: &[u32], env: &LaneEnv) -> bool {
        let last = *seq.last().expect("candidate has a token");
        if self.cfg.eos_token_ids.contains(&last) {
            return true;
        }
        if seq.len() >= self.cfg.new_token_budget(self.prompt.len())
            || self.prompt.len() + seq.len() >= env.n_positions
        {
            return true;
        }
        !self.cfg.stop_strings.is_empty()
            && stop_string_hit(
                &env.vocab.concat_bytes(&self.full_ids(seq)),
                env.vocab.bytes(last).len(),
                &self.cfg.stop_strings,
            )
    }
}

impl Lane for BeamLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        _shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let nb = self.num_beams;
        let v = out.vocab_size;
        let prompt_len = self.prompt.len();
        let cur_len = prompt_len + self.running[0].len();

        // Processed log-probs of every running beam, plus its running score.
        let mut flat = Vec::with_capacity(nb * v);
        for b in 0..nb {
            let ids = self.full_ids(&self.running[b]);
            let logits = out.logits(self.row_of_beam[b]);
            let s = self.running_scores[b];
            flat.extend(beam_scores(
                &self.pipeline,
                &ids,
                prompt_len,
                logits,
                &[],
                s,
            ));
        }
        let n_eos = self.cfg.eos_token_ids.len();
        let keep = (2.max(1 + n_eos) * nb).min(flat.len());
        let top = match &mut self.draws {
            Some(draws) => {
                let mut drawn = pick_k(&flat, keep, draws);
                drawn.sort_by(|a, b| flat[*b].total_cmp(&flat[*a]));
                drawn
            }
            None => top_indices(&flat, keep),
        };
        let cands: Vec<(usize, u32, f32)> = top
            .iter()
            .map(|&i| (i / v, (i % v) as u32, flat[i]))
            .collect();
        let cand_seqs: Vec<Vec<u32>> = cands
            .iter()
            .map(|&(b, t, _)| {
                let mut s = self.running[b].clone();
                s.push(t);
                s
            })
            .collect();
        let hits: Vec<bool> = cand_seqs.iter().map(|s| self.hits_stop(s, env)).collect();

        // Beams that go on: the best continuations that did not stop.
        let run_scores: Vec<f32> = cands
            .iter()
            .zip(&hits)
            .map(|(c, &h)| c.2 + if h { NEG_BIG } else { 0.0 })
            .collect();
        let next = top_indices(&run_scores, nb);

        // Finished hypotheses: merge the top-`nb` stopped continuations into the kept set.
        let denom = ((cur_len + 1 - prompt_len) as f64).powf(self.cfg.length_penalty as f64) as f32;
        let beams_full = self.finished.iter().all(|f| f.done)
            && self.cfg.early_stopping == EarlyStopping::Always;
        let mut merged: Vec<Finished> = self.finished.clone();
        for (j, c) in cands.iter().enumerate() {
            let just_finished = hits[j] && j < nb;
            let mut s = c.2 / denom;
            if beams_full {
                s += NEG_BIG;
            }
            if !self.heuristic_unsatisfied {
                s += NEG_BIG;
            }
            if !just_finished {
                s += NEG_BIG;
            }
            merged.push(Finished {
                tokens: cand_seqs[j].clone(),
                score: s,
                done: just_finished,
            });
        }
        let merged_scores: Vec<f32> = merged.iter().map(|f| f.score).collect();
        self.finished = top_indices(&merged_scores, nb)
            .into_iter()
            .map(|i| merged[i].clone())
            .collect();

        // The table shows the beam that the best continuation extends.
        let best_beam = cands[0].0;
        let ids = self.full_ids(&self.running[best_beam]);
        let logits = out.logits(self.row_of_beam[best_beam]);
        let beams = cands
            .iter()
            .enumerate()
            .map(|(j, &(beam, token_id, score))| BeamCandidate {
                beam,
                token_id,
                token: env.vocab.display(token_id),
                score,
                finished: hits[j] && j < nb,
                running: next.contains(&j),
                next_beam: next.iter().position(|&k| k == j),
                group: None,
                diversity_penalty: None,
                padding: false,
                constraints: None,
                pushed: false,
            })
            .collect();
        let step = beam_step(&self.pipeline, &ids, prompt_len, logits, beams, env);
        self.steps.push(step.clone());

        // Reorder: the next rows are the kept beams' parents.
        let src: Vec<usize> = next.iter().map(|&j| self.row_of_beam[cands[j].0]).collect();
        let tokens: Vec<u32> = next.iter().map(|&j| cands[j].1).collect();
        self.running = next.iter().map(|&j| cand_seqs[j].clone()).collect();
        self.running_scores = next.iter().map(|&j| run_scores[j]).collect();
        self.row_of_beam = (0..nb).collect();

        let cur_len = cur_len + 1;
        let best_len =
            if self.cfg.early_stopping == EarlyStopping::Never && self.cfg.length_penalty > 0.0 {
                self.cfg.new_token_budget(prompt_len)
            } else {
                cur_len - prompt_len
            };
        let best_possible = self.running_scores[0]
            / ((best_len as f64).powf(self.cfg.length_penalty as f64) as f32);
        let min_finished = self
            .finished
            .iter()
            .map(|f| f.score)
            .fold(f32::INFINITY, f32::min);
        let improvable = self
            .finished
            .iter()
            .any(|f| best_possible > if f.done { min_finished } else { NEG_BIG });
        self.heuristic_unsatisfied &= improvable;
        let all_done = self.finished.iter().all(|f| f.done);
        let open = !(all_done && self.cfg.early_stopping == EarlyStopping::Always);
        let can_continue = !hits.iter().all(|&h| h);
        if self.heuristic_unsatisfied && open && can_continue {
            (Some(step), Next::Feed { src, tokens })
        } else {
            let reason = stop_reason(&self.cfg, &self.prompt, &self.finished[0].tokens, env);
            self.stop = Some(reason);
            (Some(step), Next::Done(reason))
        }
    }

    fn cancel(&mut self) {
        self.stop.get_or_insert(StopReason::Cancelled);
    }

    fn generated(&self) -> &[u32] {
        if self.finished[0].done && self.stop.is_some() {
            &self.finished[0].tokens
        } else {
            &self.running[0]
        }
    }

    fn into_run(self: Box<Self>, env: &LaneEnv) -> Run {
        let n = self.cfg.num_return_sequences;
        let mut sequences: Vec<Sequence> = self
            .finished
            .iter()
            .filter(|f| f.done)
            .take(n)
            .map(|f| sequence(&f.tokens, Some(f.score), env.vocab))
            .collect();
        if sequences.is_empty() {
            // Cancelled before any hypothesis finished: show the best running beam.
            sequences.push(sequence(&self.running[0], None, env.vocab));
        }
        finish_run(&self.cfg, sequences, self.stop, self.steps)
    }
}
