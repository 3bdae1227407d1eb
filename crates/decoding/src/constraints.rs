//! Constrained beam search's constraints, as HF 4.55.4's `beam_constraints.py`
//! keeps them: a phrase that must appear (`PhrasalConstraint`), or one of
//! several phrases (`DisjunctiveConstraint`, a trie), and the state of a
//! hypothesis against all of them (`ConstraintListState`: done, in progress,
//! pending, and the "bank" its progress is worth).
//!
//! Reproduced with HF's quirks, because they decide which beams survive: a
//! state is rebuilt from the whole sequence, prompt included; a token that
//! breaks the phrase in progress puts it back to pending without trying that
//! token again; and a copied in-progress disjunctive constraint shares its
//! token list with the original (Python list aliasing), so stepping one copy
//! moves the others.

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// One entry of HF's `force_words_ids`: a phrase (`[ids]`) or a choice of
/// phrases (`[[ids], [ids], …]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ForceWord {
    Phrase(Vec<i64>),
    Either(Vec<Vec<i64>>),
}

/// A constraint as checked: token ids.
#[derive(Debug, Clone, PartialEq)]
pub enum Forced {
    Phrase(Vec<u32>),
    Either(Arc<Trie>),
}

/// Why a `force_words_ids` entry cannot be a constraint (HF's checks and words).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConstraintError {
    /// Empty, or an id that is negative.
    #[error(
        "`force_words_ids` has to either be a `list[list[list[int]]]` or `list[list[int]]` of \
         positive integers"
    )]
    Shape,
    /// One phrase of a choice is the start of another.
    #[error(
        "Each list in `nested_token_ids` can't be a complete subset of another list, but is \
         {phrases:?}."
    )]
    Subset { phrases: Vec<Vec<u32>> },
}

/// Checks `force_words_ids` as HF does and reads its ids.
pub fn check(words: &[ForceWord]) -> Result<Vec<Forced>, ConstraintError> {
    if words.is_empty() {
        return Err(ConstraintError::Shape);
    }
    let ids = |v: &[i64]| -> Result<Vec<u32>, ConstraintError> {
        if v.is_empty() {
            return Err(ConstraintError::Shape);
        }
        v.iter()
            .map(|&i| u32::try_from(i).map_err(|_| ConstraintError::Shape))
            .collect()
    };
    words
        .iter()
        .map(|w| match w {
            ForceWord::Phrase(p) => Ok(Forced::Phrase(ids(p)?)),
            ForceWord::Either(list) => {
                if list.is_empty() {
                    return Err(ConstraintError::Shape);
                }
                let phrases = list.iter().map(|p| ids(p)).collect::<Result<Vec<_>, _>>()?;
                Trie::new(&phrases).map(|t| Forced::Either(Arc::new(t)))
            }
        })
        .collect()
}

impl Forced {
    /// Every id the constraint names (to check against a vocabulary).
    pub fn ids(&self) -> Vec<u32> {
        match self {
            Forced::Phrase(p) => p.clone(),
            Forced::Either(t) => t.phrases.iter().flatten().copied().collect(),
        }
    }
}

/// HF's `DisjunctiveTrie`.
#[derive(Debug, Clone, PartialEq)]
pub struct Trie {
    root: Node,
    max_height: usize,
    phrases: Vec<Vec<u32>>,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct Node {
    /// Children in insertion order (Python dicts keep it).
    children: Vec<(u32, Node)>,
}

impl Node {
    fn child(&self, t: u32) -> Option<&Node> {
        self.children.iter().find(|(k, _)| *k == t).map(|(_, n)| n)
    }
    fn leaves(&self) -> usize {
        if self.children.is_empty() {
            1
        } else {
            self.children.iter().map(|(_, n)| n.leaves()).sum()
        }
    }
}

impl Trie {
    fn new(phrases: &[Vec<u32>]) -> Result<Trie, ConstraintError> {
        let mut root = Node::default();
        for p in phrases {
            let mut level = &mut root;
            for &t in p {
                let i = match level.children.iter().position(|(k, _)| *k == t) {
                    Some(i) => i,
                    None => {
                        level.children.push((t, Node::default()));
                        level.children.len() - 1
                    }
                };
                level = &mut level.children[i].1;
            }
        }
        if root.leaves() != phrases.len() {
            return Err(ConstraintError::Subset {
                phrases: phrases.to_vec(),
            });
        }
        Ok(Trie {
            max_height: phrases.iter().map(Vec::len).max().unwrap_or(0),
            root,
            phrases: phrases.to_vec(),
        })
    }

    fn next_tokens(&self, seq: &[u32]) -> Vec<u32> {
        let mut node = &self.root;
        for &t in seq {
            // Only tokens that advanced are ever appended, so the path exists.
            match node.child(t) {
                Some(n) => node = n,
                None => return vec![],
            }
        }
        node.children.iter().map(|(k, _)| *k).collect()
    }
}

/// One constraint's progress (HF's constraint objects).
#[derive(Debug, Clone)]
enum Progress {
    Phrase {
        ids: Vec<u32>,
        /// HF's `fulfilled_idx`: −1 before the first token.
        fulfilled: isize,
        completed: bool,
    },
    Either {
        trie: Arc<Trie>,
        /// Shared by stateful copies, as the Python list is.
        seq: Rc<RefCell<Vec<u32>>>,
        completed: bool,
    },
}

impl Progress {
    fn fresh(c: &Forced) -> Progress {
        match c {
            Forced::Phrase(ids) => Progress::Phrase {
                ids: ids.clone(),
                fulfilled: -1,
                completed: false,
            },
            Forced::Either(trie) => Progress::Either {
                trie: trie.clone(),
                seq: Rc::default(),
                completed: false,
            },
        }
    }

    /// `copy(stateful=False)`.
    fn restart(&self) -> Progress {
        match self {
            Progress::Phrase { ids, .. } => Progress::fresh(&Forced::Phrase(ids.clone())),
            Progress::Either { trie, .. } => Progress::fresh(&Forced::Either(trie.clone())),
        }
    }

    fn seqlen(&self) -> usize {
        match self {
            Progress::Phrase { ids, .. } => ids.len(),
            Progress::Either { trie, .. } => trie.max_height,
        }
    }

    fn advance(&self) -> Vec<u32> {
        match self {
            Progress::Phrase {
                completed: true, ..
            } => vec![],
            Progress::Phrase { ids, fulfilled, .. } => vec![ids[(fulfilled + 1) as usize]],
            Progress::Either { trie, seq, .. } => trie.next_tokens(&seq.borrow()),
        }
    }

    fn does_advance(&self, t: u32) -> bool {
        match self {
            Progress::Phrase {
                completed: true, ..
            } => false,
            Progress::Phrase { ids, fulfilled, .. } => {
                ids.get((fulfilled + 1) as usize) == Some(&t)
            }
            Progress::Either { trie, seq, .. } => trie.next_tokens(&seq.borrow()).contains(&t),
        }
    }

    /// HF's `update`: (stepped, completed, reset).
    fn update(&mut self, t: u32) -> (bool, bool, bool) {
        let advances = self.does_advance(t);
        match self {
            Progress::Phrase {
                ids,
                fulfilled,
                completed,
            } => {
                if advances {
                    *fulfilled += 1;
                    *completed = *fulfilled == ids.len() as isize - 1;
                    (true, *completed, false)
                } else {
                    // HF's reset leaves `fulfilled_idx` at 0, not −1.
                    *completed = false;
                    *fulfilled = 0;
                    (false, false, true)
                }
            }
            Progress::Either {
                trie,
                seq,
                completed,
            } => {
                let reset = if advances {
                    seq.borrow_mut().push(t);
                    false
                } else {
                    *seq = Rc::default();
                    true
                };
                *completed = trie.next_tokens(&seq.borrow()).is_empty();
                (advances, *completed, reset)
            }
        }
    }

    fn remaining(&self) -> usize {
        match self {
            Progress::Phrase { ids, fulfilled, .. } => {
                (ids.len() as isize - (fulfilled + 1)) as usize
            }
            Progress::Either {
                completed: true, ..
            } => 0,
            Progress::Either { trie, seq, .. } => trie.max_height - seq.borrow().len(),
        }
    }
}

/// HF's `ConstraintListState`: one hypothesis against every constraint.
#[derive(Debug, Clone)]
pub struct ListState {
    constraints: Arc<[Forced]>,
    max_seqlen: usize,
    pub completed: bool,
    complete: Vec<Progress>,
    in_progress: Option<Progress>,
    pending: Vec<Progress>,
}

impl ListState {
    pub fn new(constraints: Arc<[Forced]>) -> ListState {
        let pending: Vec<Progress> = constraints.iter().map(Progress::fresh).collect();
        ListState {
            max_seqlen: pending.iter().map(Progress::seqlen).max().unwrap_or(0),
            constraints,
            completed: false,
            complete: vec![],
            in_progress: None,
            pending,
        }
    }

    /// The state after `seq` (HF's `reset(token_ids)`).
    pub fn after(constraints: Arc<[Forced]>, seq: &[u32]) -> ListState {
        let mut s = ListState::new(constraints);
        for &t in seq {
            s.add(t);
            if s.completed {
                break;
            }
        }
        s
    }

    /// How many constraints are met.
    pub fn met(&self) -> usize {
        self.complete.len()
    }

    /// Progress as HF ranks it: each met constraint is worth the longest
    /// constraint's length, a phrase in progress its tokens so far.
    pub fn bank(&self) -> usize {
        let partial = self
            .in_progress
            .as_ref()
            .map_or(0, |c| self.max_seqlen - c.remaining());
        self.complete.len() * self.max_seqlen + partial
    }

    /// Tokens that would make progress.
    pub fn advance(&self) -> Vec<u32> {
        match &self.in_progress {
            None => self.pending.iter().flat_map(Progress::advance).collect(),
            Some(c) => c.advance(),
        }
    }

    pub fn add(&mut self, t: u32) {
        if self.completed {
            return;
        }
        if let Some(mut c) = self.in_progress.take() {
            let (_, complete, reset) = c.update(t);
            if reset {
                self.pending.push(c.restart());
            } else if complete {
                self.complete.push(c);
                if self.pending.is_empty() {
                    self.completed = true;
                }
            } else {
                self.in_progress = Some(c);
            }
            return;
        }
        if let Some(i) = self.pending.iter().position(|c| c.does_advance(t)) {
            let mut c = self.pending.remove(i);
            let (_, complete, _) = c.update(t);
            if complete {
                self.complete.push(c);
            } else {
                self.in_progress = Some(c);
            }
            if self.pending.is_empty() && self.in_progress.is_none() {
                self.completed = true;
            }
        }
    }

    /// `copy(stateful=True)`: progress kept (an in-progress disjunctive
    /// constraint shares its token list), pending constraints restarted.
    pub fn copy(&self) -> ListState {
        ListState {
            constraints: self.constraints.clone(),
            max_seqlen: self.max_seqlen,
            completed: false,
            complete: self.complete.clone(),
            in_progress: self.in_progress.clone(),
            pending: self.pending.iter().map(Progress::restart).collect(),
        }
    }
}

/// Whether `seq` meets every constraint (HF's `check_completes_constraints`).
pub fn completes(constraints: &Arc<[Forced]>, seq: &[u32]) -> bool {
    ListState::after(constraints.clone(), seq).completed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forced(json: &str) -> Arc<[Forced]> {
        let words: Vec<ForceWord> = serde_json::from_str(json).unwrap();
        check(&words).unwrap().into()
    }

    #[test]
    fn a_phrase_is_met_when_its_tokens_appear_in_a_row() {
        let c = forced("[[5, 6]]");
        assert!(completes(&c, &[1, 5, 6, 2]));
        assert!(!completes(&c, &[5, 1, 6]));
        let s = ListState::after(c.clone(), &[1, 5]);
        assert_eq!((s.bank(), s.advance()), (1, vec![6]));
    }

    #[test]
    fn a_broken_phrase_goes_back_to_pending_without_the_token_being_tried_again() {
        // HF: 5 starts the phrase, the second 5 breaks it and is not re-read
        // as a new start, so "5 5 6" does not meet [5, 6].
        let c = forced("[[5, 6]]");
        assert!(!completes(&c, &[5, 5, 6]));
        assert!(completes(&c, &[5, 5, 5, 6]));
    }

    #[test]
    fn a_choice_is_met_by_any_of_its_phrases_and_banks_count_progress() {
        let c = forced("[[[5, 6], [7]], [9]]");
        assert!(completes(&c, &[7, 9]));
        assert!(completes(&c, &[9, 1, 5, 6]));
        assert!(!completes(&c, &[5, 9]));
        let s = ListState::after(c.clone(), &[9]);
        // One of two met, each worth the longest constraint (2).
        assert_eq!((s.met(), s.bank()), (1, 2));
        assert_eq!(s.advance(), vec![5, 7]);
    }

    #[test]
    fn a_phrase_inside_another_choice_is_refused_as_hf_refuses_it() {
        let words: Vec<ForceWord> = serde_json::from_str("[[[5, 6], [5]]]").unwrap();
        assert!(check(&words).unwrap_err().to_string().contains("subset"));
        let words: Vec<ForceWord> = serde_json::from_str("[[]]").unwrap();
        assert!(check(&words).is_err());
    }

    #[test]
    fn copies_of_a_choice_in_progress_share_its_tokens_as_python_lists_do() {
        let c = forced("[[[4, 5], [4, 6]]]");
        let s = ListState::after(c.clone(), &[4]);
        let mut a = s.copy();
        a.add(5);
        assert!(a.completed);
        // The original moved too: its phrase now reads [4, 5], so 6 breaks it.
        let mut b = s.copy();
        b.add(6);
        assert!(!b.completed);
        assert_eq!(b.bank(), 0);
    }
}
