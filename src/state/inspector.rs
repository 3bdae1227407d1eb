//! The token inspector: the prompt as the model's tokens, and what the model
//! predicted after each of them. The worker tokenizes and predicts; the page
//! asks again whenever the prompt changes, one request at a time, so fast
//! typing asks for the latest text only.

use ntl_decoding::inspect::{Prediction, PromptToken};
use ntl_protocol::{ToWorker, Unanswered};
use std::rc::Rc;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inspector {
    /// The text the tokens below are of.
    pub text: Option<String>,
    pub tokens: Rc<Vec<PromptToken>>,
    pub predictions: Rc<Vec<Prediction>>,
    /// The model's context size.
    pub context: usize,
    pub cropped: usize,
    pub error: Option<String>,
    /// The request in flight, and the text it asked about.
    pending: Option<(u64, String)>,
    next_request: u64,
    /// The look-up: a text typed to see its ids.
    pub lookup_text: String,
    pub lookup: Option<Result<Vec<PromptToken>, Unanswered>>,
    lookup_pending: Option<u64>,
}

impl Inspector {
    /// Whether `text` is to be asked for: it is not what is shown, and no
    /// request is in flight (the next one goes once the answer is in).
    pub fn needs(&self, text: &str) -> bool {
        self.pending.is_none() && self.text.as_deref() != Some(text)
    }

    /// The request for `text`, unless it is what is shown or being asked.
    pub fn ask(&mut self, text: &str) -> Option<ToWorker> {
        if !self.needs(text) {
            return None;
        }
        self.next_request += 1;
        self.pending = Some((self.next_request, text.to_string()));
        Some(ToWorker::Inspect {
            request_id: self.next_request,
            text: text.to_string(),
        })
    }

    /// The worker's answer; `false` for one this inspector did not ask.
    pub fn answered(
        &mut self,
        request_id: u64,
        tokens: Vec<PromptToken>,
        predictions: Vec<Prediction>,
        context: usize,
        cropped: usize,
    ) -> bool {
        let Some(text) = self.take(request_id) else {
            return false;
        };
        self.text = Some(text);
        self.tokens = Rc::new(tokens);
        self.predictions = Rc::new(predictions);
        self.context = context;
        self.cropped = cropped;
        self.error = None;
        true
    }

    pub fn failed(&mut self, request_id: u64, message: String) -> bool {
        let Some(text) = self.take(request_id) else {
            return false;
        };
        self.text = Some(text);
        self.tokens = Rc::default();
        self.predictions = Rc::default();
        self.error = Some(message);
        true
    }

    /// A text to look up: the request for the worker (none for an empty one).
    pub fn look_up(&mut self, text: String) -> Option<ToWorker> {
        self.lookup_text = text.clone();
        if text.is_empty() {
            self.lookup = None;
            self.lookup_pending = None;
            return None;
        }
        self.next_request += 1;
        self.lookup_pending = Some(self.next_request);
        Some(ToWorker::Tokenize {
            request_id: self.next_request,
            text,
        })
    }

    /// The look-up's answer; `false` for one overtaken by newer typing.
    pub fn looked_up(
        &mut self,
        request_id: u64,
        tokens: Result<Vec<PromptToken>, Unanswered>,
    ) -> bool {
        if self.lookup_pending != Some(request_id) {
            return false;
        }
        self.lookup_pending = None;
        self.lookup = Some(tokens);
        true
    }

    /// The looked-up text's one token id, when it is one token (an eos).
    pub fn lookup_single(&self) -> Option<u32> {
        match &self.lookup {
            Some(Ok(t)) if t.len() == 1 => Some(t[0].id),
            _ => None,
        }
    }

    fn take(&mut self, request_id: u64) -> Option<String> {
        match self.pending.take() {
            Some((id, text)) if id == request_id => Some(text),
            other => {
                self.pending = other;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(req: Option<ToWorker>) -> u64 {
        match req {
            Some(ToWorker::Inspect { request_id, .. }) => request_id,
            other => panic!("expected an inspect request, got {other:?}"),
        }
    }

    #[test]
    fn typing_asks_for_the_latest_text_one_request_at_a_time() {
        let mut i = Inspector::default();
        let first = id(i.ask("The"));
        assert_eq!(i.ask("The b"), None, "one request in flight");
        assert!(!i.answered(first + 7, vec![], vec![], 256, 0), "not ours");
        assert!(i.answered(first, vec![], vec![], 256, 0));
        assert_eq!(i.text.as_deref(), Some("The"));
        let second = id(i.ask("The best"));
        assert!(second > first);
        assert!(i.failed(second, "no model".into()));
        assert_eq!(i.error.as_deref(), Some("no model"));
        assert_eq!(i.ask("The best"), None, "answered already");
    }

    #[test]
    fn a_look_up_keeps_only_the_latest_answer_and_knows_a_single_token() {
        let mut i = Inspector::default();
        let first = id_of(i.look_up(".".into()));
        let second = id_of(i.look_up(" the end".into()));
        let dot = PromptToken {
            id: 13,
            token: ".".into(),
            bytes: b".".to_vec(),
        };
        assert!(!i.looked_up(first, Ok(vec![dot.clone()])), "overtaken");
        assert!(i.looked_up(second, Ok(vec![dot.clone(), dot.clone()])));
        assert_eq!(i.lookup_single(), None, "two tokens cannot be one eos");
        let third = id_of(i.look_up(".".into()));
        assert!(i.looked_up(third, Ok(vec![dot])));
        assert_eq!(i.lookup_single(), Some(13));
        assert_eq!(i.look_up(String::new()), None);
        assert_eq!(i.lookup, None);
    }

    fn id_of(req: Option<ToWorker>) -> u64 {
        match req {
            Some(ToWorker::Tokenize { request_id, .. }) => request_id,
            other => panic!("expected a tokenize request, got {other:?}"),
        }
    }
}
