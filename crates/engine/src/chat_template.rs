//! A chat model's `chat_template` (its repo's `tokenizer_config.json`)
//! rendered as HF's `apply_chat_template` renders it: jinja2 with
//! `trim_blocks` and `lstrip_blocks`, loop controls, `raise_exception`, a
//! `tojson` that writes Python's `json.dumps` (no HTML escaping), and the
//! tokenizer's `bos_token`/`eos_token`, through `minijinja` (Python's string
//! methods through its pycompat layer). The rendered text is then tokenized
//! like any prompt: its special tokens (`<|im_start|>`, …) come from the
//! text, as `apply_chat_template(tokenize=True)` takes them.

use crate::error::LoadError;
use minijinja::value::{Kwargs, Value};
use minijinja::{Environment, ErrorKind};
use ntl_decoding::chat::ChatMessage;
use serde_json::Value as Json;

#[derive(Debug, Clone, PartialEq)]
pub struct ChatTemplate {
    source: String,
    bos_token: Option<String>,
    eos_token: Option<String>,
}

/// Why a conversation could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    /// The template itself stopped: a syntax error, or its own
    /// `raise_exception` (e.g. roles that do not alternate).
    #[error("the model's chat template could not render this conversation: {0}")]
    Render(#[source] minijinja::Error),
    /// A base model: its tokenizer_config.json has no chat template.
    #[error("this model has no chat template (a base model); write the prompt as plain text, or load an Instruct model")]
    NoTemplate,
}

fn err(message: String) -> LoadError {
    LoadError::TokenizerConfig {
        message,
        source: None,
    }
}

/// A special token as `tokenizer_config.json` writes it: a string, or an
/// `AddedToken` object with its `content`.
fn token_text(v: Option<&Json>) -> Option<String> {
    match v? {
        Json::String(s) => Some(s.clone()),
        Json::Object(o) => o.get("content")?.as_str().map(str::to_string),
        _ => None,
    }
}

impl ChatTemplate {
    /// The template of a `tokenizer_config.json`, or `None` when it has none
    /// (a base model). A list of named templates gives its `default` one.
    pub fn from_tokenizer_config(bytes: &[u8]) -> Result<Option<ChatTemplate>, LoadError> {
        let config: Json =
            serde_json::from_slice(bytes).map_err(|e| LoadError::TokenizerConfig {
                message: format!("is not valid JSON ({e})"),
                source: Some(e),
            })?;
        let source = match config.get("chat_template") {
            None | Some(Json::Null) => return Ok(None),
            Some(Json::String(s)) => s.clone(),
            Some(Json::Array(named)) => named
                .iter()
                .find(|t| t.get("name").and_then(Json::as_str) == Some("default"))
                .and_then(|t| t.get("template")?.as_str())
                .ok_or_else(|| err("lists chat templates but none named `default`".into()))?
                .to_string(),
            Some(_) => return Err(err("has a `chat_template` that is not text".into())),
        };
        let template = ChatTemplate {
            source,
            bos_token: token_text(config.get("bos_token")),
            eos_token: token_text(config.get("eos_token")),
        };
        // A template that does not parse is named when the model loads.
        template
            .environment()
            .template_from_str(&template.source)
            .map_err(|e| err(format!("its chat template does not parse: {e}")))?;
        Ok(Some(template))
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    fn environment(&self) -> Environment<'static> {
        let mut env = Environment::new();
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .build()
                .expect("the default delimiters are valid"),
        );
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_filter("tojson", tojson);
        env.add_function("raise_exception", |message: String| -> Result<Value, _> {
            Err(minijinja::Error::new(ErrorKind::InvalidOperation, message))
        });
        env.add_function("strftime_now", |_format: String| -> Result<Value, _> {
            Err(minijinja::Error::new(
                ErrorKind::InvalidOperation,
                "strftime_now (today's date in the prompt) is not available here",
            ))
        });
        env
    }

    /// The conversation as the model reads it; `add_generation_prompt`
    /// opens the assistant's turn (what a chat model continues from).
    pub fn render(
        &self,
        messages: &[ChatMessage],
        add_generation_prompt: bool,
    ) -> Result<String, ChatError> {
        let env = self.environment();
        let ctx = minijinja::context! {
            messages => Value::from(minijinja::value::Serde(messages)),
            add_generation_prompt => add_generation_prompt,
            bos_token => self.bos_token.clone(),
            eos_token => self.eos_token.clone(),
        };
        env.render_str(&self.source, ctx).map_err(ChatError::Render)
    }
}

/// HF's `tojson`: Python's `json.dumps(x, ensure_ascii=False, indent=…,
/// separators=…, sort_keys=…)`, not jinja's HTML-escaping filter.
fn tojson(value: Value, kwargs: Kwargs) -> Result<Value, minijinja::Error> {
    let indent: Option<usize> = kwargs.get("indent")?;
    let sort_keys: Option<bool> = kwargs.get("sort_keys")?;
    let separators: Option<Vec<String>> = kwargs.get("separators")?;
    kwargs.assert_all_used()?;
    let json = serde_json::to_value(&value)
        .map_err(|e| minijinja::Error::new(ErrorKind::InvalidOperation, format!("tojson: {e}")))?;
    let (item, key) = match separators.as_deref() {
        Some([item, key]) => (item.clone(), key.clone()),
        // Python's defaults: ", " without an indent, "," with one.
        _ => (
            if indent.is_some() { "," } else { ", " }.to_string(),
            ": ".to_string(),
        ),
    };
    let mut out = String::new();
    PyJson {
        indent,
        sort_keys: sort_keys.unwrap_or(false),
        item,
        key,
    }
    .write(&json, 0, &mut out);
    Ok(Value::from_safe_string(out))
}

struct PyJson {
    indent: Option<usize>,
    sort_keys: bool,
    item: String,
    key: String,
}

impl PyJson {
    fn newline(&self, depth: usize, out: &mut String) {
        if let Some(n) = self.indent {
            out.push('\n');
            out.push_str(&" ".repeat(n * depth));
        }
    }

    fn write(&self, v: &Json, depth: usize, out: &mut String) {
        match v {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(&n.to_string()),
            Json::String(s) => string(s, out),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Array(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(&self.item);
                    }
                    self.newline(depth + 1, out);
                    self.write(x, depth + 1, out);
                }
                self.newline(depth, out);
                out.push(']');
            }
            Json::Object(map) if map.is_empty() => out.push_str("{}"),
            Json::Object(map) => {
                let mut entries: Vec<(&String, &Json)> = map.iter().collect();
                if self.sort_keys {
                    entries.sort_by(|a, b| a.0.cmp(b.0));
                }
                out.push('{');
                for (i, (k, x)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        out.push_str(&self.item);
                    }
                    self.newline(depth + 1, out);
                    string(k, out);
                    out.push_str(&self.key);
                    self.write(x, depth + 1, out);
                }
                self.newline(depth, out);
                out.push('}');
            }
        }
    }
}

/// A JSON string as Python writes it with `ensure_ascii=False`.
fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(source: &str) -> ChatTemplate {
        let config = serde_json::json!({"chat_template": source, "eos_token": {"content": "</s>"}});
        ChatTemplate::from_tokenizer_config(&serde_json::to_vec(&config).unwrap())
            .unwrap()
            .unwrap()
    }

    #[test]
    fn tojson_writes_what_pythons_json_dumps_writes() {
        let t = template(
            "{{ x | tojson }}|{{ x | tojson(indent=2) }}|{{ {'b': 1, 'a': [true, none]} | tojson(sort_keys=true) }}",
        );
        let msgs = [ChatMessage {
            role: "user".into(),
            content: String::new(),
        }];
        let env = t.environment();
        let out = env
            .render_str(
                &t.source,
                minijinja::context! { x => Value::from(minijinja::value::Serde(serde_json::json!({"k": "<a & \"b\">\n☕", "n": [1, 2.5]}))), m => Value::from(minijinja::value::Serde(msgs)) },
            )
            .unwrap();
        assert_eq!(
            out,
            "{\"k\": \"<a & \\\"b\\\">\\n☕\", \"n\": [1, 2.5]}|{\n  \"k\": \"<a & \\\"b\\\">\\n☕\",\n  \"n\": [\n    1,\n    2.5\n  ]\n}|{\"a\": [true, null], \"b\": 1}"
        );
    }

    #[test]
    fn a_template_can_refuse_a_conversation_in_its_own_words() {
        let t = template("{% if messages[0].role != 'user' %}{{ raise_exception('Conversations must start with the user') }}{% endif %}ok");
        let assistant = [ChatMessage {
            role: "assistant".into(),
            content: "hi".into(),
        }];
        let e = t.render(&assistant, true).unwrap_err();
        assert!(
            e.to_string()
                .contains("Conversations must start with the user"),
            "{e}"
        );
    }

    #[test]
    fn a_base_model_has_no_template_and_a_broken_one_is_named_at_load() {
        assert_eq!(
            ChatTemplate::from_tokenizer_config(br#"{"eos_token": "<|endoftext|>"}"#).unwrap(),
            None
        );
        let e =
            ChatTemplate::from_tokenizer_config(br#"{"chat_template": "{% for m in messages %}"}"#)
                .unwrap_err();
        assert_eq!(e.file(), "tokenizer_config.json");
        assert!(e.to_string().contains("does not parse"), "{e}");
    }

    #[test]
    fn special_tokens_reach_the_template_as_text() {
        let t = template(
            "{{ eos_token }}{{ messages | length }}{{ '%s'|format(1) }}{{ 'ab'.upper() }}",
        );
        let one = [ChatMessage {
            role: "user".into(),
            content: "x".into(),
        }];
        assert_eq!(t.render(&one, false).unwrap(), "</s>11AB");
    }
}
