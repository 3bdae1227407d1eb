//! The logit lens of one step in every lane: for each layer, the tokens the
//! model would have predicted had it stopped there (the final norm and the
//! head on that layer's output), shaded by probability, and where the token
//! the lane chose stood. The last row is the model's own output, the step's
//! raw distribution; a marker shows the first layer from which the chosen
//! token stays the likeliest.

use crate::format::{prob, visible};
use crate::i18n::I18n;
use crate::state::LANES;
use crate::theme::lane_color;
use ntl_decoding::lens::LENS_TOP;
use ntl_decoding::record::LensLayer;
use ntl_decoding::Step;
use yew::prelude::*;

/// Why a lane's step has no lens to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoLens {
    /// Beams or contrastive candidates: many rows decide the step.
    ManyRows,
    /// The run that will record it is on its way.
    Waiting,
    /// A recording made without the lens.
    NotRecorded,
}

/// The layer from which the chosen token is the likeliest to the end (its
/// 1-based number), if it is the likeliest at the output at all.
pub fn settles_at(layers: &[LensLayer]) -> Option<usize> {
    let last_miss = layers.iter().rposition(|l| l.chosen_rank != 1);
    match last_miss {
        None => layers.first().map(|l| l.layer),
        Some(i) => layers.get(i + 1).map(|l| l.layer),
    }
}

/// The lens section under the compare view's tables.
pub fn lens_section(steps: &[Option<&Step>; LANES], why: [NoLens; LANES], tr: &I18n) -> Html {
    html! {
        <section class="lens" data-testid="lens" aria-label={tr.t("lens-heading")}>
            <h3>{ tr.t("lens-heading") }</h3>
            <p class="hint">{ tr.t("lens-explain") }</p>
            <div class="lens-lanes">
                { for (0..LANES).filter_map(|lane| steps[lane].map(|s| (lane, s))).map(|(lane, step)| {
                    match &step.lens {
                        Some(layers) => grid(lane, step, layers, tr),
                        None => html! {
                            <div class="lens-grid" data-testid="lens-missing" data-lane={lane.to_string()}>
                                <h4 style={format!("color: {}", lane_color(lane))}>
                                    { tr.t_with("lane-heading", &[("lane", (lane + 1).into())]) }
                                </h4>
                                <p class="hint">{ tr.t(match why[lane] {
                                    NoLens::ManyRows => "lens-many-rows",
                                    NoLens::Waiting => "lens-waiting",
                                    NoLens::NotRecorded => "lens-not-recorded",
                                }) }</p>
                            </div>
                        },
                    }
                }) }
            </div>
        </section>
    }
}

fn grid(lane: usize, step: &Step, layers: &[LensLayer], tr: &I18n) -> Html {
    let n = layers.len();
    let settled = settles_at(layers);
    let chosen = visible(&step.token);
    let verdict = match settled {
        Some(l) if l == layers.first().map_or(0, |f| f.layer) => {
            tr.t_with("lens-settled-first", &[("token", chosen.clone().into())])
        }
        Some(l) => tr.t_with(
            "lens-settled",
            &[
                ("token", chosen.clone().into()),
                ("layer", l.into()),
                ("layers", n.into()),
            ],
        ),
        None => tr.t_with("lens-not-top", &[("token", chosen.clone().into())]),
    };
    html! {
        <div class="lens-grid" data-testid="lens-grid" data-lane={lane.to_string()}>
            <h4 style={format!("color: {}", lane_color(lane))}>
                { tr.t_with("lane-heading", &[("lane", (lane + 1).into())]) }
                { tr.t_with("chose", &[("token", chosen.clone().into())]) }
            </h4>
            <table class="lens-table">
                <caption class="sr-only">{ tr.t_with("lens-caption", &[("lane", (lane + 1).into())]) }</caption>
                <thead>
                    <tr>
                        <th scope="col">{ tr.t("lens-col-layer") }</th>
                        <th scope="col" colspan={LENS_TOP.to_string()}>{ tr.t("lens-col-top") }</th>
                        <th scope="col">{ tr.t_with("lens-col-chosen", &[("token", chosen.into())]) }</th>
                    </tr>
                </thead>
                <tbody>
                    { for layers.iter().map(|l| row(lane, step.token_id, l, n, settled, tr)) }
                </tbody>
            </table>
            <p class="lens-verdict" data-testid="lens-verdict">{ verdict }</p>
        </div>
    }
}

fn row(
    lane: usize,
    chosen: u32,
    l: &LensLayer,
    layers: usize,
    settled: Option<usize>,
    tr: &I18n,
) -> Html {
    let name = if l.layer == layers {
        tr.t_with("lens-layer-out", &[("layer", l.layer.into())])
    } else {
        l.layer.to_string()
    };
    let settles = settled == Some(l.layer);
    html! {
        <tr
            data-testid="lens-row"
            data-layer={l.layer.to_string()}
            class={classes!(settles.then_some("settles"))}
        >
            <th scope="row">
                { name }
                if settles { <span class="lens-mark" data-testid="lens-settles" title={tr.t("lens-settles-title")}>{ " ★" }</span> }
            </th>
            { for l.top.iter().map(|t| html! {
                <td
                    class={classes!("lens-cell", (t.id == chosen).then_some("chosen"))}
                    style={format!("--p: {:.3}; --lane: {}", t.prob, lane_color(lane))}
                    title={format!("{} {}", visible(&t.token), prob(t.prob))}
                >
                    <span class="token">{ visible(&t.token) }</span>
                    <span class="p">{ prob(t.prob) }</span>
                </td>
            }) }
            { for (l.top.len()..LENS_TOP).map(|_| html! { <td class="lens-cell"></td> }) }
            <td class="lens-chosen" data-testid="lens-chosen">
                <span class="p">{ prob(l.chosen_prob) }</span>
                <span class="rank">{ tr.t_with("lens-chosen-rank", &[("rank", l.chosen_rank.into())]) }</span>
            </td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(layer: usize, chosen_rank: usize) -> LensLayer {
        LensLayer {
            layer,
            top: vec![],
            entropy: 0.0,
            chosen_prob: 0.0,
            chosen_rank,
        }
    }

    #[test]
    fn the_marker_sits_where_the_choice_stays_the_likeliest_to_the_end() {
        let l = |ranks: &[usize]| -> Vec<LensLayer> {
            ranks
                .iter()
                .enumerate()
                .map(|(i, &r)| layer(i + 1, r))
                .collect()
        };
        assert_eq!(settles_at(&l(&[9, 3, 1, 1])), Some(3));
        // Top at layer 1, lost, back at the end: it settles at the last.
        assert_eq!(settles_at(&l(&[1, 2, 1])), Some(3));
        assert_eq!(settles_at(&l(&[1, 1])), Some(1));
        // A sampled token the model did not favour settles nowhere.
        assert_eq!(settles_at(&l(&[1, 4, 2])), None);
        assert_eq!(settles_at(&[]), None);
    }
}
