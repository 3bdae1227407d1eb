//! A llama.cpp lane: one row, llama.cpp's sampler chain instead of HF's
//! processors. The chain is stateful (penalty and DRY history, mirostat's
//! `mu`, its seeded draws), so the lane owns it and tells it every token the
//! sequence takes: the prompt's first, as llama-server does, then each pick.

use super::contract::{
    feed_or_done, finish_run, one_row_stop, sequence, Lane, LaneEnv, Next, RowOutputs,
};
use crate::config::ValidConfig;
use crate::llama_cpp::observe::observe_chain;
use crate::llama_cpp::{Chain, ChainModel};
use crate::observe::{step_record, StepInfo};
use crate::record::{Run, Step, StopReason};
use crate::scores::argmax;

pub struct LlamaCppLane {
    cfg: ValidConfig,
    /// `cfg` without its stop words: llama-server looks for them its own way
    /// (in the generated text only, [`llama_server_stop`]).
    no_stops: ValidConfig,
    chain: Chain,
    ids: Vec<u32>,
    prompt_len: usize,
    forced: Option<Vec<u32>>,
    steps: Vec<Step>,
    stop: Option<StopReason>,
}

impl LlamaCppLane {
    /// `None` when the config is not a llama.cpp lane's.
    pub fn new(cfg: ValidConfig, forced: Option<Vec<u32>>, env: &LaneEnv) -> Option<LlamaCppLane> {
        let settings = cfg.llama_cpp.clone()?;
        let model = ChainModel {
            n_vocab: env.vocab.len(),
            n_ctx: env.n_positions,
            eog: &cfg.eos_token_ids,
        };
        let mut chain = Chain::new(&settings, &model);
        for &t in env.prompt {
            chain.accept(t);
        }
        let no_stops = ValidConfig {
            stop_strings: vec![],
            ..cfg.clone()
        };
        Some(LlamaCppLane {
            cfg,
            no_stops,
            chain,
            ids: env.prompt.to_vec(),
            prompt_len: env.prompt.len(),
            forced,
            steps: vec![],
            stop: None,
        })
    }
}

impl Lane for LlamaCppLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        _shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let logits = out.logits(0);
        let (obs, picked) = observe_chain(&mut self.chain, logits);
        let n = self.ids.len() - self.prompt_len;
        let (chosen, forced) = match &self.forced {
            Some(f) => (f[n], true),
            // llama.cpp asserts a pick; a chain always ends in one that picks.
            None => (picked.unwrap_or(argmax(&obs.processed) as u32), false),
        };
        let step = step_record(
            &obs,
            StepInfo {
                logits,
                chosen,
                draw: None,
                forced,
                top_n: env.top_n,
            },
            env.vocab,
        );
        self.chain.accept(chosen);
        self.ids.push(chosen);
        self.steps.push(step.clone());
        let mut stop = one_row_stop(
            &self.no_stops,
            &self.ids,
            self.prompt_len,
            self.forced.as_deref(),
            env,
        );
        // llama-server looks for stop words right after a token's text
        // arrives, before its n_predict and context limits; eos comes first.
        if self.forced.is_none()
            && stop != Some(StopReason::Eos)
            && self.stop_position(env).is_some()
        {
            stop = Some(StopReason::StopString);
        }
        if stop.is_some() {
            self.stop = stop;
        }
        (Some(step), feed_or_done(stop, chosen))
    }

    fn cancel(&mut self) {
        self.stop.get_or_insert(StopReason::Cancelled);
    }

    fn generated(&self) -> &[u32] {
        &self.ids[self.prompt_len..]
    }

    fn one_sequence(&self) -> bool {
        true
    }

    fn last_step_mut(&mut self) -> Option<&mut Step> {
        self.steps.last_mut()
    }

    fn into_run(self: Box<Self>, env: &LaneEnv) -> Run {
        let mut best = sequence(&self.ids[self.prompt_len..], None, env.vocab);
        // llama-server's content ends before the stop word (its tokens were
        // generated and are counted, and stay in the steps).
        if self.stop == Some(StopReason::StopString) {
            if let Some(at) = self.stop_position(env) {
                let bytes = env.vocab.concat_bytes(&self.ids[self.prompt_len..]);
                best.text = String::from_utf8_lossy(&bytes[..at]).into_owned();
            }
        }
        finish_run(&self.cfg, vec![best], self.stop, self.steps)
    }
}

impl LlamaCppLane {
    /// Where a stop word begins in the generated text, as llama-server
    /// finds it after each token.
    fn stop_position(&self, env: &LaneEnv) -> Option<usize> {
        let generated = &self.ids[self.prompt_len..];
        let last = *generated.last()?;
        llama_server_stop(
            &env.vocab.concat_bytes(generated),
            env.vocab.bytes(last).len(),
            &self.cfg.stop_strings,
        )
    }
}

/// llama-server's `find_stopping_strings` on a whole token: each stop word
/// searched from `word + last token` bytes before the end of the generated
/// text, the earliest found. Unlike HF's rule, a word wholly inside the last
/// token counts.
pub(crate) fn llama_server_stop(
    text: &[u8],
    last_token_len: usize,
    words: &[String],
) -> Option<usize> {
    words
        .iter()
        .filter(|w| !w.is_empty())
        .filter_map(|w| {
            let w = w.as_bytes();
            let from = text.len().saturating_sub(w.len() + last_token_len);
            text[from..]
                .windows(w.len())
                .position(|win| win == w)
                .map(|p| from + p)
        })
        .min()
}

#[cfg(test)]
mod stop_tests {
    use super::llama_server_stop;

    fn stop(tokens: &[&str], words: &[&str]) -> Option<usize> {
        let text: String = tokens.concat();
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        llama_server_stop(text.as_bytes(), tokens.last().unwrap().len(), &words)
    }

    #[test]
    fn a_stop_word_is_found_where_llama_server_finds_it() {
        // Across tokens, inside the last token (HF would not stop there), and the earliest of two.
        assert_eq!(stop(&["Hello", " wor", "ld."], &["world"]), Some(6));
        assert_eq!(stop(&["Hi", " there. Bye"], &["."]), Some(8));
        assert_eq!(stop(&["a", "b.c\n"], &["\n", "."]), Some(2));
        // One that ended before the last token's reach was seen a token ago.
        assert_eq!(stop(&["x. ", "long tail"], &["."]), None);
        assert_eq!(stop(&["abc"], &["zz"]), None);
    }
}
