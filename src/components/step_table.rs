//! The table behind one token: candidates with their logits, probabilities
//! before and after the knobs, which one was picked, what each knob removed.

use crate::format::{num, prob, visible};
use crate::state::run::Selected;
use ntl_decoding::record::{BeamCandidate, Candidate, ContrastiveCandidate};
use ntl_decoding::{Stage, Step};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub selected: Selected,
    /// Branching is possible (a model is loaded and this lane is one path).
    pub can_branch: bool,
    pub on_branch: Callback<u32>,
    pub on_close: Callback<()>,
}

const BRANCH_HINT: &str = "every lane continues from the text up to here plus this token";

/// How the step's token was picked, in words.
fn how(s: &Step) -> String {
    if s.forced {
        "given (scoring a text)".to_string()
    } else if let Some(u) = s.draw {
        format!("won the seeded random race (Gumbel-max; its u = {u:.3})")
    } else if s.beams.is_some() {
        "the best-scoring beam continuation".to_string()
    } else if s.contrastive.is_some() {
        "the best contrastive score".to_string()
    } else {
        "the most probable token (greedy)".to_string()
    }
}

fn summary(s: &Step) -> String {
    let [n50, n90, n95] = s.nucleus;
    format!(
        "Picked: {}. Rank {} by the model · p {} → {} after the knobs · \
         entropy {:.2} → {:.2} nats · {} tokens kept · top-p nucleus sizes 50/90/95%: \
         {n50}/{n90}/{n95}",
        how(s),
        s.rank,
        prob(s.chosen_raw_prob),
        prob(s.chosen_prob),
        s.raw_entropy,
        s.entropy,
        s.kept
    )
}

fn candidate_row(s: &Step, c: &Candidate, p: &Props) -> Html {
    let chosen = c.id == s.token_id;
    let removed = c.score.is_none();
    let id = c.id;
    html! {
        <tr
            class={classes!(chosen.then_some("chosen"), removed.then_some("removed"))}
            data-testid="candidate"
            data-prob={c.prob.to_string()}
            data-chosen={chosen.to_string()}
        >
            <td class="token">{ visible(&c.token) }</td>
            <td>{ c.id }</td>
            <td>{ num(c.logit) }</td>
            <td>{ prob(c.raw_prob) }</td>
            <td>{ c.score.map(num).unwrap_or_else(|| "removed".into()) }</td>
            <td>{ prob(c.prob) }</td>
            <td class="knob">{ c.removed_by.map(Stage::name).unwrap_or_default() }</td>
            if p.can_branch {
                <td>
                    <button
                        class="branch"
                        data-testid="branch"
                        data-token-id={c.id.to_string()}
                        title={format!(
                            "every lane continues from here with “{}”",
                            visible(&c.token)
                        )}
                        onclick={p.on_branch.reform(move |_: MouseEvent| id)}
                    >
                        { "↳ branch" }
                    </button>
                </td>
            }
        </tr>
    }
}

/// A table's header row.
fn head(columns: &[&'static str]) -> Html {
    html! { <tr>{ for columns.iter().map(|c| html! { <th>{ *c }</th> }) }</tr> }
}

/// A titled table of one kind of candidate.
fn titled_table(
    title: &'static str,
    class: &'static str,
    columns: &[&'static str],
    rows: Html,
) -> Html {
    html! {
        <>
            <h4>{ title }</h4>
            <table {class}>
                <thead>{ head(columns) }</thead>
                <tbody>{ rows }</tbody>
            </table>
        </>
    }
}

fn beams_table(beams: &[BeamCandidate]) -> Html {
    let rows = beams.iter().map(|b| {
        let fate = match (b.finished, b.running) {
            (true, _) => "finished",
            (false, true) => "kept",
            (false, false) => "dropped",
        };
        html! {
            <tr>
                <td>{ b.beam + 1 }</td>
                <td class="token">{ visible(&b.token) }</td>
                <td>{ num(b.score) }</td>
                <td>{ fate }</td>
            </tr>
        }
    });
    let columns = ["from beam", "token", "sum log p", "fate"];
    titled_table(
        "Beam continuations this step",
        "beams",
        &columns,
        rows.collect(),
    )
}

fn contrastive_table(s: &Step, cands: &[ContrastiveCandidate]) -> Html {
    let rows = cands.iter().map(|c| {
        html! {
            <tr class={classes!((c.id == s.token_id).then_some("chosen"))}>
                <td class="token">{ visible(&c.token) }</td>
                <td>{ prob(c.prob) }</td>
                <td>{ num(c.degeneration_penalty) }</td>
                <td>{ num(c.score) }</td>
            </tr>
        }
    });
    let title = "Contrastive candidates: (1 − α)·p − α·max cosine";
    titled_table(
        title,
        "contrastive",
        &["token", "p", "max cosine", "score"],
        rows.collect(),
    )
}

#[function_component(StepTable)]
pub fn step_table(p: &Props) -> Html {
    let Selected {
        lane,
        index,
        step,
        mode,
        ..
    } = &p.selected;
    let s: &Step = step;
    let close = p.on_close.reform(|_: MouseEvent| ());
    let token = visible(&s.token);
    html! {
        <aside class="step-table" data-testid="step-table" role="dialog" aria-label="step table">
            <header>
                <h3>
                    { format!("Lane {} · step {} · chose “{}”", lane + 1, index + 1, token) }
                </h3>
                <button class="close" aria-label="close" onclick={close}>{ "×" }</button>
            </header>
            <p class="summary">{ summary(s) }</p>
            <ol class="funnel" aria-label="filter funnel">
                { for s.funnel.iter().map(|f| html! {
                    <li>
                        <strong>{ f.name.name() }</strong>
                        { format!(" {} kept", f.kept) }
                        if f.removed_mass > 0.0 {
                            { format!(" · removed {}", prob(f.removed_mass)) }
                        }
                        { format!(" · H {:.2}", f.entropy) }
                    </li>
                }) }
            </ol>
            <table>
                <thead>
                    <tr>
                        <th>{ "token" }</th>
                        <th>{ "id" }</th>
                        <th>{ "logit" }</th>
                        <th>{ "p model" }</th>
                        <th>{ "score after knobs" }</th>
                        <th>{ "p after knobs" }</th>
                        <th>{ "removed by" }</th>
                        if p.can_branch {
                            <th title={BRANCH_HINT}>{ "branch" }</th>
                        }
                    </tr>
                </thead>
                <tbody>{ for s.top.iter().map(|c| candidate_row(s, c, p)) }</tbody>
            </table>
            if let Some(beams) = &s.beams {
                { beams_table(beams) }
            }
            if let Some(cands) = &s.contrastive {
                { contrastive_table(s, cands) }
            }
            <p class="mode-note">{ format!("mode: {mode}") }</p>
        </aside>
    }
}
