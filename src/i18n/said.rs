//! What the page says ([`Said`]) in the reader's language.

use super::I18n;
use crate::said::{Retry, Said};
use fluent_bundle::FluentValue;
use ntl_protocol::hub_gguf::PickError;
use ntl_protocol::trouble::{LoadTrouble, NetTrouble, WorkerNotice};
use ntl_protocol::ModelSource;

fn v(x: impl ToString) -> FluentValue<'static> {
    FluentValue::from(x.to_string())
}

impl I18n {
    /// A model's name as the status line and the page's messages give it.
    pub fn model_name(&self, source: &ModelSource) -> String {
        match source {
            ModelSource::Bundled { .. } => self.t("model-bundled"),
            ModelSource::Hub { .. } => self.t_with(
                "model-hub-repo",
                &[("repo", v(source.fetched_name().unwrap_or_default()))],
            ),
            ModelSource::Files { names } => {
                self.t_with("model-local-files", &[("names", v(names.join(", ")))])
            }
            ModelSource::Folder { path } => self.t_with("model-folder", &[("path", v(path))]),
        }
    }

    /// Why a lane's own model will not load.
    pub fn lane_model_trouble(
        &self,
        name: &str,
        trouble: &crate::state::lane_model_trouble::LaneModelTrouble,
    ) -> String {
        use crate::state::lane_model_trouble::LaneModelTrouble as T;
        match trouble {
            T::NotAModel => self.t_with("lane-model-not-a-model", &[("name", v(name))]),
            T::SizeUnknown => self.t_with("lane-model-size-unknown", &[("name", v(name))]),
            T::TooBig {
                cost,
                held,
                device_gb,
            } => {
                let limit = match device_gb {
                    Some(gb) => self.t_with("lane-model-limit-device", &[("gb", v(gb))]),
                    None => self.t("lane-model-limit-wasm"),
                };
                self.t_with(
                    "lane-model-too-big",
                    &[
                        ("name", v(name)),
                        ("memory", v(crate::format::bytes(cost.memory))),
                        ("download", v(crate::format::bytes(cost.download))),
                        ("held", v(crate::format::bytes(*held))),
                        ("limit", v(limit)),
                    ],
                )
            }
            T::Load { file, trouble } => {
                let why = self.load_trouble(trouble);
                match file {
                    Some(file) => self.t_with(
                        "lane-model-load-file",
                        &[("name", v(name)), ("file", v(file)), ("why", v(why))],
                    ),
                    None => self.t_with("lane-model-load", &[("name", v(name)), ("why", v(why))]),
                }
            }
        }
    }

    /// What a memory estimate's cache was sized for, or nothing when the
    /// model's shape was unknown.
    pub fn memory_cache(&self, tokens: Option<usize>) -> String {
        tokens.map_or_else(String::new, |t| {
            self.t_with("memory-cache", &[("tokens", v(t))])
        })
    }

    /// Why a download waits or gave up.
    pub fn net_trouble(&self, why: &NetTrouble) -> String {
        match why {
            NetTrouble::ConnectionFailed => self.t("net-connection-failed"),
            NetTrouble::HubAnswered { status, text } => self
                .t_with(
                    "net-hub-answered",
                    &[("status", v(status)), ("text", v(text))],
                )
                .trim_end()
                .to_string(),
            NetTrouble::BrokeOff {
                file,
                loaded_mb,
                total_mb,
                resuming,
            } => self.t_with(
                "net-broke-off",
                &[
                    ("file", v(file)),
                    ("loaded", v(loaded_mb)),
                    (
                        "total",
                        v(total_mb.map(|t| t.to_string()).unwrap_or_default()),
                    ),
                    ("known", v(if total_mb.is_some() { "yes" } else { "no" })),
                    ("resuming", v(if *resuming { "yes" } else { "no" })),
                ],
            ),
        }
    }

    /// Why a model did not load.
    pub fn load_trouble(&self, t: &LoadTrouble) -> String {
        match t {
            LoadTrouble::Unreachable { url } => self.t_with("load-unreachable", &[("url", v(url))]),
            LoadTrouble::GaveUp { why, attempts } => self.t_with(
                "load-gave-up",
                &[("why", v(self.net_trouble(why))), ("attempts", v(attempts))],
            ),
            LoadTrouble::WaitTooLong { why, seconds } => self.t_with(
                "load-wait-too-long",
                &[("why", v(self.net_trouble(why))), ("seconds", v(seconds))],
            ),
            LoadTrouble::Private { url, status } => {
                self.t_with("load-private", &[("url", v(url)), ("status", v(status))])
            }
            LoadTrouble::Answered { url, status, text } => self.t_with(
                "load-answered",
                &[("url", v(url)), ("status", v(status)), ("text", v(text))],
            ),
            LoadTrouble::NoConfig { repo } => self.t_with("load-no-config", &[("repo", v(repo))]),
            LoadTrouble::NoTokenizer { repo } => {
                self.t_with("load-no-tokenizer", &[("repo", v(repo))])
            }
            LoadTrouble::PickleOnly { repo } => {
                self.t_with("load-pickle-only", &[("repo", v(repo))])
            }
            LoadTrouble::NoWeights { repo, index } => {
                self.t_with("load-no-weights", &[("repo", v(repo)), ("index", v(index))])
            }
            LoadTrouble::ShardMissing { repo, index, name } => self.t_with(
                "load-shard-missing",
                &[("repo", v(repo)), ("index", v(index)), ("name", v(name))],
            ),
            LoadTrouble::Gguf { repo, pick } => self.gguf_pick(repo, pick),
            LoadTrouble::AlreadyLoading => self.t("load-already-loading"),
            LoadTrouble::NothingToLoad => self.t("load-nothing-to-load"),
            LoadTrouble::Other { message } => message.clone(),
        }
    }

    /// Why no `.gguf` of a hub repo was taken.
    fn gguf_pick(&self, repo: &str, pick: &PickError) -> String {
        let list = |files: &[String]| v(files.join(", "));
        match pick {
            PickError::NoFiles { split } => self.t_with(
                "load-gguf-no-files",
                &[
                    ("repo", v(repo)),
                    ("split", v(split)),
                    ("has_split", v(if *split > 0 { "yes" } else { "no" })),
                ],
            ),
            PickError::NoSuchFile { name, files } => self.t_with(
                "load-gguf-no-such-file",
                &[
                    ("repo", v(repo)),
                    ("name", v(name)),
                    ("files", list(files)),
                    ("listed", v(if files.is_empty() { "no" } else { "yes" })),
                ],
            ),
            PickError::NoSuchTag { tag, files } => self.t_with(
                "load-gguf-no-such-tag",
                &[("repo", v(repo)), ("tag", v(tag)), ("files", list(files))],
            ),
            PickError::Ambiguous { tag, count, files } => self.t_with(
                "load-gguf-ambiguous",
                &[
                    ("repo", v(repo)),
                    ("tag", v(tag)),
                    ("count", v(count)),
                    ("files", list(files)),
                ],
            ),
            PickError::Choose { files } => self.t_with(
                "load-gguf-choose",
                &[
                    ("repo", v(repo)),
                    ("count", v(files.len())),
                    ("files", list(files)),
                ],
            ),
        }
    }

    pub fn worker_notice(&self, n: &WorkerNotice) -> String {
        match n {
            WorkerNotice::StorageFull => self.t("notice-storage-full"),
            WorkerNotice::StorageRefused => self.t("notice-storage-refused"),
            WorkerNotice::NoResume { file } => {
                self.t_with("notice-no-resume", &[("file", v(file))])
            }
            WorkerNotice::PlainPrompts { why } => {
                self.t_with("notice-plain-prompts", &[("why", v(why))])
            }
        }
    }

    /// Beside a download's bar: why it stands still.
    pub fn retry(&self, r: &Retry) -> String {
        match r {
            Retry::Countdown {
                why,
                seconds,
                attempt,
                of,
            } => self.t_with(
                "retry-countdown",
                &[
                    ("why", v(self.net_trouble(why))),
                    ("seconds", v(seconds)),
                    ("attempt", v(attempt)),
                    ("of", v(of)),
                ],
            ),
            Retry::OtherTab { file } => self.t_with("retry-other-tab", &[("file", v(file))]),
        }
    }

    pub fn said(&self, said: &Said) -> String {
        match said {
            Said::Verbatim(text) => text.clone(),
            Said::Config(e) => self.config_error(e),
            Said::Toy(e) => self.toy_error(e),
            Said::Page(e) => self.page_error(e),
            Said::Link(e) => self.share_error(e),
            Said::LessonAddress(e) => self.lesson_address_error(e),
            Said::LessonLink(e) => self.lesson_link_error(e),
            Said::TooLongForALink(e) => self.t_with(
                "lesson-link-too-long",
                &[
                    ("chars", v(e.chars)),
                    ("max", v(ntl_protocol::lesson::link::MAX_LESSON_LINK_CHARS)),
                ],
            ),
            Said::NoKnob(name) => self.t_with("said-no-knob", &[("name", v(name))]),
            Said::LaneModel { name, trouble } => self.lane_model_trouble(name, trouble),
            Said::SandboxNotANumber { knob, text } => self.t_with(
                "said-sandbox-not-a-number",
                &[("knob", v(knob)), ("text", v(text))],
            ),
            Said::ScoreNeedsText => self.t("said-score-needs-text"),
            Said::Tree(refusal) => self.tree_refusal(refusal),
            Said::WorkerDown => self.t("said-worker-down"),
            Said::OutOfMemory {
                source,
                need,
                device_gb,
            } => {
                let model = source
                    .as_ref()
                    .map_or_else(|| self.t("oom-no-model"), |s| self.model_name(s));
                let size = need.map_or_else(String::new, |n| {
                    self.t_with(
                        "oom-size",
                        &[
                            ("weights", v(crate::format::bytes(n.weights))),
                            ("need", v(crate::format::bytes(n.in_tab()))),
                            ("cache", v(self.memory_cache(n.cache_tokens))),
                        ],
                    )
                });
                let device = device_gb.map_or_else(String::new, |gb| {
                    self.t_with("oom-device", &[("gb", v(gb))])
                });
                self.t_with(
                    "said-out-of-memory",
                    &[
                        ("model", v(model)),
                        ("size", v(size)),
                        ("device", v(device)),
                    ],
                )
            }
            Said::SiteModels(e) => {
                use ntl_protocol::site_models::{SiteModelsError as E, MAX_SITE_MODELS};
                match e {
                    E::Format(why) => self.t_with("site-models-format", &[("why", v(why))]),
                    E::TooMany(n) => self.t_with(
                        "site-models-too-many",
                        &[("found", v(n)), ("max", v(MAX_SITE_MODELS))],
                    ),
                    E::Folder(f) => self.t_with("site-models-folder", &[("folder", v(f))]),
                }
            }
            Said::RunStalled { seconds } => {
                self.t_with("said-run-stalled", &[("seconds", v(seconds))])
            }
            Said::NoRandomSeed(why) => self.t_with("said-no-random-seed", &[("why", v(why))]),
            Said::ModelNotReady => self.t("said-model-not-ready"),
            Said::ChatNeedsTurn => self.t("said-chat-needs-turn"),
            Said::WorkerCrashed(why) => self.t_with("said-worker-crashed", &[("why", v(why))]),
            Said::WorkerUnreadable {
                kind,
                detail,
                stopped,
            } => self.t_with(
                "said-worker-unreadable",
                &[
                    ("kind", v(kind.as_deref().unwrap_or_default())),
                    ("known", v(if kind.is_some() { "yes" } else { "no" })),
                    ("detail", v(detail)),
                    ("stopped", v(if *stopped { "yes" } else { "no" })),
                ],
            ),
            Said::Branched {
                lane,
                step,
                token,
                tokens,
            } => self.t_with(
                "said-branched",
                &[
                    ("lane", v(lane)),
                    ("step", v(step)),
                    ("token", v(token)),
                    ("tokens", (*tokens).into()),
                ],
            ),
            Said::Load(trouble) => self.load_trouble(trouble),
            Said::Notice(notice) => self.worker_notice(notice),
            Said::HubOffline(why) => {
                self.t_with("said-hub-offline", &[("why", v(self.load_trouble(why)))])
            }
            Said::FirstRunsShown { name, runs } => self.t_with(
                "said-first-runs-shown",
                &[
                    ("name", v(name)),
                    ("runs", (*runs).into()),
                    ("lanes", v(crate::lanes::LANES)),
                ],
            ),
            Said::NothingToScore => self.t("said-nothing-to-score"),
            Said::Writer(t) => self.writer_trouble(t),
            Said::NegativePromptTooLong {
                lane,
                tokens,
                new_tokens,
                positions,
            } => self.t_with(
                "said-negative-prompt-too-long",
                &[
                    ("lane", v(lane)),
                    ("tokens", v(tokens)),
                    ("new", v(new_tokens)),
                    ("positions", v(positions)),
                ],
            ),
            Said::NoConstrainedSearchInLlama => self.t("said-no-constrained-search-in-llama"),
            Said::NotARepoId(text) => self.t_with("said-not-a-repo-id", &[("text", v(text))]),
        }
    }
}
