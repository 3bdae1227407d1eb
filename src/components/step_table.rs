//! The table behind one token: candidates with their logits, probabilities
//! before and after the knobs, which one was picked, what each knob removed.

use crate::format::{num, prob, visible};
use ntl_decoding::Step;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lane: usize,
    pub index: usize,
    pub step: Step,
    pub mode: String,
    /// Branching is possible (a model is loaded and this lane is one path).
    pub can_branch: bool,
    pub on_branch: Callback<u32>,
    pub on_close: Callback<()>,
}

#[function_component(StepTable)]
pub fn step_table(p: &Props) -> Html {
    let s = &p.step;
    let close = p.on_close.reform(|_: MouseEvent| ());
    let how = if s.forced {
        "given (scoring a text)".to_string()
    } else if let Some(u) = s.draw {
        format!("won the seeded random race (Gumbel-max; its u = {u:.3})")
    } else if s.beams.is_some() {
        "the best-scoring beam continuation".to_string()
    } else if s.contrastive.is_some() {
        "the best contrastive score".to_string()
    } else {
        "the most probable token (greedy)".to_string()
    };
    html! {
        <aside class="step-table" data-testid="step-table" role="dialog" aria-label="step table">
            <header>
                <h3>{ format!("Lane {} · step {} · chose “{}”", p.lane + 1, p.index + 1, visible(&s.token)) }</h3>
                <button class="close" aria-label="close" onclick={close}>{ "×" }</button>
            </header>
            <p class="summary">
                { format!("Picked: {how}. Rank {} by the model · p {} → {} after the knobs · ", s.rank, prob(s.chosen_raw_prob), prob(s.chosen_prob)) }
                { format!("entropy {:.2} → {:.2} nats · {} tokens kept · top-p nucleus sizes 50/90/95%: {}/{}/{}",
                    s.raw_entropy, s.entropy, s.kept, s.nucleus[0], s.nucleus[1], s.nucleus[2]) }
            </p>
            <ol class="funnel" aria-label="filter funnel">
                { for s.funnel.iter().map(|f| html! {
                    <li>
                        <strong>{ f.name.clone() }</strong>
                        { format!(" {} kept", f.kept) }
                        if f.removed_mass > 0.0 { { format!(" · removed {}", prob(f.removed_mass)) } }
                        { format!(" · H {:.2}", f.entropy) }
                    </li>
                }) }
            </ol>
            <table>
                <thead><tr><th>{ "token" }</th><th>{ "id" }</th><th>{ "logit" }</th><th>{ "p model" }</th><th>{ "score after knobs" }</th><th>{ "p after knobs" }</th><th>{ "removed by" }</th>
                    if p.can_branch { <th title="every lane continues from the text up to here plus this token">{ "branch" }</th> }</tr></thead>
                <tbody>
                    { for s.top.iter().map(|c| {
                        let chosen = c.id == s.token_id;
                        let removed = c.score.is_none();
                        html! {
                            <tr class={classes!(chosen.then_some("chosen"), removed.then_some("removed"))}
                                data-testid="candidate" data-prob={c.prob.to_string()} data-chosen={chosen.to_string()}>
                                <td class="token">{ visible(&c.token) }</td>
                                <td>{ c.id }</td>
                                <td>{ num(c.logit) }</td>
                                <td>{ prob(c.raw_prob) }</td>
                                <td>{ c.score.map(num).unwrap_or_else(|| "removed".into()) }</td>
                                <td>{ prob(c.prob) }</td>
                                <td class="knob">{ c.removed_by.clone().unwrap_or_default() }</td>
                                if p.can_branch {
                                    <td><button class="branch" data-testid="branch" data-token-id={c.id.to_string()}
                                        title={format!("every lane continues from here with “{}”", visible(&c.token))}
                                        onclick={p.on_branch.reform({ let id = c.id; move |_: MouseEvent| id })}>{ "↳ branch" }</button></td>
                                }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            if let Some(beams) = &s.beams {
                <h4>{ "Beam continuations this step" }</h4>
                <table class="beams">
                    <thead><tr><th>{ "from beam" }</th><th>{ "token" }</th><th>{ "sum log p" }</th><th>{ "fate" }</th></tr></thead>
                    <tbody>{ for beams.iter().map(|b| html! {
                        <tr><td>{ b.beam + 1 }</td><td class="token">{ visible(&b.token) }</td><td>{ num(b.score) }</td>
                        <td>{ if b.finished { "finished" } else if b.running { "kept" } else { "dropped" } }</td></tr>
                    }) }</tbody>
                </table>
            }
            if let Some(cands) = &s.contrastive {
                <h4>{ "Contrastive candidates: (1 − α)·p − α·max cosine" }</h4>
                <table class="contrastive">
                    <thead><tr><th>{ "token" }</th><th>{ "p" }</th><th>{ "max cosine" }</th><th>{ "score" }</th></tr></thead>
                    <tbody>{ for cands.iter().map(|c| html! {
                        <tr class={classes!((c.id == s.token_id).then_some("chosen"))}><td class="token">{ visible(&c.token) }</td><td>{ prob(c.prob) }</td>
                        <td>{ num(c.degeneration_penalty) }</td><td>{ num(c.score) }</td></tr>
                    }) }</tbody>
                </table>
            }
            <p class="mode-note">{ format!("mode: {}", p.mode) }</p>
        </aside>
    }
}
