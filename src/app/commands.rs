//! Doing what a state transition asks: talk to the worker, fetch a lesson
//! or a recording, start a worker, print.

use super::{browser, App, Msg, MAX_RECORDING_BYTES};
use crate::state::{Command, Outcome, WORKER_START_PATIENCE_MS};
use crate::worker_link::WorkerLink;
use ntl_protocol::lesson::MAX_LESSON_BYTES;
use yew::prelude::*;

impl App {
    /// Does what a transition asked, and says whether to render.
    pub(super) fn perform(&mut self, ctx: &Context<Self>, outcome: Outcome) -> bool {
        for command in outcome.commands {
            match command {
                Command::Send(message) => match &self.link {
                    Some(link) => link.send(&message),
                    None => web_sys::console::warn_1(&"no worker to send to".into()),
                },
                Command::Print => self.print_after = true,
                Command::FetchSiteModels => {
                    use ntl_protocol::site_models::{INDEX_PATH, MAX_INDEX_BYTES};
                    let done = ctx.link().callback(Msg::SiteModelsArrived);
                    browser::fetch_bytes(INDEX_PATH.into(), MAX_INDEX_BYTES, done);
                }
                Command::FetchLesson { path } => {
                    let from = crate::lessons::LessonFrom::Site(path.clone());
                    let done = ctx
                        .link()
                        .callback(move |bytes| Msg::LessonArrived(from.clone(), bytes));
                    browser::fetch_bytes(path, MAX_LESSON_BYTES, done);
                }
                Command::FetchRecording { url, at } => {
                    let name = url.clone();
                    let done = ctx.link().callback(move |bytes: Result<Vec<u8>, _>| {
                        Msg::RecordingArrived(at.clone(), browser::recording(&name, bytes))
                    });
                    browser::fetch_bytes(url, MAX_RECORDING_BYTES, done);
                }
                Command::SaveFile { name, mime, text } => {
                    if let Err(e) = crate::download::save(&name, mime, &text) {
                        self.page.error = Some(e.into());
                    }
                }
                Command::MeasurePackage => {
                    super::package::measure(ctx.link().callback(Msg::PackageMeasured));
                }
                Command::Pack(plan) => {
                    let progress = ctx
                        .link()
                        .callback(|(done, total)| Msg::PackageProgress(done, total));
                    super::package::pack(*plan, progress, ctx.link().callback(Msg::PackageDone));
                }
                Command::KeepDraft { json } => {
                    let kept = browser::keep_draft(json.as_deref());
                    self.page.draft_kept(kept);
                }
                Command::SpawnWorker { threaded } => {
                    // Dropping the old link terminates its worker.
                    self.link = None;
                    let on_message = ctx.link().callback(Msg::Worker);
                    let on_crash = ctx.link().callback(Msg::WorkerCrashed);
                    let on_unreadable = ctx
                        .link()
                        .callback(|(kind, detail)| Msg::WorkerUnreadable { kind, detail });
                    let on_saved = ctx
                        .link()
                        .callback(|(name, bytes)| Msg::FolderSaved(name, bytes));
                    let spawned =
                        WorkerLink::spawn(threaded, on_message, on_crash, on_unreadable, on_saved);
                    let (link, spawned) = match spawned {
                        Ok(link) => (Some(link), Ok(())),
                        Err(e) => (None, Err(e)),
                    };
                    self.page.worker_spawned(spawned);
                    self.link = link;
                    let spawned = self.page.worker.spawned;
                    let overdue = ctx
                        .link()
                        .callback(move |_| Msg::WorkerStartOverdue(spawned));
                    browser::after(WORKER_START_PATIENCE_MS, overdue);
                }
                Command::WatchRun { run_id, after_ms } => {
                    let check = ctx.link().callback(move |_| Msg::WatchRun(run_id));
                    browser::after(after_ms, check);
                }
            }
        }
        outcome.redraw
    }
}
