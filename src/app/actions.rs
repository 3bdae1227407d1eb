//! The panels' actions, each handed to its state transition (or, for what
//! only the browser can do — copy, download, read a file — done here).

use super::{browser, App, LaneAction, Msg};
use crate::components::lesson_panel::LessonAction;
use crate::components::lesson_player::PlayerAction;
use crate::components::model_panel::ModelAction;
use crate::components::prompt_row::PromptAction;
use crate::state::run::RunKind;
use crate::state::Outcome;
use crate::{download, page_url};
use yew::prelude::*;

impl App {
    pub(super) fn on_model(&mut self, ctx: &Context<Self>, action: ModelAction) -> bool {
        let outcome = match action {
            ModelAction::UseBundled => self.page.load_bundled(),
            ModelAction::RunLive => self.page.run_live(),
            ModelAction::ConfirmDownload => self.page.confirm_model(),
            ModelAction::LoadHub => self.page.load_hub(),
            ModelAction::ChooseGguf(file) => {
                self.page.model.choose_gguf(&file);
                Outcome::redraw()
            }
            ModelAction::KeepCurrent => self.page.keep_current_model(),
            ModelAction::Pick(repo) => self.page.pick_model(repo),
            ModelAction::PickFolder(path) => self.page.pick_folder(&path),
            ModelAction::ChoicesOpened => self.page.model_choices_opened(),
            ModelAction::HubInput(text) => {
                self.page.model.set_hub_repo(&text);
                Outcome::redraw()
            }
            ModelAction::RestartWorker => self.page.restart_worker(),
            ModelAction::EightBit(on) => self.page.set_eight_bit(on),
            ModelAction::KeepPrevious => {
                self.page.model.keep_previous();
                Outcome::redraw()
            }
            ModelAction::Heads(text) => {
                self.page.model.set_minigpt_heads(&text);
                Outcome::redraw()
            }
            ModelAction::SaveFolder => self.page.save_model_folder(),
            ModelAction::Files(Ok((names, buffers))) => {
                if let (Some(message), Some(link)) = (self.page.load_files(names), &self.link) {
                    link.send_with_buffers(&message, buffers);
                }
                Outcome::redraw()
            }
            ModelAction::Files(Err(e)) => {
                self.page.model.pick_refused(e.into());
                Outcome::redraw()
            }
        };
        self.perform(ctx, outcome)
    }

    pub(super) fn on_prompt(&mut self, ctx: &Context<Self>, action: PromptAction) -> bool {
        let editor = &mut self.page.editor;
        let outcome = match action {
            PromptAction::Prompt(text) => {
                editor.set_prompt(text);
                Outcome::redraw()
            }
            PromptAction::Preset(i) => self.page.open_built_in(i),
            PromptAction::Lesson(PlayerAction::Step(i)) => self.page.lesson_step(i),
            PromptAction::Lesson(PlayerAction::ShowRecording) => self.page.show_recording(),
            PromptAction::Lesson(PlayerAction::Pick(file)) => {
                let done = ctx.link().callback(Msg::LessonPicked);
                browser::read_lesson(file, done);
                Outcome::default()
            }
            PromptAction::SharedRandomness(on) => {
                editor.shared_randomness = on;
                Outcome::redraw()
            }
            PromptAction::ScoreText(text) => {
                editor.score_text = text;
                Outcome::redraw()
            }
            PromptAction::NegativePrompt(text) => {
                editor.negative_prompt = text;
                Outcome::redraw()
            }
            PromptAction::Run => self.page.start_run(RunKind::Generate),
            PromptAction::Score => self.page.start_run(RunKind::Score),
            PromptAction::Stop => self.page.stop(),
            PromptAction::AddLane => {
                editor.add_lane();
                Outcome::redraw()
            }
            PromptAction::RemoveLane => {
                editor.remove_lane();
                Outcome::redraw()
            }
            PromptAction::Reroll => self.page.reroll(),
        };
        self.perform(ctx, outcome)
    }

    pub(super) fn on_lane(&mut self, lane: usize, action: LaneAction) {
        let editor = &mut self.page.editor;
        match action {
            LaneAction::Field(name, text) => editor.set_field(lane, &name, &text),
            LaneAction::Semantics(s) => editor.set_semantics(lane, s),
            LaneAction::Mode(mode) => editor.set_mode(lane, mode),
            // Through the page, which sizes the lane's model (`lane_model_named`).
            LaneAction::Model(_) | LaneAction::Json(_) => {}
            LaneAction::Select(step) => self.page.run.select(lane, step),
            LaneAction::Edit => editor.toggle_editor(lane),
            LaneAction::StartsFrom(from) => editor.set_starts_from(lane, from),
            LaneAction::KeepSeed => self.page.keep_seed(lane),
        }
    }

    pub(super) fn on_lesson(&mut self, ctx: &Context<Self>, action: LessonAction) {
        match action {
            LessonAction::Package => {
                let outcome = self.page.package_lesson();
                let _ = self.perform(ctx, outcome);
            }
            LessonAction::PackageConfirm => {
                let outcome = self.page.package_confirmed();
                let _ = self.perform(ctx, outcome);
            }
            LessonAction::PackageCancel => {
                let outcome = self.page.package_cancelled();
                let _ = self.perform(ctx, outcome);
            }
            LessonAction::PrintHandout => {
                let outcome = self.page.print_handout();
                let _ = self.perform(ctx, outcome);
            }
            LessonAction::Share => {
                let url = page_url::share_url(&self.page.shared(), self.i18n.tag());
                download::copy(&url);
                self.page.share_link = Some(url);
            }
            LessonAction::LessonLink => {
                let link = self
                    .page
                    .lessons
                    .open
                    .as_link()
                    .map(|(value, left)| (page_url::lesson_url(&value, self.i18n.tag()), left));
                if let Ok((url, _)) = &link {
                    download::copy(url);
                }
                self.page.lessons.link = Some(link);
            }
            LessonAction::Embed => {
                let code = page_url::embed_code(&self.page.shared(), &self.i18n);
                download::copy(&code);
                self.page.embed_code = Some(code);
            }
            LessonAction::Export(kind) => {
                if let Some(doc) = &self.page.run.document {
                    if let Err(e) = download::export(kind, doc) {
                        self.page.error = Some(e.into());
                    }
                }
            }
            LessonAction::Replay(file) => {
                let done = ctx.link().callback(Msg::Replayed);
                if let Err(e) = browser::read_recording(file, done) {
                    self.page.error = Some(e.into());
                }
            }
        }
    }
}
