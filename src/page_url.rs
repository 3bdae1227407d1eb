//! The page's address: what it asks for (`?embed=1`, `?model=`, `?lesson=`,
//! a share link in `#run=`) and the links it hands out (share, embed, full page).

use ntl_protocol::lesson::link::{self as lesson_link, LessonLinkError};
use ntl_protocol::lesson::Lesson;
use ntl_protocol::share::{self, Shared};

/// What the address asks for, read once at start.
#[derive(Debug, Default)]
pub struct Requested {
    pub embed: bool,
    /// `?present=1`: projector mode.
    pub present: bool,
    pub model: Option<String>,
    pub shared: Option<Result<Shared, share::ShareError>>,
    /// `?lesson=`: a lesson file's path on this site.
    pub lesson: Option<Result<String, crate::lessons::address::LessonAddressError>>,
    /// `#lesson=`: a whole lesson in the link.
    pub lesson_link: Option<Result<Lesson, LessonLinkError>>,
    /// `?lang=`: the page's language (a catalog's tag).
    pub lang: Option<String>,
    /// `?stall=N`: seconds a run may go without a word from the worker.
    pub stall: crate::state::stall::StallLimit,
}

fn location() -> Option<web_sys::Location> {
    web_sys::window().map(|w| w.location())
}

pub fn read() -> Requested {
    let Some(loc) = location() else {
        return Requested::default();
    };
    let params = loc
        .search()
        .ok()
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok());
    let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
    let hash = loc.hash().unwrap_or_default();
    Requested {
        embed: matches!(get("embed").as_deref(), Some("1" | "true")),
        present: matches!(get("present").as_deref(), Some("1" | "true")),
        model: get("model"),
        shared: hash.strip_prefix("#run=").map(share::decode),
        lesson: get("lesson").map(|p| crate::lessons::address::check(&p)),
        lesson_link: hash.strip_prefix("#lesson=").map(lesson_link::decode),
        lang: get("lang"),
        stall: crate::state::stall::StallLimit::from_param(get("stall").as_deref()),
    }
}

/// Sets or clears a `?name=1` flag in the address bar without a reload, so
/// a reload keeps the page's mode.
pub fn set_flag(name: &str, on: bool) {
    set_param(name, on.then_some("1"));
}

/// Sets (or, with `None`, clears) `?name=value` in the address bar without
/// a reload.
pub fn set_param(name: &str, value: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(href) = window.location().href() else {
        return;
    };
    let Ok(url) = web_sys::Url::new(&href) else {
        return;
    };
    match value {
        Some(v) => url.search_params().set(name, v),
        None => url.search_params().delete(name),
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()));
    }
}

/// The page's own address without query or fragment.
fn base() -> String {
    location()
        .map(|l| {
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

/// `?lang=` for a page not in English, so a link opens in the language it
/// was made in (an English link says nothing: its reader's own choice holds).
fn lang_param(lang: &str, first: bool) -> String {
    match (lang == crate::i18n::ENGLISH, first) {
        (true, _) => String::new(),
        (false, true) => format!("?lang={lang}"),
        (false, false) => format!("&lang={lang}"),
    }
}

pub fn share_url(s: &Shared, lang: &str) -> String {
    format!(
        "{}{}#run={}",
        base(),
        lang_param(lang, true),
        share::encode(s)
    )
}

/// The page opening a lesson carried whole in the link (`#lesson=`).
pub fn lesson_url(link: &str, lang: &str) -> String {
    format!("{}{}#lesson={link}", base(), lang_param(lang, true))
}

pub fn embed_url(s: &Shared, lang: &str) -> String {
    format!(
        "{}?embed=1{}#run={}",
        base(),
        lang_param(lang, false),
        share::encode(s)
    )
}

/// The optional listener for a plain course page: it sizes each lab iframe
/// to the height the iframe reports (LMSs that honour `lti.frameResize`
/// need none of it).
pub const HEIGHT_LISTENER: &str = "<script>\naddEventListener(\"message\", (e) => { if (e.data?.type !== \"next-token-lab:height\") return;\n  for (const f of document.querySelectorAll(\"iframe\")) if (f.contentWindow === e.source) f.style.height = e.data.height + \"px\"; });\n</script>";

/// A copy-paste `<iframe>` for a course page, and the listener that lets
/// it take its content's height.
pub fn embed_code(s: &Shared, tr: &crate::i18n::I18n) -> String {
    let attr = |t: String| t.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<iframe src=\"{}\" title=\"{}\" \
         width=\"100%\" height=\"720\" style=\"border:1px solid #ddd;border-radius:8px\" \
         loading=\"lazy\"></iframe>\n{HEIGHT_LISTENER}",
        attr(embed_url(s, tr.tag())),
        attr(tr.t("embed-iframe-title")),
    )
}
