//! What each worker message does to the page: a model loaded or refused, a
//! run's stream, answers to the sandbox, the inspector and the chat editor,
//! and a worker that crashed or never started.

use super::model::ModelStatus;
use super::out_of_memory;
use super::outcome::{Command, Outcome};
use super::quiz::Quiz;
use super::Page;
use crate::rc_eq::RcEq;
use crate::said::Said;
use crate::worker_choice::OneThread;
use ntl_protocol::{FromWorker, ToWorker};

impl Page {
    /// A message from the worker, at `now` (ms, the page's clock).
    pub fn on_worker(&mut self, msg: FromWorker, now: f64) -> Outcome {
        if msg.run_id().is_some() && msg.run_id() == self.run.running {
            self.run.last_word = Some(now);
        }
        match msg {
            FromWorker::LaneModelProgress {
                name,
                file,
                loaded,
                total,
            } => Outcome::changed(self.lane_models.progress(&name, file, loaded, total)),
            FromWorker::LaneModelLoaded {
                name,
                info,
                memory_bytes,
                ..
            } => self.lane_model_loaded(&name, info, memory_bytes),
            FromWorker::LaneModelFailed {
                name,
                file,
                trouble,
                ..
            } => self.lane_model_failed(&name, file, trouble),
            FromWorker::Ready => {
                self.worker.ready = true;
                self.worker.slow = false;
                if self.model.held {
                    // The model that did not fit stays unloaded; the page says why.
                    return Outcome::redraw();
                }
                if self.lessons.model_waits {
                    // `lesson_arrived` loads the lesson's model.
                    return Outcome::redraw();
                }
                Outcome::redraw().and_send(self.model.reload())
            }
            FromWorker::Progress {
                file,
                loaded,
                total,
            } => {
                self.model.progress(file, loaded, total);
                Outcome::redraw()
            }
            FromWorker::Retrying {
                file,
                why,
                seconds,
                attempt,
                attempts,
            } => {
                self.model.retrying(file, why, seconds, attempt, attempts);
                Outcome::redraw()
            }
            FromWorker::Measured {
                repo,
                bytes,
                cached,
                shape,
                gguf,
            } => {
                // The page's model may be waiting on the same answer (it
                // takes only what it asked for).
                self.model.measured(&repo, bytes, cached, shape, gguf);
                self.lane_model_measured(&repo, bytes, shape)
                    .unwrap_or_else(Outcome::redraw)
            }
            FromWorker::Waiting { file } => {
                self.model.waiting(file);
                Outcome::redraw()
            }
            FromWorker::SaveFailed { why } => {
                self.notice = Some(Said::Verbatim(why));
                Outcome::redraw()
            }
            FromWorker::Notice { notice } => {
                self.notice = Some(Said::Notice(notice));
                Outcome::redraw()
            }
            FromWorker::Loaded {
                info,
                source,
                load_ms,
                threads,
                memory_bytes,
            } => {
                if memory_bytes.is_some() {
                    self.lane_models.worker_memory = memory_bytes;
                }
                self.model.loaded(info, source, load_ms, threads);
                // Another model may cut the prompt into other tokens.
                self.inspector = RcEq::default();
                match self.pending_run.take() {
                    Some(kind) => self.start_run(kind),
                    // A lesson step's recording showed while the model
                    // loaded: its tree grows now.
                    None if self.lessons.recorded == super::lesson_player::Recorded::Shown
                        && self.tree.grown.is_none() =>
                    {
                        self.open_lesson_step()
                    }
                    None => Outcome::redraw(),
                }
            }
            FromWorker::LoadFailed {
                file,
                trouble,
                network,
                kept,
            } => match self.model.load_failed(file, trouble, network, kept) {
                Some((fallback, notice)) => {
                    self.notice = Some(notice);
                    self.load(fallback)
                }
                None => Outcome::redraw(),
            },
            FromWorker::Started {
                run_id,
                prompt_ids,
                prompt_cropped,
                lanes,
            } => {
                let n_positions = match &self.model.status {
                    ModelStatus::Ready { info, .. } => Some(info.n_positions),
                    _ => None,
                };
                let ids = prompt_ids;
                let changed = self
                    .run
                    .started(run_id, ids, prompt_cropped, &lanes, n_positions);
                Outcome::changed(changed)
            }
            FromWorker::Step {
                run_id,
                lane,
                index,
                step,
                text,
            } => Outcome::changed(self.run.step(run_id, lane, index, *step, text, now)),
            FromWorker::LaneDone {
                run_id,
                lane,
                reason,
            } => Outcome::changed(self.run.lane_done(run_id, lane, reason)),
            FromWorker::Finished {
                run_id,
                document,
                shown_texts,
                ..
            } => {
                let changed = self.run.finished(run_id, document, &shown_texts);
                if changed && self.run.running.is_none() {
                    self.run.check_watermarks(self.model.vocab_size());
                    if let Some((lane, step)) = self.pending_step.take() {
                        self.run.select(lane, step);
                    } else if self.run.lesson.is_some() {
                        // The lesson step's own run, unchanged.
                        return self.open_lesson_step();
                    }
                }
                Outcome::changed(changed)
            }
            FromWorker::RunFailed {
                run_id,
                lane,
                field,
                message,
                trouble,
            } => {
                let said = match trouble {
                    Some(t) => Said::from_run(t, message),
                    None => Said::Verbatim(message),
                };
                if self.tree.is_growing(run_id) {
                    self.tree.make_mut().failed(run_id, said);
                    return Outcome::redraw();
                }
                self.run.failed(run_id);
                match lane {
                    Some(l) => self.editor.lane_failed(self.run.page_lane(l), field, said),
                    None => self.error = Some(said),
                }
                Outcome::redraw()
            }
            FromWorker::TreeGrowing {
                run_id,
                level,
                levels,
                rows,
                fraction,
            } => Outcome::changed(
                self.tree
                    .make_mut()
                    .progress(run_id, fraction, level, levels, rows),
            ),
            FromWorker::TreeGrown {
                run_id,
                document,
                ms,
                ..
            } => self.tree_grown(run_id, *document, ms),
            FromWorker::WhatIf {
                request_id,
                step,
                vocab,
                ms,
            } => Outcome::changed(
                self.sandbox
                    .make_mut()
                    .answered(request_id, *step, vocab, ms),
            ),
            FromWorker::Drifted { request_id, drift } => {
                Outcome::changed(self.drifts.answered(request_id, drift))
            }
            FromWorker::Inspected {
                request_id,
                tokens,
                predictions,
                context,
                cropped,
            } => Outcome::changed(self.inspector.make_mut().answered(
                request_id,
                tokens,
                predictions,
                context,
                cropped,
            )),
            FromWorker::ChatRendered { text } => {
                if let Some(text) = self.chat.rendered(text) {
                    self.editor.set_prompt(text);
                }
                Outcome::redraw()
            }
            FromWorker::Tokenized { request_id, tokens } if Quiz::owns(request_id) => {
                self.quiz_tokenized(request_id, tokens)
            }
            FromWorker::Tokenized { request_id, tokens } => {
                Outcome::changed(self.inspector.make_mut().looked_up(request_id, tokens))
            }
            FromWorker::InspectFailed {
                request_id,
                message,
            } => Outcome::changed(self.inspector.make_mut().failed(request_id, message)),
            FromWorker::WhatIfFailed {
                request_id,
                field,
                message,
            } => Outcome::changed(self.sandbox.make_mut().failed(request_id, field, message)),
        }
    }

    /// The worker stopped or never started.
    pub fn worker_crashed(&mut self, message: String) -> Outcome {
        if self.worker.threaded && !self.worker.ready {
            // The threaded build did not start (missing from this host, or
            // shared memory refused): the single-threaded one does the same work.
            self.worker.threaded = false;
            self.worker.one_thread = Some(OneThread::ThreadedFailed);
            return Outcome::unchanged().and(Command::SpawnWorker { threaded: false });
        }
        if out_of_memory::is_out_of_memory(&message) && self.worker.ready {
            return self.worker_out_of_memory();
        }
        self.worker.alive = false;
        self.worker.ready = false;
        // Lanes that were running say they stopped, not "running…" for ever.
        let _ = self.run.abandon();
        // Its answers are lost with it.
        self.inspector = RcEq::default();
        self.sandbox.make_mut().pending = None;
        self.error = Some(Said::WorkerCrashed(message.clone()));
        self.model.failed(Said::Verbatim(message));
        Outcome::redraw()
    }

    /// The worker ran out of memory: the run ends (its lanes keep what they
    /// wrote), the page names the model and its size, and a fresh worker
    /// starts with no model in it; the prompt and lanes stay.
    fn worker_out_of_memory(&mut self) -> Outcome {
        let (source, need) = self.model.memory_facts();
        let said = Said::OutOfMemory {
            source,
            need,
            device_gb: self.model.device_memory_gb,
        };
        let _ = self.run.abandon();
        self.inspector = RcEq::default();
        self.sandbox.make_mut().pending = None;
        self.error = Some(said.clone());
        self.model.failed(said);
        self.model.held = true;
        self.worker.ready = false;
        Outcome::redraw().and(Command::SpawnWorker {
            threaded: self.worker.threaded,
        })
    }

    /// The worker sent a message this page cannot read (`kind` is its
    /// `type`, when it has one). The worker itself is still healthy: the run
    /// in progress ends here and in the worker, every unfinished lane says it
    /// stopped, and the model stays loaded.
    pub fn worker_message_unreadable(&mut self, kind: Option<String>, detail: String) -> Outcome {
        let cancel = self.run.abandon().map(|run_id| ToWorker::Cancel { run_id });
        self.error = Some(Said::WorkerUnreadable {
            kind,
            detail,
            stopped: cancel.is_some(),
        });
        Outcome::redraw().and_send(cancel)
    }

    /// The stall check of run `run_id`, a limit after it started or after
    /// the check before: a run that has not heard from the worker for the
    /// whole limit ends as an unreadable message ends it (the worker told to
    /// cancel and kept, every unfinished lane marked stopped, the page
    /// saying why); one that has is checked again when the limit would pass.
    pub fn run_watch(&mut self, run_id: u64, now: f64) -> Outcome {
        if self.run.running != Some(run_id) {
            return Outcome::unchanged();
        }
        if let Some(after_ms) = self.stall.next_check(self.run.last_word, now) {
            return Outcome::unchanged().and(Command::WatchRun { run_id, after_ms });
        }
        let cancel = self.run.abandon().map(|run_id| ToWorker::Cancel { run_id });
        self.error = Some(Said::RunStalled {
            seconds: self.stall.seconds,
        });
        Outcome::redraw().and_send(cancel.filter(|_| self.worker.alive))
    }

    /// `WORKER_START_PATIENCE_MS` after worker number `spawned` was started:
    /// if that worker still has not said it listens, the page says so and
    /// offers a restart. Says whether to render.
    pub fn worker_start_overdue(&mut self, spawned: u32) -> bool {
        let overdue = spawned == self.worker.spawned && self.worker.alive && !self.worker.ready;
        if overdue {
            self.worker.slow = true;
        }
        overdue
    }

    pub fn restart_worker(&mut self) -> Outcome {
        self.error = None;
        if self.worker.slow {
            // The threaded build may be what will not start: go on one thread.
            if self.worker.threaded {
                self.worker.one_thread = Some(OneThread::ThreadedFailed);
            }
            self.worker.threaded = false;
        }
        // Shown as loading at once; the load itself is sent when the new
        // worker says it is ready.
        let _ = self.model.reload();
        Outcome::redraw().and(Command::SpawnWorker {
            threaded: self.worker.threaded,
        })
    }
}
