//! A text field that keeps what the user is typing until they commit it
//! (change/blur), even while a run streams and the page re-renders many times
//! a second with the last committed value.

use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The committed value.
    pub value: String,
    #[prop_or_default]
    pub placeholder: String,
    #[prop_or_default]
    pub multiline: bool,
    #[prop_or_default]
    pub rows: u32,
    /// `data-knob` or `data-testid`, for tests and styles.
    #[prop_or_default]
    pub knob: Option<AttrValue>,
    #[prop_or_default]
    pub testid: Option<AttrValue>,
    /// A `<datalist>` of choices, by id.
    #[prop_or_default]
    pub list: Option<AttrValue>,
    /// The element's id, for a `<label for>`.
    #[prop_or_default]
    pub id: Option<AttrValue>,
    pub on_commit: Callback<String>,
}

#[function_component(DraftField)]
pub fn draft_field(p: &Props) -> Html {
    let draft = use_state(|| None::<String>);
    // A new committed value (a preset, a share link, an import) replaces any draft.
    {
        let draft = draft.clone();
        use_effect_with(p.value.clone(), move |_| draft.set(None));
    }
    let oninput = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            draft.set(Some(e.target_unchecked_into::<HtmlInputElement>().value()))
        })
    };
    // The draft stays until the committed value changes: a refused value
    // stays visible next to its error instead of snapping back.
    let onchange = p
        .on_commit
        .reform(|e: Event| e.target_unchecked_into::<HtmlInputElement>().value());
    let value = (*draft).clone().unwrap_or_else(|| p.value.clone());
    let (knob, testid) = (p.knob.clone(), p.testid.clone());
    if p.multiline {
        html! {
            <textarea
                data-knob={knob}
                data-testid={testid}
                rows={p.rows.to_string()}
                {value}
                {oninput}
                {onchange}
            />
        }
    } else {
        html! {
            <input
                id={p.id.clone()}
                list={p.list.clone()}
                data-knob={knob}
                data-testid={testid}
                {value}
                placeholder={p.placeholder.clone()}
                {oninput}
                {onchange}
            />
        }
    }
}
