//! Whitespace in a token shown the way the page shows it.

pub fn visible(token: &str) -> String {
    token
        .replace('\n', "\\n")
        .replace('\t', "\\t")
        .replace(' ', "␣")
}
