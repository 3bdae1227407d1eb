//! The prompt written as a conversation: turns with roles, rendered by the
//! model's own chat template into the prompt box (and so into the token
//! inspector, special tokens and all).

use crate::i18n::I18n;
use crate::state::chat::{Chat, Role};
use crate::state::page_actions::ChatAction;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub chat: Chat,
    pub model_ready: bool,
    pub on: Callback<ChatAction>,
}

fn turn(i: usize, role: Role, content: &str, on: &Callback<ChatAction>, tr: &I18n) -> Html {
    let on_role = on.reform(move |e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        ChatAction::Role(i, Role::parse(&value).unwrap_or(Role::User))
    });
    let on_content = on.reform(move |e: InputEvent| {
        ChatAction::Content(i, e.target_unchecked_into::<HtmlTextAreaElement>().value())
    });
    html! {
        <li class="chat-turn" data-testid="chat-turn">
            <select
                data-testid="chat-role"
                aria-label={tr.t_with("chat-role-label", &[("turn", (i + 1).into())])}
                onchange={on_role}
            >
                { for Role::ALL.iter().map(|r| html! {
                    <option value={r.as_str()} selected={*r == role}>{ r.as_str() }</option>
                }) }
            </select>
            <textarea
                data-testid="chat-content"
                aria-label={tr.t_with("chat-text-label", &[("turn", (i + 1).into())])}
                rows="2"
                value={content.to_string()}
                oninput={on_content}
            />
            <button
                data-testid="chat-remove"
                aria-label={tr.t_with("chat-remove-label", &[("turn", (i + 1).into())])}
                onclick={on.reform(move |_: MouseEvent| ChatAction::Remove(i))}
            >
                { "×" }
            </button>
        </li>
    }
}

#[function_component(ChatEditor)]
pub fn chat_editor(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let c = &p.chat;
    let on_generation = p.on.reform(|e: Event| {
        ChatAction::GenerationPrompt(e.target_unchecked_into::<HtmlInputElement>().checked())
    });
    html! {
        <details class="chat-editor" data-testid="chat-editor">
            <summary title={tr.t("chat-hint")}>{ tr.t("chat-title") }</summary>
            <ol class="chat-turns">
                { for c.turns.iter().enumerate().map(|(i, t)| turn(i, t.role, &t.content, &p.on, &tr)) }
            </ol>
            <div class="row">
                <button data-testid="chat-add" onclick={p.on.reform(|_: MouseEvent| ChatAction::Add)}>
                    { tr.t("chat-add") }
                </button>
                <label>
                    <input
                        type="checkbox"
                        data-testid="chat-generation-prompt"
                        checked={c.add_generation_prompt}
                        onchange={on_generation}
                    />
                    { tr.t("chat-generation-prompt") }
                </label>
                <button
                    class="primary"
                    data-testid="chat-render"
                    disabled={!p.model_ready || c.rendering}
                    onclick={p.on.reform(|_: MouseEvent| ChatAction::Render)}
                >
                    { tr.t("chat-render") }
                </button>
            </div>
            if let Some(e) = &c.error {
                <p class="error" data-testid="chat-error" role="alert">{ tr.said(e) }</p>
            }
        </details>
    }
}
