//! A lesson's Markdown as elements. The text is a stranger's: it becomes
//! elements through CommonMark events, never through `innerHTML`, so raw
//! HTML shows as the text it is, images show their description (nothing is
//! loaded), and a link opens in a new tab only when it is http(s), mailto
//! or a path on this site.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use yew::prelude::*;
use yew::virtual_dom::VTag;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub text: AttrValue,
    #[prop_or_default]
    pub class: Classes,
    #[prop_or_default]
    pub testid: Option<AttrValue>,
}

/// A link's target, when it is one a lesson may open.
pub fn safe_href(href: &str) -> Option<&str> {
    let h = href.trim();
    let lower = h.to_ascii_lowercase();
    let scheme = lower
        .split_once(':')
        .filter(|(s, _)| !s.contains(['/', '?', '#']))
        .map(|(s, _)| s);
    match scheme {
        Some("http" | "https" | "mailto") => Some(h),
        Some(_) => None,
        None if h.starts_with("//") || h.contains('\\') => None,
        None => Some(h),
    }
}

fn element(tag: &Tag) -> VTag {
    let name = match tag {
        Tag::Paragraph => "p",
        Tag::Heading { level, .. } => match level {
            // A lesson's headings sit under the page's own.
            HeadingLevel::H1 | HeadingLevel::H2 => "h3",
            HeadingLevel::H3 => "h4",
            _ => "h5",
        },
        Tag::BlockQuote(_) => "blockquote",
        Tag::CodeBlock(_) => "pre",
        Tag::List(Some(_)) => "ol",
        Tag::List(None) => "ul",
        Tag::Item => "li",
        Tag::Emphasis => "em",
        Tag::Strong => "strong",
        Tag::Strikethrough => "del",
        Tag::Link { .. } => "a",
        _ => "span",
    };
    let mut v = VTag::new(name);
    match tag {
        Tag::List(Some(start)) if *start != 1 => {
            v.add_attribute("start", start.to_string());
        }
        Tag::Link { dest_url, .. } => match safe_href(dest_url) {
            Some(href) => {
                v.add_attribute("href", href.to_string());
                v.add_attribute("target", "_blank");
                v.add_attribute("rel", "noopener noreferrer");
            }
            None => v.add_attribute("class", "refused-link"),
        },
        Tag::Image { .. } => v.add_attribute("class", "image-alt"),
        _ => {}
    }
    v
}

/// The Markdown as block elements.
pub fn render(text: &str) -> Html {
    let mut stack: Vec<VTag> = vec![VTag::new("div")];
    for event in Parser::new_ext(text, Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Start(tag) => stack.push(element(&tag)),
            Event::End(end) => {
                let Some(done) = stack.pop() else { continue };
                let done = if matches!(end, TagEnd::CodeBlock) {
                    let mut code = VTag::new("code");
                    if let Some(children) = done.into_children() {
                        code.add_child(children);
                    }
                    let mut pre = VTag::new("pre");
                    pre.add_child(code.into());
                    pre
                } else {
                    done
                };
                if let Some(parent) = stack.last_mut() {
                    parent.add_child(done.into());
                }
            }
            // Raw HTML is shown, never run: a lesson cannot add elements.
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => {
                if let Some(top) = stack.last_mut() {
                    top.add_child(html! { { t.to_string() } });
                }
            }
            Event::Code(t) => {
                if let Some(top) = stack.last_mut() {
                    top.add_child(html! { <code>{ t.to_string() }</code> });
                }
            }
            Event::SoftBreak => {
                if let Some(top) = stack.last_mut() {
                    top.add_child(html! { { " " } });
                }
            }
            Event::HardBreak => {
                if let Some(top) = stack.last_mut() {
                    top.add_child(html! { <br /> });
                }
            }
            Event::Rule => {
                if let Some(top) = stack.last_mut() {
                    top.add_child(html! { <hr /> });
                }
            }
            _ => {}
        }
    }
    // Unclosed tags cannot happen (the parser closes every one it opens).
    let root = stack.into_iter().next().expect("the root");
    root.into_children().unwrap_or_default()
}

#[function_component(Prose)]
pub fn prose(p: &Props) -> Html {
    html! {
        <div class={classes!("prose", p.class.clone())} data-testid={p.testid.clone()}>
            { render(&p.text) }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_mail_and_same_site_links_are_followed() {
        for ok in [
            "https://example.org/a",
            "http://x.y",
            "mailto:t@school.edu",
            "lessons/a.json",
            "#step",
        ] {
            assert!(safe_href(ok).is_some(), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "data:text/html,<script>",
            "vbscript:x",
            "//evil.example/",
            "\\\\evil\\x",
        ] {
            assert_eq!(safe_href(bad), None, "{bad}");
        }
    }
}
