//! What the views ask of the page (the compare view, the chat editor, the
//! token inspector, the sandbox), and the transition each request makes.

use super::outcome::Outcome;
use super::run::StepMove;
use super::token_lookup::LookupUse;
use super::Page;
use crate::state::chat::Role;
use ntl_decoding::Knob;

/// What the compare view asks the page to do.
pub enum CompareAction {
    Move(StepMove),
    SortBy(usize),
    Branch {
        lane: usize,
        token_id: u32,
    },
    /// Hold this lane's step in the what-if sandbox.
    TryKnobs(usize),
    /// Show or hide the logit lens.
    Lens(bool),
    Close,
}

/// What the chat editor asks the page to do.
pub enum ChatAction {
    Role(usize, Role),
    Content(usize, String),
    Add,
    Remove(usize),
    GenerationPrompt(bool),
    Render,
}

/// What the inspector asks the page to do.
pub enum InspectorAction {
    LookUp(String),
    /// The looked-up token as this lane's `eos_token_id`.
    UseAsEos(usize),
    /// The looked-up text as this lane's stop string.
    StopAt(usize),
    /// The looked-up tokens added to this lane's `bad_words_ids`.
    BadWords(usize),
    /// The looked-up tokens added to this lane's `force_words_ids`.
    ForceWords(usize),
}

/// What the sandbox asks the page to do.
pub enum SandboxAction {
    Logits(String),
    Knob(Knob, String),
    /// Copy the knobs into this lane.
    UseInLane(usize),
    /// Back to the typed logits from a lane's step.
    Toy,
}

impl Page {
    /// The compare view's request: move, sort, close, try the knobs on a
    /// lane's step, or branch from one of its candidates.
    pub fn on_compare(&mut self, action: CompareAction) -> Outcome {
        match action {
            CompareAction::Move(to) => {
                self.run.move_step(to);
                Outcome::redraw()
            }
            CompareAction::SortBy(lane) => {
                self.run.sort_by(lane);
                Outcome::redraw()
            }
            CompareAction::Close => {
                self.run.close_table();
                Outcome::redraw()
            }
            CompareAction::Lens(on) => self.show_lens(on),
            CompareAction::TryKnobs(lane) => {
                let step = self.run.selected.map_or(0, |(_, s)| s);
                self.open_sandbox(lane, step)
            }
            CompareAction::Branch { lane, token_id } => {
                let step = self.run.selected.map_or(0, |(_, s)| s);
                self.branch(lane, step, token_id)
            }
        }
    }

    /// The chat editor's request: edit a turn, or render the conversation.
    pub fn on_chat(&mut self, action: ChatAction) -> Outcome {
        let chat = &mut self.chat;
        match action {
            ChatAction::Role(i, role) => chat.set_role(i, role),
            ChatAction::Content(i, text) => chat.set_content(i, text),
            ChatAction::Add => chat.add_turn(),
            ChatAction::Remove(i) => chat.remove_turn(i),
            ChatAction::GenerationPrompt(on) => chat.add_generation_prompt = on,
            ChatAction::Render => return self.render_chat(),
        }
        Outcome::redraw()
    }

    /// The token inspector's request: look a text up, or put it in a lane.
    pub fn on_inspector(&mut self, action: InspectorAction) -> Outcome {
        match action {
            InspectorAction::LookUp(text) => self.look_up(text),
            InspectorAction::UseAsEos(lane) => self.use_lookup(lane, LookupUse::Eos),
            InspectorAction::StopAt(lane) => self.use_lookup(lane, LookupUse::StopString),
            InspectorAction::BadWords(lane) => self.use_lookup(lane, LookupUse::BadWords),
            InspectorAction::ForceWords(lane) => self.use_lookup(lane, LookupUse::ForceWords),
        }
    }

    /// The sandbox's request: typed logits, a knob, back to the typed
    /// logits, or its knobs into a lane.
    pub fn on_sandbox(&mut self, action: SandboxAction) -> Outcome {
        match action {
            SandboxAction::Logits(text) => {
                self.sandbox.make_mut().set_logits(text);
                Outcome::redraw()
            }
            SandboxAction::Knob(knob, text) => self.set_sandbox_knob(knob, text),
            SandboxAction::UseInLane(lane) => self.use_sandbox(lane),
            SandboxAction::Toy => {
                let text = self.sandbox.logits_text.clone();
                self.sandbox.make_mut().set_logits(text);
                Outcome::redraw()
            }
        }
    }
}
