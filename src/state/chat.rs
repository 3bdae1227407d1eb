//! The prompt written as a conversation, for a model with a chat template:
//! turns with their roles, and whether to open the assistant's turn. The
//! worker renders it with the model's template (HF's `apply_chat_template`)
//! and the text goes into the prompt box, special tokens and all, so every
//! lane, link and table takes it as any prompt.

use crate::said::Said;
use ntl_decoding::chat::ChatMessage;
use ntl_protocol::share::{ChatRole, ChatTurn, SharedChat};
use ntl_protocol::{ToWorker, Unanswered};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    System,
    User,
    Assistant,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::System, Role::User, Role::Assistant];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub role: Role,
    pub content: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Chat {
    pub turns: Vec<Turn>,
    /// Open the assistant's turn after the last one: what a chat model
    /// continues from (HF's `add_generation_prompt`).
    pub add_generation_prompt: bool,
    /// Asked the worker; its answer not back yet.
    pub rendering: bool,
    /// Why the last conversation could not be rendered.
    pub error: Option<Said>,
    /// The text the conversation last rendered to: while the prompt is
    /// still that text, a share link carries the conversation.
    pub rendered_text: Option<String>,
}

impl Default for Chat {
    fn default() -> Self {
        Chat {
            turns: vec![
                Turn {
                    role: Role::System,
                    content: "You are a helpful assistant.".into(),
                },
                Turn {
                    role: Role::User,
                    content: "Explain what a language model does in one sentence.".into(),
                },
            ],
            add_generation_prompt: true,
            rendering: false,
            error: None,
            rendered_text: None,
        }
    }
}

impl Chat {
    pub fn set_role(&mut self, turn: usize, role: Role) {
        if let Some(t) = self.turns.get_mut(turn) {
            t.role = role;
        }
    }

    pub fn set_content(&mut self, turn: usize, content: String) {
        if let Some(t) = self.turns.get_mut(turn) {
            t.content = content;
        }
    }

    /// A new turn for the other side: an assistant's after a user's, else a user's.
    pub fn add_turn(&mut self) {
        let role = match self.turns.last().map(|t| t.role) {
            Some(Role::User) => Role::Assistant,
            _ => Role::User,
        };
        self.turns.push(Turn {
            role,
            content: String::new(),
        });
    }

    pub fn remove_turn(&mut self, turn: usize) {
        if turn < self.turns.len() {
            self.turns.remove(turn);
        }
    }

    /// The conversation for a share link, when `prompt` is what it rendered to.
    pub fn shared(&self, prompt: &str) -> Option<SharedChat> {
        (self.rendered_text.as_deref() == Some(prompt)).then(|| SharedChat {
            turns: self
                .turns
                .iter()
                .map(|t| ChatTurn {
                    role: match t.role {
                        Role::System => ChatRole::System,
                        Role::User => ChatRole::User,
                        Role::Assistant => ChatRole::Assistant,
                    },
                    content: t.content.clone(),
                })
                .collect(),
            add_generation_prompt: self.add_generation_prompt,
        })
    }

    /// A link's conversation, which rendered to the link's `prompt`.
    pub fn restore(&mut self, chat: SharedChat, prompt: &str) {
        self.turns = chat
            .turns
            .into_iter()
            .map(|t| Turn {
                role: match t.role {
                    ChatRole::System => Role::System,
                    ChatRole::User => Role::User,
                    ChatRole::Assistant => Role::Assistant,
                },
                content: t.content,
            })
            .collect();
        self.add_generation_prompt = chat.add_generation_prompt;
        self.rendered_text = Some(prompt.to_string());
        self.error = None;
    }

    /// The message that asks the worker to render the conversation, or
    /// `None` (and why, shown) when there is nothing to render.
    pub fn render(&mut self) -> Option<ToWorker> {
        if self.turns.is_empty() {
            self.error = Some(Said::ChatNeedsTurn);
            return None;
        }
        self.error = None;
        self.rendering = true;
        Some(ToWorker::RenderChat {
            messages: self
                .turns
                .iter()
                .map(|t| ChatMessage {
                    role: t.role.as_str().into(),
                    content: t.content.clone(),
                })
                .collect(),
            add_generation_prompt: self.add_generation_prompt,
        })
    }

    /// The worker's answer: the text for the prompt box, or the template's
    /// word on why not (kept next to the conversation).
    pub fn rendered(&mut self, text: Result<String, Unanswered>) -> Option<String> {
        self.rendering = false;
        match text {
            Ok(text) => {
                self.error = None;
                self.rendered_text = Some(text.clone());
                Some(text)
            }
            Err(why) => {
                self.error = Some(match why {
                    Unanswered::NoModel => Said::ModelNotReady,
                    Unanswered::Engine { message } => Said::Verbatim(message),
                });
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_alternate_as_they_are_added_and_render_as_messages_in_order() {
        let mut c = Chat::default();
        c.add_turn();
        assert_eq!(c.turns[2].role, Role::Assistant, "after the user's turn");
        c.set_content(2, "A model that guesses the next token.".into());
        c.add_turn();
        assert_eq!(c.turns[3].role, Role::User);
        c.remove_turn(0);
        c.set_role(9, Role::System); // no such turn: nothing happens
        let Some(ToWorker::RenderChat {
            messages,
            add_generation_prompt,
        }) = c.render()
        else {
            panic!("a render request");
        };
        assert!(add_generation_prompt);
        let roles: Vec<_> = messages.iter().map(|m| m.role.as_str()).collect();
        assert_eq!(roles, ["user", "assistant", "user"]);
        assert_eq!(messages[1].content, "A model that guesses the next token.");
        assert!(c.rendering);
    }

    #[test]
    fn the_templates_refusal_is_kept_and_an_empty_conversation_is_not_sent() {
        let mut c = Chat::default();
        let _ = c.render();
        let refused = "the model's chat template could not render this conversation: \
                       Conversation roles must alternate";
        let why = Unanswered::Engine {
            message: refused.into(),
        };
        assert_eq!(c.rendered(Err(why)), None);
        assert_eq!(c.error, Some(Said::Verbatim(refused.into())));
        assert!(!c.rendering);
        assert_eq!(
            c.rendered(Ok("<|im_start|>user".into())).as_deref(),
            Some("<|im_start|>user")
        );
        assert_eq!(c.error, None);
        c.remove_turn(1);
        c.remove_turn(0);
        assert_eq!(c.render(), None);
        assert_eq!(c.error, Some(Said::ChatNeedsTurn));
    }

    #[test]
    fn a_conversation_travels_in_a_link_only_while_the_prompt_is_what_it_rendered_to() {
        let mut c = Chat::default();
        assert_eq!(c.shared("anything"), None, "never rendered");
        let _ = c.render();
        let _ = c.rendered(Ok("<|im_start|>system".into()));
        let shared = c
            .shared("<|im_start|>system")
            .expect("the prompt is the rendering");
        assert_eq!(shared.turns.len(), 2);
        assert_eq!(shared.turns[1].role, ChatRole::User);
        assert_eq!(c.shared("<|im_start|>system edited"), None);
        let mut other = Chat::default();
        other.turns.clear();
        other.restore(shared, "<|im_start|>system");
        assert_eq!(other.turns, c.turns);
        assert_eq!(
            other.shared("<|im_start|>system"),
            c.shared("<|im_start|>system")
        );
    }

    #[test]
    fn roles_read_back_from_their_names() {
        for r in Role::ALL {
            assert_eq!(Role::parse(r.as_str()), Some(r));
        }
        assert_eq!(Role::parse("tool"), None);
    }
}
