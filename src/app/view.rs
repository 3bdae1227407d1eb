//! The page's layout: every view, given the state and the callbacks.

use super::App;
use crate::components::beam_tree_panel::BeamTreePanel;
use crate::components::chat_editor::ChatEditor;
use crate::components::compare_view::CompareView;
use crate::components::divergence_note::{DivergenceNote, TextDivergenceNote};
use crate::components::handout::HandoutView;
use crate::components::header::Header;
use crate::components::lane_column::LaneColumn;
use crate::components::lesson_panel::LessonPanel;
use crate::components::lesson_writer::LessonWriterPanel;
use crate::components::model_panel::ModelPanel;
use crate::components::plots::Plots;
use crate::components::prompt_row::PromptRow;
use crate::components::question_panel::QuestionPanel;
use crate::components::sample_tree_panel::SampleTreePanel;
use crate::components::sandbox_panel::SandboxPanel;
use crate::components::step_grid::StepGrid;
use crate::components::token_inspector::TokenInspector;
use crate::i18n::I18n;
use crate::page_url;
use yew::prelude::*;

impl App {
    /// The open step's questions, their reveals and the lesson's score.
    fn questions(&self) -> Html {
        let page = &self.page;
        let player = &page.lessons;
        let step = player.current();
        let answers: Vec<_> = (0..step.questions.len())
            .map(|q| player.quiz.answer((player.step, q)).cloned())
            .collect();
        html! {
            <QuestionPanel
                step={player.step}
                questions={step.questions.clone()}
                {answers}
                pending={player.quiz.pending.as_ref().filter(|p| p.at.0 == player.step).map(|p| p.at.1)}
                results={page.step_results().map(|r| std::array::from_fn(|i| r[i].clone()))}
                lanes={step.lanes.len()}
                score={player.score()}
                on={self.callbacks.quiz.clone()}
            />
        }
    }

    pub(super) fn render(&self) -> Html {
        let page = &self.page;
        let (run, editor) = (&page.run, &page.editor);
        let model_ready = page.model.is_ready();
        let chat_template = matches!(
            &page.model.status,
            crate::state::model::ModelStatus::Ready { info, .. } if info.chat_template
        );
        // A lesson's question hides what the lanes wrote until answered.
        let veiled = page.veiled();
        let divergence = run.divergence().filter(|_| !veiled);
        let beam_tree = page.beam_tree();
        let diverge_at = |lane: usize| {
            divergence
                .as_ref()
                .filter(|d| d.lanes.iter().any(|l| l.lane == lane))
                .map(|d| d.step)
        };
        let cb = &self.callbacks;
        let present = page.present;
        // Projector mode: the lanes, or one step's table, never both.
        let show_lanes = !present || run.selected.is_none() || veiled;
        let full_page_url = if page.embed {
            page_url::share_url(&page.shared(), self.i18n.tag())
        } else {
            String::new()
        };
        let lane = |i: usize| {
            html! {
                <LaneColumn
                    index={i}
                    config={editor.lanes[i].clone()}
                    error={editor.errors[i].clone()}
                    result={run.results[i].clone()}
                    selected={run.selected.filter(|(l, _)| *l == i).map(|(_, s)| s)}
                    diverge={diverge_at(i)}
                    watermark={run.watermark[i].clone()}
                    compact={page.embed || present}
                    {veiled}
                    on_field={cb.lanes[i].field.clone()}
                    on_semantics={cb.lanes[i].semantics.clone()}
                    on_mode={cb.lanes[i].mode.clone()}
                    on_json={cb.lanes[i].json.clone()}
                    json={editor.lane_json(i)}
                    model={editor.models[i].clone()}
                    model_state={editor.models[i].as_deref().and_then(|n| page.lane_models.get(n)).cloned()}
                    on_model={cb.lanes[i].model.clone()}
                    on_select={cb.lanes[i].select.clone()}
                    open={editor.open[i]}
                    on_edit={cb.lanes[i].edit.clone()}
                    outlook={editor.outlook(i, page.model.generation_defaults())}
                    on_starts_from={cb.lanes[i].starts_from.clone()}
                    drawn_seed={run.drawn[i].filter(|_| run.results[i].is_some())}
                    on_keep_seed={cb.lanes[i].keep_seed.clone()}
                />
            }
        };
        let compare = run.selected.filter(|_| !veiled).map(|(lane, step)| {
            html! {
                <CompareView
                    results={run.results.clone()}
                    {lane}
                    {step}
                    longest={run.longest()}
                    sort_by={run.sort_by}
                    // A branch continues every lane from one model's ids.
                    can_branch={model_ready && !run.prompt_ids.is_empty() && run.align() == crate::compare::Align::ById}
                    align={run.align()}
                    drifts={std::rc::Rc::new((0..crate::lanes::LANES).map(|l| page.drift_line(l)).collect::<Vec<_>>())}
                    lens={page.lens}
                    running={run.running.is_some()}
                    on={cb.compare.clone()}
                />
            }
        });
        html! {
            <ContextProvider<I18n> context={self.i18n.clone()}>
            <div
                class={classes!(
                    "page",
                    page.embed.then_some("embed"),
                    present.then_some("present")
                )}
                data-run={run.latest.to_string()}
                data-running={run.running.is_some().to_string()}
                data-replay={run.replay.is_some().to_string()}
            >
                <Header
                    embed={page.embed}
                    {full_page_url}
                    replay={run.replay.clone()}
                    {present}
                    on_present={(!page.embed).then(|| cb.toggle_present.clone())}
                    on_language={(!page.embed && !present).then(|| cb.language.clone())}
                >
                    <ModelPanel
                        model={page.model.status.clone()}
                        notice={page.notice.clone()}
                        memory_warning={page.model.memory_warning}
                        site_models={page.model.site_models.clone()}
                        site_models_error={page.model.site_models_error.clone()}
                        hub_repo={page.model.hub_repo.clone()}
                        can_keep_current={page.model.can_keep_current()}
                        gguf={page.model.gguf_choice()}
                        eight_bit={page.model.eight_bit}
                        previous={page.model.previous().cloned()}
                        minigpt_heads={page.model.minigpt_heads}
                        can_save_folder={page.model.folder_to_save().is_some()}
                        worker_alive={page.worker.alive}
                        worker_slow={page.worker.slow}
                        one_thread={page.worker.one_thread}
                        compact={page.embed || present}
                        on={cb.model.clone()}
                    />
                </Header>
                <PromptRow
                    prompt={editor.prompt.clone()}
                    player={page.lessons.clone()}
                    shared_randomness={editor.shared_randomness}
                    seeds_differ={editor.seeds_differ()}
                    shared_seed={editor.shared_seed}
                    score_text={editor.score_text.clone()}
                    negative_prompt={editor.negative_prompt.clone()}
                    guided={editor.guided()}
                    embed={page.embed}
                    {present}
                    lanes={editor.count}
                    {model_ready}
                    running={run.running.is_some()}
                    prompt_cropped={run.prompt_cropped}
                    printed={crate::lesson_check::lines(
                        &page.lessons.here(),
                        page.lessons.current(),
                        run.lesson.as_ref(),
                        run.document.as_deref(),
                    )}
                    on={cb.prompt.clone()}
                />
                // Projector mode keeps the score off steps that ask nothing.
                if !present || !page.lessons.current().questions.is_empty() {
                    { self.questions() }
                }
                if chat_template && !page.embed && !present {
                    <ChatEditor chat={page.chat.clone()} {model_ready} on={cb.chat.clone()} />
                }
                if let Some(e) = &page.error {
                    <div class="error" data-testid="error" role="alert">{ self.i18n.said(e) }</div>
                }
                if let Some(d) = divergence.clone().filter(|_| show_lanes) {
                    <DivergenceNote divergence={d} on_select={cb.select.clone()} />
                }
                if let Some(d) = run.text_divergence().filter(|_| show_lanes && !veiled) {
                    <TextDivergenceNote divergence={d} on_select={cb.select.clone()} />
                }
                if show_lanes {
                    <main class={classes!("lanes", format!("n{}", editor.count))}>
                        { for (0..editor.count).map(lane) }
                    </main>
                    if !page.embed && !present {
                        { model_choices(&page.model.site_models) }
                    }
                }
                { for compare }
                if !veiled && !present {
                    <div class="overview">
                        <Plots
                            results={run.results.clone()}
                            running={run.running.is_some()}
                            planned={run.planned}
                            on_select={cb.select.clone()}
                        />
                        <StepGrid
                            results={run.results.clone()}
                            selected={run.selected}
                            diverge={divergence.as_ref().map(|d| d.step)}
                            on_select={cb.select.clone()}
                        />
                    </div>
                }
                // A beam lane's search, projected too: it is what the class
                // looks at when a lesson runs a beam search.
                if let Some(shown) = beam_tree.filter(|_| !page.embed && !veiled && (!present || show_lanes)) {
                    <BeamTreePanel {shown} prompt={run.ran_prompt.clone()} on={cb.beam_tree.clone()} />
                }
                // Projected, the tree shows where the lanes do, once a lesson
                // step asks for one or one has grown.
                if !page.embed && !veiled && (!present || (show_lanes && page.tree_to_project())) {
                    <SampleTreePanel
                        tree={page.tree.clone()}
                        lanes={editor.count}
                        {model_ready}
                        on={cb.tree.clone()}
                    />
                }
                if !page.embed && !present && !veiled {
                    <TokenInspector
                        inspector={page.inspector.clone()}
                        {model_ready}
                        on={cb.inspector.clone()}
                    />
                    <SandboxPanel sandbox={page.sandbox.clone()} on={cb.sandbox.clone()} />
                }
                if !page.embed && !present {
                    // Under a question: links and the handout, no export of
                    // what the question hides.
                    <LessonPanel
                        has_document={run.document.is_some() && !veiled}
                        share_link={page.share_link.clone()}
                        embed_code={page.embed_code.clone()}
                        lesson_link={page.lessons.link.clone()}
                        handout_fetching={page.handout.as_ref().map_or(0, |h| h.fetching())}
                        package={page.package.clone()}
                        on={cb.lesson.clone()}
                    />
                    <LessonWriterPanel
                        writer={page.writer.clone()}
                        lanes={editor.count}
                        on={cb.writer.clone()}
                    />
                }
                if let Some(h) = &page.handout {
                    <HandoutView handout={h.clone()} />
                }
            </div>
            </ContextProvider<I18n>>
        }
    }
}

/// The models a lane may name, offered as its model box is typed into: the
/// bundled one, the site's folders, the catalogue's hub repos.
fn model_choices(site: &[ntl_protocol::site_models::SiteModel]) -> Html {
    use crate::components::config_editor::MODEL_CHOICES;
    let names = std::iter::once(ntl_protocol::share::BUNDLED.to_string())
        .chain(site.iter().map(|m| m.path()))
        .chain(
            crate::state::model_catalog::CATALOG
                .iter()
                .map(|m| m.repo.to_string()),
        );
    html! {
        <datalist id={MODEL_CHOICES}>
            { for names.map(|n| html! { <option value={n} /> }) }
        </datalist>
    }
}
