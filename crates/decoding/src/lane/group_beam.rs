//! Diverse (group) beam search as HF 4.55 `_group_beam_search` with its
//! `BeamSearchScorer` does it — the last version with it in core, as for
//! contrastive search. The beams split into groups of `num_beams /
//! num_beam_groups`; each step the groups choose in turn, and a group's
//! log-probabilities lose `diversity_penalty` for each earlier group's beam
//! that just chose the same token (a processor, `HammingDiversity`). Each group
//! keeps its own finished hypotheses and is done on its own; a finished group's
//! beams are fed the pad token (HF's `pad_token_id`, GPT-2's eos) and still
//! count as "earlier" tokens for later groups. The answer is the best of all
//! groups' hypotheses.

use super::beam_common::{all_rows_stop, beam_scores, beam_step, full_ids, stop_reason};
use super::contract::{Lane, LaneEnv, Next, RowOutputs};
use super::hypotheses::{hypotheses_run, ranked, Hypotheses};
use crate::config::ValidConfig;
use crate::processors::Pipeline;
use crate::record::{BeamCandidate, Run, Step, StopReason};
use crate::scores::top_indices;

const NEG_BIG: f32 = -1.0e9;

pub struct GroupBeamLane {
    cfg: ValidConfig,
    pipeline: Pipeline,
    prompt: Vec<u32>,
    group_size: usize,
    running: Vec<Vec<u32>>,
    scores: Vec<f32>,
    /// Which of the lane's current cache rows holds each beam.
    row_of_beam: Vec<usize>,
    hyps: Vec<Hypotheses>,
    done: Vec<bool>,
    /// HF feeds a finished group's beams `pad_token_id` (the first eos for GPT-2).
    pad: u32,
    steps: Vec<Step>,
    stop: Option<StopReason>,
}

impl GroupBeamLane {
    pub fn new(cfg: ValidConfig, pipeline: Pipeline, prompt: &[u32]) -> GroupBeamLane {
        let (n, groups) = (cfg.num_beams, cfg.num_beam_groups);
        let group_size = n / groups;
        // Each group starts from its first beam (the others at -1e9), so the
        // beams of a group do not all choose the same token.
        let scores = (0..n)
            .map(|b| if b % group_size == 0 { 0.0 } else { NEG_BIG })
            .collect();
        GroupBeamLane {
            running: vec![vec![]; n],
            scores,
            row_of_beam: vec![0; n],
            hyps: (0..groups).map(|_| Hypotheses::new(group_size)).collect(),
            done: vec![false; groups],
            pad: cfg.eos_token_ids.first().copied().unwrap_or(0),
            steps: vec![],
            stop: None,
            prompt: prompt.to_vec(),
            group_size,
            cfg,
            pipeline,
        }
    }

    /// Every group's hypotheses, the running beams of unfinished groups added
    /// (HF's `finalize`), best first.
    fn finalize(&mut self) -> Vec<(f64, Vec<u32>)> {
        let lp = self.cfg.length_penalty;
        for g in 0..self.hyps.len() {
            if self.done[g] {
                continue;
            }
            for b in g * self.group_size..(g + 1) * self.group_size {
                let tokens = self.running[b].clone();
                let len = tokens.len();
                self.hyps[g].add(tokens, self.scores[b], len, lp);
            }
            self.done[g] = true;
        }
        ranked(
            self.hyps
                .iter()
                .flat_map(|h| h.beams.iter().cloned())
                .collect(),
        )
    }
}

impl Lane for GroupBeamLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        _shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let n = self.cfg.num_beams;
        let size = self.group_size;
        let v = out.vocab_size;
        let prompt_len = self.prompt.len();
        // HF's `cur_len` in the scorer: the length once this step's token is on.
        let generated_len = self.running[0].len() + 1;
        let keep = 2.max(1 + self.cfg.eos_token_ids.len()) * size;

        let mut chosen = vec![self.pad; n];
        let mut next_running: Vec<Vec<u32>> = vec![vec![]; n];
        let mut next_scores = vec![0.0f32; n];
        let mut src = vec![0usize; n];
        let mut cands: Vec<BeamCandidate> = Vec::new();
        for g in 0..self.hyps.len() {
            let base = g * size;
            if self.done[g] {
                for j in 0..size {
                    let mut seq = self.running[base].clone();
                    seq.push(self.pad);
                    next_running[base + j] = seq;
                    src[base + j] = self.row_of_beam[base];
                    cands.push(BeamCandidate {
                        beam: base,
                        token_id: self.pad,
                        token: env.vocab.display(self.pad),
                        score: 0.0,
                        finished: false,
                        running: true,
                        next_beam: Some(base + j),
                        group: Some(g),
                        diversity_penalty: None,
                        padding: true,
                        constraints: None,
                        pushed: false,
                    });
                }
                continue;
            }
            let earlier = &chosen[..base];
            let mut flat = Vec::with_capacity(size * v);
            for b in base..base + size {
                let ids = full_ids(&self.prompt, &self.running[b]);
                let logits = out.logits(self.row_of_beam[b]);
                let s = self.scores[b];
                flat.extend(beam_scores(
                    &self.pipeline,
                    &ids,
                    prompt_len,
                    logits,
                    earlier,
                    s,
                ));
            }
            let top = top_indices(&flat, keep.min(flat.len()));
            let mut kept = 0;
            let mut group_cands = Vec::with_capacity(top.len());
            for (rank, &i) in top.iter().enumerate() {
                let (local, token) = (i / v, (i % v) as u32);
                let beam = base + local;
                let score = flat[i];
                let is_eos = self.cfg.eos_token_ids.contains(&token);
                let mut seq = self.running[beam].clone();
                seq.push(token);
                let finished = is_eos && rank < size;
                let running = !is_eos && kept < size;
                let next_beam = running.then_some(base + kept);
                if finished {
                    self.hyps[g].add(seq, score, generated_len, self.cfg.length_penalty);
                } else if running {
                    next_running[base + kept] = seq;
                    next_scores[base + kept] = score;
                    src[base + kept] = self.row_of_beam[beam];
                    kept += 1;
                }
                let times = earlier.iter().filter(|&&t| t == token).count();
                group_cands.push(BeamCandidate {
                    beam,
                    token_id: token,
                    token: env.vocab.display(token),
                    score,
                    finished,
                    running,
                    next_beam,
                    group: Some(g),
                    diversity_penalty: (times > 0)
                        .then_some(self.cfg.diversity_penalty * times as f32),
                    padding: false,
                    constraints: None,
                    pushed: false,
                });
            }
            for j in 0..size {
                chosen[base + j] = next_running[base + j].last().copied().unwrap_or(self.pad);
            }
            let best = top.first().map(|&i| flat[i]).unwrap_or(NEG_BIG);
            let max_new = self.cfg.new_token_budget(prompt_len);
            self.done[g] = self.hyps[g].is_done(best, generated_len, &self.cfg, max_new);
            cands.extend(group_cands);
        }

        // The table shows the row the first listed continuation extends
        // (group 0's best), as for plain beam search.
        let first = cands[0].beam;
        let ids = full_ids(&self.prompt, &self.running[first]);
        let logits = out.logits(self.row_of_beam[first]);
        let step = beam_step(&self.pipeline, &ids, prompt_len, logits, cands, env);
        self.steps.push(step.clone());

        // A group already finished scores 0 (HF's `next_beam_scores` for it).
        self.running = next_running;
        self.scores = next_scores;
        self.row_of_beam = (0..n).collect();
        let tokens: Vec<u32> = chosen;

        // HF stops when every group is done, or when every row meets a stopping
        // criterion (rows of groups finished earlier end in pad, an eos).
        if self.done.iter().all(|&d| d)
            || all_rows_stop(&self.cfg, &self.prompt, &self.running, env)
        {
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
        // The best beam of the first group still searching.
        let g = self.done.iter().position(|d| !d).unwrap_or(0);
        &self.running[g * self.group_size]
    }

    fn into_run(mut self: Box<Self>, env: &LaneEnv) -> Run {
        let best = self.finalize();
        hypotheses_run(&self.cfg, &best, self.stop, self.steps, env)
    }
}
