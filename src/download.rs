//! Hands a text to the browser as a file download, and copies text to the clipboard.

use crate::export::Export;
use crate::page_error::PageError;
use ntl_decoding::Document;
use wasm_bindgen::JsCast;

/// Saves a run as `kind` (the plots come from the page as drawn).
pub fn export(kind: Export, doc: &Document) -> Result<(), PageError> {
    let text = match kind.text(doc) {
        Some(text) => text,
        None => plots_svg().ok_or(PageError::NoPlots)?,
    };
    let (name, mime) = kind.file();
    save(name, mime, &text)
}

pub fn save(name: &str, mime: &str, text: &str) -> Result<(), PageError> {
    save_part(name, mime, &text.into())
}

/// Saves bytes (a zip) as a download.
pub fn save_bytes(name: &str, mime: &str, bytes: &[u8]) -> Result<(), PageError> {
    save_part(name, mime, &js_sys::Uint8Array::from(bytes).into())
}

fn save_part(name: &str, mime: &str, part: &wasm_bindgen::JsValue) -> Result<(), PageError> {
    let fail = |what: &'static str| PageError::Save {
        name: name.to_string(),
        what,
    };
    let parts = js_sys::Array::of1(part);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts)
        .map_err(|_| fail("no Blob"))?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("no object URL"))?;
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| fail("no document"))?;
    let a: web_sys::HtmlAnchorElement = doc
        .create_element("a")
        .map_err(|_| fail("no link"))?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Later, not at once: a browser may still be reading a large blob (a
    // package) when the click returns.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(w) = web_sys::window() {
        let _ =
            w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
    }
    Ok(())
}

/// Best effort: the text is also shown selectable next to the button.
pub fn copy(text: &str) {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return;
    };
    let Ok(clipboard) = js_sys::Reflect::get(&nav, &"clipboard".into()) else {
        return;
    };
    if let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into())
        .and_then(|f| f.dyn_into::<js_sys::Function>())
    {
        let _ = write.call1(&clipboard, &text.into());
    }
}

/// The page's plots as one standalone SVG image (their `<svg>`s stacked).
pub fn plots_svg() -> Option<String> {
    let doc = web_sys::window()?.document()?;
    let charts = doc.query_selector_all(".plots figure").ok()?;
    let (w, h, cols) = (320.0, 150.0, 2usize);
    let mut body = String::new();
    let mut n = 0usize;
    for i in 0..charts.length() {
        let fig: web_sys::Element = charts.item(i)?.dyn_into().ok()?;
        let svg = fig.query_selector("svg").ok()??;
        let title = fig
            .query_selector("figcaption")
            .ok()?
            .and_then(|c| c.text_content())
            .unwrap_or_default();
        let (x, y) = ((n % cols) as f64 * w, (n / cols) as f64 * h);
        body += &format!(
            "<g transform=\"translate({x},{y})\">\
             <text x=\"8\" y=\"14\" class=\"title\">{}</text>\
             <svg x=\"0\" y=\"18\" width=\"{w}\" height=\"130\" viewBox=\"0 0 320 130\">{}</svg>\
             </g>",
            escape(&title),
            svg.inner_html()
        );
        n += 1;
    }
    if n == 0 {
        return None;
    }
    let rows = n.div_ceil(cols);
    let (width, height) = (w * cols as f64, h * rows as f64);
    // The page's lane colours are style-sheet variables; the file has no sheet.
    let lanes = crate::theme::lane_color_definitions();
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\">\
         <style>svg{{{lanes}}} text{{font:10px sans-serif;fill:#444}} .title{{font-weight:bold}} \
         .axis{{stroke:#999}}</style>\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>{body}</svg>"
    ))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
