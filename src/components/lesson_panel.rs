//! "Put it in a lesson": share link, embed code, exports and replay of a
//! recorded run.

use crate::export::Export;
use crate::i18n::I18n;
use crate::rc_eq::RcEq;
use crate::said::Said;
use crate::state::package::Packaging;
use ntl_protocol::lesson::link::TooLongForALink;
use yew::prelude::*;

/// What the panel asks the page to do.
pub enum LessonAction {
    Share,
    /// The open lesson whole in a link.
    LessonLink,
    Embed,
    Export(Export),
    /// View a run recorded in this file (an exported JSON).
    Replay(web_sys::File),
    /// Print the open lesson as a handout.
    PrintHandout,
    /// The open lesson as a package to upload: what it holds first.
    Package,
    /// Its size is fine: fetch, zip and save it.
    PackageConfirm,
    PackageCancel,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// A finished or replayed run exists to export.
    pub has_document: bool,
    pub share_link: Option<String>,
    pub embed_code: Option<String>,
    /// The open lesson as a link once asked for (its address, and how many
    /// recordings stay behind), or why it does not fit.
    pub lesson_link: Option<Result<(String, usize), TooLongForALink>>,
    /// The handout's recordings still being fetched.
    pub handout_fetching: usize,
    /// The open lesson on its way into a package.
    pub package: RcEq<Packaging>,
    pub on: Callback<LessonAction>,
}

/// The export buttons: what each saves, and its label's and hint's messages.
const EXPORTS: [(Export, &str, &str, &str); 4] = [
    (
        Export::Json,
        "export-json",
        "export-json",
        "export-json-title",
    ),
    (Export::Csv, "export-csv", "export-csv", "export-csv-title"),
    (
        Export::Markdown,
        "export-markdown",
        "export-markdown",
        "export-markdown-title",
    ),
    (
        Export::PlotsSvg,
        "export-plots",
        "export-plots",
        "export-plots-title",
    ),
];

/// A text to copy (a link, an iframe), selected whole when focused.
fn code_box(label: &str, testid: &'static str, rows: u32, text: &str) -> Html {
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
            t.select();
        }
    });
    html! {
        <label class="code">
            { label.to_string() }
            <textarea
                readonly=true
                rows={rows.to_string()}
                data-testid={testid}
                value={text.to_string()}
                onfocus={select_all}
            />
        </label>
    }
}

#[function_component(LessonPanel)]
pub fn lesson_panel(p: &Props) -> Html {
    let tr = use_context::<I18n>().unwrap_or_default();
    let on_replay = {
        let on = p.on.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(f) = input.files().and_then(|l| l.get(0)) {
                on.emit(LessonAction::Replay(f));
            }
            input.set_value("");
        })
    };
    html! {
        <section class="lesson-panel" aria-label={tr.t("lesson-panel")}>
            <div class="actions">
                <button
                    data-testid="share"
                    onclick={p.on.reform(|_: MouseEvent| LessonAction::Share)}
                    title={tr.t("share-title")}
                >
                    { tr.t("share") }
                </button>
                <button
                    data-testid="lesson-link-copy"
                    onclick={p.on.reform(|_: MouseEvent| LessonAction::LessonLink)}
                    title={tr.t("lesson-link-copy-title")}
                >
                    { tr.t("lesson-link-copy") }
                </button>
                <button
                    data-testid="embed"
                    onclick={p.on.reform(|_: MouseEvent| LessonAction::Embed)}
                    title={tr.t("embed-title")}
                >
                    { tr.t("embed") }
                </button>
                <span class="sep">{ tr.t("export") }</span>
                { for EXPORTS.iter().map(|&(kind, testid, label, title)| html! {
                    <button
                        data-testid={testid}
                        disabled={!p.has_document}
                        onclick={p.on.reform(move |_: MouseEvent| LessonAction::Export(kind))}
                        title={tr.t(title)}
                    >
                        { tr.t(label) }
                    </button>
                }) }
                <label class="file-button" title={tr.t("replay-file-title")}>
                    { tr.t("replay-file") }
                    <input
                        type="file"
                        accept=".json,application/json"
                        data-testid="replay-file"
                        onchange={on_replay}
                    />
                </label>
                <button
                    data-testid="print-handout"
                    disabled={p.handout_fetching > 0}
                    onclick={p.on.reform(|_: MouseEvent| LessonAction::PrintHandout)}
                    title={tr.t("print-handout-title")}
                >
                    { if p.handout_fetching > 0 {
                        tr.t_with("print-handout-preparing", &[("fetching", p.handout_fetching.into())])
                    } else {
                        tr.t("print-handout")
                    } }
                </button>
                <button
                    data-testid="package"
                    disabled={matches!(*p.package, Packaging::Measuring | Packaging::Packing { .. })}
                    onclick={p.on.reform(|_: MouseEvent| LessonAction::Package)}
                    title={tr.t("package-title")}
                >
                    { tr.t("package") }
                </button>
            </div>
            { package(p, &tr) }
            if let Some(link) = &p.share_link {
                { code_box(&tr.t("share-link"), "share-link", 2, link) }
            }
            { lesson_link(p, &tr) }
            if let Some(code) = &p.embed_code {
                { code_box(&tr.t("embed-code"), "embed-code", 3, code) }
            }
        </section>
    }
}

/// The copied lesson link and what stays behind, or why there is none.
fn lesson_link(p: &Props, tr: &I18n) -> Html {
    match &p.lesson_link {
        None => Html::default(),
        Some(Ok((url, left))) => html! {
            <>
                { code_box(&tr.t("lesson-link-label"), "lesson-link", 2, url) }
                if *left > 0 {
                    <p class="hint" data-testid="lesson-link-left">
                        { tr.t_with("lesson-link-left", &[("runs", (*left).into())]) }
                    </p>
                }
            </>
        },
        Some(Err(e)) => html! {
            <p class="error" role="alert" data-testid="lesson-link-error">
                { tr.said(&Said::TooLongForALink(e.clone())) }
            </p>
        },
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}

/// What the package holds before it is made, its progress, and the result.
fn package(p: &Props, tr: &I18n) -> Html {
    match &*p.package {
        Packaging::Idle => Html::default(),
        Packaging::Measuring => html! {
            <p class="hint" data-testid="package-status" role="status">{ tr.t("package-measuring") }</p>
        },
        Packaging::Offered(plan) => {
            let size = mb(plan.site_bytes());
            html! {
                <div class="package-offer" data-testid="package-offer">
                    <p>
                        { tr.t_with("package-holds", &[
                            ("title", plan.lesson.title.clone().into()),
                            ("runs", plan.recordings.len().into()),
                            ("model", if plan.model_packed { "yes" } else { "no" }.into()),
                            ("mb", size.clone().into()),
                        ]) }
                    </p>
                    if !plan.model_packed {
                        <p class="hint" data-testid="package-no-model">
                            { tr.t_with("package-hub-model", &[("model", plan.lesson.model.clone().into())]) }
                        </p>
                    }
                    if plan.left_behind > 0 {
                        <p class="hint" data-testid="package-left-behind">
                            { tr.t_with("package-left-behind", &[("runs", plan.left_behind.into())]) }
                        </p>
                    }
                    <p class="hint">{ tr.t("package-how") }</p>
                    <div class="actions">
                        <button class="primary" data-testid="package-download"
                            onclick={p.on.reform(|_: MouseEvent| LessonAction::PackageConfirm)}>
                            { tr.t_with("package-download", &[("mb", size.into())]) }
                        </button>
                        <button data-testid="package-cancel"
                            onclick={p.on.reform(|_: MouseEvent| LessonAction::PackageCancel)}>
                            { tr.t("package-cancel") }
                        </button>
                    </div>
                </div>
            }
        }
        Packaging::Packing { done, total } => html! {
            <p class="hint" data-testid="package-status" role="status">
                { tr.t_with("package-packing", &[("done", (*done).into()), ("total", (*total).into())]) }
            </p>
        },
        Packaging::Done { name, bytes } => html! {
            <p class="hint" data-testid="package-status" role="status" data-state="done">
                { tr.t_with("package-done", &[("name", name.clone().into()), ("mb", mb(*bytes).into())]) }
            </p>
        },
        Packaging::Failed(e) => html! {
            <p class="error" role="alert" data-testid="package-error">{ tr.said(e) }</p>
        },
    }
}
