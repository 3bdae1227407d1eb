//! Constrained beam search as HF 4.55.4's `_constrained_beam_search` with its
//! `ConstrainedBeamSearchScorer` does it (the last version with it in core).
//! Each step starts as beam search does (the top continuations, eos ones
//! finishing a hypothesis — here only if the sequence before the eos meets
//! every constraint); then every beam also proposes the tokens that would move
//! a constraint forward, and all candidates are ranked by "bank" (progress on
//! the constraints) first and score second, taking the best of each bank in
//! turn, so beams at every stage of progress survive.
//!
//! HF's own quirks are kept: constraint states read the whole sequence, prompt
//! included (a phrase in the prompt counts as met); and a state copied to try a
//! token shares an in-progress choice's tokens with the original (see
//! `constraints.rs`).

use super::beam_common::{all_rows_stop, beam_scores, beam_step, full_ids, stop_reason};
use super::contract::{Lane, LaneEnv, Next, RowOutputs};
use super::hypotheses::{hypotheses_run, ranked, Hypotheses};
use crate::config::ValidConfig;
use crate::constraints::{completes, ListState};
use crate::processors::Pipeline;
use crate::record::{BeamCandidate, Run, Step, StopReason};
use crate::scores::top_indices;

const NEG_BIG: f32 = -1.0e9;

/// A continuation considered this step.
#[derive(Clone)]
struct Cand {
    beam: usize,
    token: u32,
    score: f32,
    pushed: bool,
}

pub struct ConstrainedBeamLane {
    cfg: ValidConfig,
    pipeline: Pipeline,
    prompt: Vec<u32>,
    running: Vec<Vec<u32>>,
    scores: Vec<f32>,
    row_of_beam: Vec<usize>,
    hyps: Hypotheses,
    done: bool,
    steps: Vec<Step>,
    stop: Option<StopReason>,
}

impl ConstrainedBeamLane {
    pub fn new(cfg: ValidConfig, pipeline: Pipeline, prompt: &[u32]) -> ConstrainedBeamLane {
        let n = cfg.num_beams;
        let mut scores = vec![NEG_BIG; n];
        scores[0] = 0.0;
        ConstrainedBeamLane {
            running: vec![vec![]; n],
            scores,
            row_of_beam: vec![0; n],
            hyps: Hypotheses::new(n),
            done: false,
            steps: vec![],
            stop: None,
            prompt: prompt.to_vec(),
            cfg,
            pipeline,
        }
    }

    fn meets(&self, generated: &[u32]) -> bool {
        completes(&self.cfg.force_words, &full_ids(&self.prompt, generated))
    }

    fn state(&self, generated: &[u32]) -> ListState {
        ListState::after(
            self.cfg.force_words.clone(),
            &full_ids(&self.prompt, generated),
        )
    }

    /// HF's `step_sentence_constraint`: the beams' own proposals for moving
    /// a constraint forward join the top continuations, and the survivors are
    /// taken bank by bank.
    fn rebalance(&self, top: Vec<Cand>, rows: &[Vec<f32>]) -> Vec<Cand> {
        let n = top.len();
        let mut seqs: Vec<Vec<u32>> = top
            .iter()
            .map(|c| {
                let mut s = self.running[c.beam].clone();
                s.push(c.token);
                s
            })
            .collect();
        let mut states: Vec<ListState> = seqs.iter().map(|s| self.state(s)).collect();
        let mut all = top;
        for (beam, pre) in self.running.iter().enumerate() {
            let advance = self.state(pre);
            if advance.completed {
                continue;
            }
            for token in advance.advance() {
                // Stepped from a copy, as HF does (copies share a choice's progress).
                let mut state = advance.copy();
                state.add(token);
                let mut seq = pre.clone();
                seq.push(token);
                if !seqs.contains(&seq) {
                    seqs.push(seq);
                    all.push(Cand {
                        beam,
                        token,
                        score: rows[beam][token as usize],
                        pushed: true,
                    });
                    states.push(state);
                }
            }
        }
        if all.len() == n {
            return all;
        }
        let banks: Vec<usize> = states.iter().map(ListState::bank).collect();
        // `banks * 100 + scores` in f32, sorted descending.
        let zipped: Vec<f32> = banks
            .iter()
            .zip(&all)
            .map(|(&b, c)| (b * 100) as f32 + c.score)
            .collect();
        let mut order: Vec<usize> = (0..all.len()).collect();
        order.sort_by(|&a, &b| zipped[b].total_cmp(&zipped[a]));
        // Rank within each bank, then take rank 0 of every bank, rank 1, ...
        let mut rank = Vec::with_capacity(order.len());
        let mut seen = 0usize;
        for (k, &i) in order.iter().enumerate() {
            if k == 0 || banks[i] != banks[order[k - 1]] {
                seen = 0;
            } else {
                seen += 1;
            }
            rank.push(seen);
        }
        let mut by_rank: Vec<usize> = (0..order.len()).collect();
        by_rank.sort_by_key(|&k| rank[k]);
        by_rank
            .into_iter()
            .take(n)
            .map(|k| all[order[k]].clone())
            .collect()
    }

    /// HF's `finalize`: running beams that meet every constraint join the
    /// hypotheses; if too few do, all the others join too. Best first.
    fn finalize(&mut self) -> Vec<(f64, Vec<u32>)> {
        if !self.done {
            let lp = self.cfg.length_penalty;
            let met: Vec<usize> = (0..self.running.len())
                .filter(|&b| self.meets(&self.running[b]))
                .collect();
            for &b in &met {
                let tokens = self.running[b].clone();
                let len = tokens.len();
                self.hyps.add(tokens, self.scores[b], len, lp);
            }
            if met.len() < self.cfg.num_return_sequences {
                for b in (0..self.running.len()).filter(|b| !met.contains(b)) {
                    let tokens = self.running[b].clone();
                    let len = tokens.len();
                    self.hyps.add(tokens, self.scores[b], len, lp);
                }
            }
            self.done = true;
        }
        ranked(self.hyps.beams.clone())
    }

    /// `next_beam`: its place among the beams that go on, if it is one.
    fn candidate(
        &self,
        c: &Cand,
        env: &LaneEnv,
        finished: bool,
        next_beam: Option<usize>,
    ) -> BeamCandidate {
        let mut seq = self.running[c.beam].clone();
        seq.push(c.token);
        let state = self.state(&seq);
        BeamCandidate {
            beam: c.beam,
            token_id: c.token,
            token: env.vocab.display(c.token),
            score: c.score,
            finished,
            running: next_beam.is_some(),
            next_beam,
            group: None,
            diversity_penalty: None,
            padding: false,
            constraints: Some([state.met(), self.cfg.force_words.len()]),
            pushed: c.pushed,
        }
    }
}

impl Lane for ConstrainedBeamLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        _shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let n = self.cfg.num_beams;
        let v = out.vocab_size;
        let prompt_len = self.prompt.len();
        // The new tokens once this step's is on (HF's `cur_len - decoder_prompt_len`).
        let generated_len = self.running[0].len() + 1;
        let rows: Vec<Vec<f32>> = (0..n)
            .map(|b| {
                let ids = full_ids(&self.prompt, &self.running[b]);
                let logits = out.logits(self.row_of_beam[b]);
                beam_scores(
                    &self.pipeline,
                    &ids,
                    prompt_len,
                    logits,
                    &[],
                    self.scores[b],
                )
            })
            .collect();
        let flat: Vec<f32> = rows.iter().flatten().copied().collect();
        let keep = (2.max(1 + self.cfg.eos_token_ids.len()) * n).min(flat.len());
        let top = top_indices(&flat, keep);

        let mut next = Vec::with_capacity(n);
        let mut others: Vec<(Cand, bool)> = Vec::new();
        for (rank, &i) in top.iter().enumerate() {
            let c = Cand {
                beam: i / v,
                token: (i % v) as u32,
                score: flat[i],
                pushed: false,
            };
            if self.cfg.eos_token_ids.contains(&c.token) {
                // Finished only if the text before the eos meets every constraint.
                let finished = rank < n && self.meets(&self.running[c.beam]);
                if finished {
                    let mut seq = self.running[c.beam].clone();
                    seq.push(c.token);
                    self.hyps
                        .add(seq, c.score, generated_len, self.cfg.length_penalty);
                }
                others.push((c, finished));
            } else if next.len() < n {
                next.push(c);
            } else {
                others.push((c, false));
            }
        }
        let next = self.rebalance(next, &rows);
        let max_new = self.cfg.new_token_budget(prompt_len);
        let best = top.first().map_or(NEG_BIG, |&i| flat[i]);
        self.done = self.hyps.is_done(best, generated_len, &self.cfg, max_new);

        let mut cands: Vec<BeamCandidate> = next
            .iter()
            .enumerate()
            .map(|(k, c)| self.candidate(c, env, false, Some(k)))
            .collect();
        cands.extend(
            others
                .iter()
                .filter(|(c, _)| !next.iter().any(|k| k.beam == c.beam && k.token == c.token))
                .map(|(c, finished)| self.candidate(c, env, *finished, None)),
        );
        // The table shows the row the first surviving beam extends.
        let first = next[0].beam;
        let ids = full_ids(&self.prompt, &self.running[first]);
        let logits = out.logits(self.row_of_beam[first]);
        let step = beam_step(&self.pipeline, &ids, prompt_len, logits, cands, env);
        self.steps.push(step.clone());

        let src: Vec<usize> = next.iter().map(|c| self.row_of_beam[c.beam]).collect();
        let tokens: Vec<u32> = next.iter().map(|c| c.token).collect();
        self.running = next
            .iter()
            .map(|c| {
                let mut s = self.running[c.beam].clone();
                s.push(c.token);
                s
            })
            .collect();
        self.scores = next.iter().map(|c| c.score).collect();
        self.row_of_beam = (0..n).collect();

        if self.done || all_rows_stop(&self.cfg, &self.prompt, &self.running, env) {
            let best = self.finalize();
            let reason = stop_reason(&self.cfg, &self.prompt, &best[0].1, env);
            self.stop = Some(reason);
            return (Some(step), Next::Done(reason));
        }
        (Some(step), Next::Feed { src, tokens })
    }

    fn cancel(&mut self) {
        self.stop.get_or_insert(StopReason::Cancelled);
    }

    fn generated(&self) -> &[u32] {
        &self.running[0]
    }

    fn into_run(mut self: Box<Self>, env: &LaneEnv) -> Run {
        let best = self.finalize();
        hypotheses_run(&self.cfg, &best, self.stop, self.steps, env)
    }
}
