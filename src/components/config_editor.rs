//! One lane's knobs, by HF name, with errors shown next to the knob at fault.

use super::draft_field::DraftField;
use super::help::knob_head;
use crate::i18n::I18n;
use crate::lane_config::{knobs_for, KnobText, LaneKnobs, TOKEN_KNOBS};
use crate::state::editor::LaneError;
use ntl_decoding::knob_table::KnobGroup;
use ntl_decoding::llama_cpp::knob_table::LlamaCppGroup;
use ntl_decoding::llama_cpp::LlamaCppKnob;
use ntl_decoding::Semantics;
use ntl_decoding::{Knob, Mode};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub index: usize,
    pub config: LaneKnobs,
    pub error: Option<LaneError>,
    pub on_field: Callback<(String, String)>,
    pub on_semantics: Callback<Semantics>,
    pub on_mode: Callback<Mode>,
    pub on_json: Callback<String>,
    /// The lane as its JSON box shows it (its model included).
    pub json: String,
    /// The lane's own model (`None`: the page's).
    pub model: Option<String>,
    pub on_model: Callback<String>,
}

/// The `<datalist>` of models a lane can name (the view renders it once).
pub const MODEL_CHOICES: &str = "lane-model-choices";

/// The modes in the menu, by the option's value (stable, English; the
/// words shown are the catalog's).
const MODES: [(Mode, &str); 7] = [
    (Mode::Greedy, "greedy"),
    (Mode::Sample, "sample"),
    (Mode::Beam, "beam search"),
    (Mode::BeamSample, "beam sampling"),
    (Mode::GroupBeam, "diverse beam search"),
    // Listed only for a lane that already has `force_words_ids`.
    (Mode::ConstrainedBeam, "constrained beam search"),
    (Mode::Contrastive, "contrastive"),
];

/// HF's groups of `GenerationConfig` parameters, in the order its docs list them.
const GROUPS: [KnobGroup; 6] = [
    KnobGroup::Length,
    KnobGroup::Strategy,
    KnobGroup::LogitsManipulation,
    KnobGroup::SpecialTokens,
    KnobGroup::Watermark,
    KnobGroup::Guidance,
];

/// A knob's input id in lane `lane`'s editor.
fn knob_id(lane: usize, knob: &str) -> String {
    format!("lane-{lane}-{knob}")
}

/// Knobs under the heading of their HF group (a group with none is left out).
fn grouped(knobs: &[Knob], knob: &dyn Fn(Knob) -> Html, tr: &I18n) -> Html {
    html! {
        <div class="knob-groups">
            { for GROUPS.iter().filter_map(|&g| {
                let mine: Vec<Knob> = knobs.iter().copied().filter(|k| k.group() == g).collect();
                (!mine.is_empty()).then(|| html! {
                    <div class="knob-group" data-group={g.title()}>
                        <h5>{ tr.hf_group(g) }</h5>
                        <div class="knobs">{ for mine.into_iter().map(knob) }</div>
                    </div>
                })
            }) }
        </div>
    }
}

#[function_component(ConfigEditor)]
pub fn config_editor(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let mode = p.config.mode();
    let on_mode = {
        let cb = p.on_mode.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some((m, _)) = MODES.iter().find(|(_, n)| *n == v) {
                cb.emit(*m);
            }
        })
    };
    let bad_field = p.error.as_ref().and_then(|e| e.field.clone());
    let bad_knob = bad_field.as_deref().and_then(|f| f.parse::<Knob>().ok());
    let token_rules_set = TOKEN_KNOBS.iter().any(|&k| !p.config.text(k).is_empty());
    let on_semantics = {
        let cb = p.on_semantics.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            cb.emit(match v.as_str() {
                "llama.cpp" => Semantics::LlamaCpp,
                "tutorial" => Semantics::Tutorial,
                _ => Semantics::Transformers,
            });
        })
    };
    let semantics = p.config.semantics();
    let ecosystem = html! {
        <label class="ecosystem" title={tr.t("ecosystem-title")}>
            <span>{ tr.t("ecosystem") }</span>
            <select data-knob="semantics" data-testid={format!("ecosystem-{}", p.index)} onchange={on_semantics}>
                <option value="transformers" selected={semantics == Semantics::Transformers}>{ "transformers" }</option>
                <option value="llama.cpp" selected={semantics == Semantics::LlamaCpp}>{ "llama.cpp" }</option>
                <option value="tutorial" selected={semantics == Semantics::Tutorial}>{ tr.t("ecosystem-tutorial") }</option>
            </select>
        </label>
    };
    if semantics == Semantics::LlamaCpp {
        return llama_editor(p, ecosystem, bad_field.as_deref(), &tr);
    }
    if semantics == Semantics::Tutorial {
        return tutorial_editor(p, ecosystem, bad_field.as_deref(), &tr);
    }
    let knob = |knob: Knob| {
        let on_commit = p
            .on_field
            .reform(move |v: String| (knob.name().to_string(), v));
        let (help, id) = (tr.hf_knob_title(knob), knob_id(p.index, knob.name()));
        html! {
            <div
                class={classes!("knob", (bad_knob == Some(knob)).then_some("bad"))}
                title={help.clone()}
            >
                { knob_head(&id, knob.name(), help) }
                <DraftField
                    {id}
                    knob={knob.name()}
                    value={p.config.text(knob)}
                    placeholder={crate::lane_config::default_text(knob)}
                    {on_commit}
                />
            </div>
        }
    };
    html! {
        <div class="config">
            { ecosystem }
            <label class="mode">
                <span>{ tr.t("mode") }</span>
                <select data-knob="mode" onchange={on_mode}>
                    { for MODES.iter().filter(|(m, _)| *m != Mode::ConstrainedBeam || mode == *m).map(|(m, n)| html! {
                        <option value={*n} selected={*m == mode}>{ tr.mode_words(*m) }</option>
                    }) }
                </select>
            </label>
            { grouped(&knobs_for(mode), &knob, &tr) }
            <details
                class="token-knobs"
                data-testid={format!("token-knobs-{}", p.index)}
                open={token_rules_set || bad_knob.is_some_and(|k| TOKEN_KNOBS.contains(&k))}
            >
                <summary>{ tr.t("token-rules") }</summary>
                { grouped(TOKEN_KNOBS, &knob, &tr) }
            </details>
            { error_and_json(p, "generation_config.json".into(), &tr) }
        </div>
    }
}

/// A llama.cpp lane's editor: llama-server's knobs under their headings,
/// placeholders its defaults, the chain's order in words.
fn llama_editor(p: &Props, ecosystem: Html, bad_field: Option<&str>, tr: &I18n) -> Html {
    let knob = |knob: LlamaCppKnob| {
        let on_commit = p
            .on_field
            .reform(move |v: String| (knob.name().to_string(), v));
        let (help, id) = (tr.llama_knob_title(knob), knob_id(p.index, knob.name()));
        html! {
            <div
                class={classes!("knob", (bad_field == Some(knob.name())).then_some("bad"))}
                title={help.clone()}
            >
                { knob_head(&id, knob.name(), help) }
                <DraftField
                    {id}
                    knob={knob.name()}
                    value={p.config.text_of(knob.name())}
                    placeholder={crate::lane_config::llama_cpp_default_text(knob)}
                    {on_commit}
                />
            </div>
        }
    };
    let order = p
        .config
        .llama_cpp_config()
        .and_then(|c| c.validate().ok())
        .map(|s| {
            let chain: Vec<&str> = if s.mirostat != 0 {
                vec![
                    "temperature",
                    if s.mirostat == 1 {
                        "mirostat"
                    } else {
                        "mirostat_v2"
                    },
                ]
            } else {
                s.samplers
                    .iter()
                    .map(|n| n.name())
                    .chain(std::iter::once("dist"))
                    .collect()
            };
            chain.join(" → ")
        })
        .unwrap_or_default();
    html! {
        <div class="config llama">
            { ecosystem }
            <p class="chain" data-testid={format!("llama-chain-{}", p.index)}>
                { tr.t("chain") }{ order }
            </p>
            <div class="knob-groups">
                { for LlamaCppGroup::ALL.into_iter().map(|group| html! {
                    <div class="knob-group" data-group={group.title()}>
                        <h5>{ tr.llama_group(group) }</h5>
                        <div class="knobs">{ for group.knobs().map(knob) }</div>
                    </div>
                }) }
            </div>
            { error_and_json(p, tr.t("llama-fields"), tr) }
        </div>
    }
}

/// A tutorial lane's editor: seed 004's generate() arguments, placeholders
/// its defaults, the loop's order in words.
fn tutorial_editor(p: &Props, ecosystem: Html, bad_field: Option<&str>, tr: &I18n) -> Html {
    let defaults =
        serde_json::to_value(ntl_decoding::tutorial::TutorialConfig::default()).unwrap_or_default();
    let field = |name: &'static str| {
        let on_commit = p.on_field.reform(move |v: String| (name.to_string(), v));
        let help = tr.tutorial_help(name);
        let id = knob_id(p.index, name);
        let placeholder = match &defaults[name] {
            serde_json::Value::Null => "None".to_string(),
            v => v.to_string(),
        };
        html! {
            <div class={classes!("knob", (bad_field == Some(name)).then_some("bad"))} title={help.clone()}>
                { knob_head(&id, name, help) }
                <DraftField {id} knob={name} value={p.config.text_of(name)} {placeholder} {on_commit} />
            </div>
        }
    };
    html! {
        <div class="config tutorial">
            { ecosystem }
            <p class="chain" data-testid={format!("tutorial-loop-{}", p.index)}>{ tr.t("tutorial-loop") }</p>
            <div class="knobs">
                { for ntl_decoding::tutorial::config::FIELDS.into_iter().map(field) }
            </div>
            { error_and_json(p, tr.t("tutorial-fields"), tr) }
        </div>
    }
}

/// The lane's error, then its config as JSON text to read or paste.
fn error_and_json(p: &Props, title: String, tr: &I18n) -> Html {
    let id = format!("lane-{}-model", p.index);
    let bad = p
        .error
        .as_ref()
        .is_some_and(|e| e.field.as_deref() == Some("model"));
    html! {
        <>
            <div class={classes!("knob", "lane-model-field", bad.then_some("bad"))} title={tr.t("lane-model-title")}>
                <label for={id.clone()}>{ tr.t("lane-model") }</label>
                <DraftField
                    id={id}
                    testid={format!("lane-model-input-{}", p.index)}
                    list={MODEL_CHOICES}
                    value={p.model.clone().unwrap_or_default()}
                    placeholder={tr.t("lane-model-placeholder")}
                    on_commit={p.on_model.clone()}
                />
            </div>
            if let Some(e) = &p.error {
                <div class="lane-error" data-testid="lane-error" role="alert">
                    { tr.said(&e.message) }
                </div>
            }
            <details class="json">
                <summary>{ title }</summary>
                <DraftField
                    multiline=true
                    rows={6}
                    testid={format!("lane-json-{}", p.index)}
                    value={p.json.clone()}
                    on_commit={p.on_json.clone()}
                />
            </details>
        </>
    }
}
