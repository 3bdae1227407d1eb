//! A student's MiniGPT (seed 004) in the model panel: the head count its
//! `.pt` cannot say, and the model folder it can be saved as.

use crate::i18n::I18n;
use crate::state::model::MOST_HEADS;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The head count used for a `.pt` picked without a `config.json`.
pub fn heads_field(heads: usize, idle: bool, on: &Callback<String>, tr: &I18n) -> Html {
    html! {
        <>
            <label class="minigpt-heads">
                { tr.t("minigpt-heads") }{ " " }
                <input
                    type="number"
                    min="1"
                    max={MOST_HEADS.to_string()}
                    step="1"
                    data-testid="minigpt-heads"
                    value={heads.to_string()}
                    disabled={!idle}
                    onchange={on.reform(|e: Event| {
                        e.target_unchecked_into::<HtmlInputElement>().value()
                    })}
                />
            </label>
            <p class="hint">{ tr.t("minigpt-heads-hint") }</p>
        </>
    }
}

/// Saves the MiniGPT in use as a folder to host beside the page.
pub fn save_button(on: &Callback<()>, tr: &I18n) -> Html {
    html! {
        <span class="save-folder">
            <button
                data-testid="save-model-folder"
                title={tr.t("save-model-folder-hint")}
                onclick={on.reform(|_: MouseEvent| ())}
            >
                { tr.t("save-model-folder") }
            </button>
        </span>
    }
}
