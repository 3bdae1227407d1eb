use super::choose::choose;
use super::*;
use fluent_syntax::ast;
use knobs::{HF_HELP, LLAMA_HELP, TUTORIAL_HELP};
use ntl_decoding::llama_cpp::knob::LlamaCppKnob;
use ntl_decoding::Knob;
use std::collections::{BTreeMap, BTreeSet};

/// Each message's id and the variables it uses, per catalog.
fn messages(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let resource = fluent_syntax::parser::parse(text).expect("the catalog parses without errors");
    let mut out = BTreeMap::new();
    for entry in resource.body {
        if let ast::Entry::Message(m) = entry {
            let mut vars = BTreeSet::new();
            if let Some(p) = &m.value {
                variables(p, &mut vars);
            }
            out.insert(m.id.name.to_string(), vars);
        }
    }
    out
}

fn variables(p: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
    for el in &p.elements {
        if let ast::PatternElement::Placeable { expression } = el {
            expression_vars(expression, out);
        }
    }
}

fn expression_vars(e: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
    match e {
        ast::Expression::Select { selector, variants } => {
            inline_vars(selector, out);
            for v in variants {
                variables(&v.value, out);
            }
        }
        ast::Expression::Inline(i) => inline_vars(i, out),
    }
}

fn inline_vars(i: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match i {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        ast::InlineExpression::Placeable { expression } => expression_vars(expression, out),
        _ => {}
    }
}

#[test]
fn every_catalog_has_every_english_message_with_the_same_variables_and_no_other() {
    let english = messages(CATALOGS[0].1);
    assert!(english.len() > 20);
    for &(tag, text) in &CATALOGS[1..] {
        let other = messages(text);
        let missing: Vec<_> = english.keys().filter(|k| !other.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{tag} lacks {missing:?}");
        let extra: Vec<_> = other.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(
            extra.is_empty(),
            "{tag} has messages English lacks: {extra:?}"
        );
        for (id, vars) in &english {
            assert_eq!(&other[id], vars, "{tag}: `{id}` uses other variables");
        }
    }
}

/// Every message is asked for somewhere in the page's source, by its id in
/// quotes (a message no code asks for is a translator's wasted work).
#[test]
fn every_message_is_used_by_the_page() {
    let mut source = String::new();
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                source += &std::fs::read_to_string(path).unwrap();
            }
        }
    }
    for id in messages(CATALOGS[0].1).keys() {
        if id.starts_with(HF_HELP) || id.starts_with(LLAMA_HELP) || id.starts_with(TUTORIAL_HELP) {
            continue; // asked for by knob name: the next test
        }
        assert!(source.contains(&format!("\"{id}\"")), "`{id}` is not used");
    }
}

/// Every knob's help is in every catalog, and every help message names a knob.
#[test]
fn every_catalog_explains_every_knob_of_both_tables_and_no_other() {
    let mut names: BTreeSet<String> = Knob::ALL
        .iter()
        .map(|k| format!("{HF_HELP}{}", k.name()))
        .collect();
    names.extend(
        LlamaCppKnob::ALL
            .iter()
            .map(|k| format!("{LLAMA_HELP}{}", k.name())),
    );
    let tutorial: BTreeSet<String> = ntl_decoding::tutorial::config::FIELDS
        .iter()
        .map(|f| format!("{TUTORIAL_HELP}{f}"))
        .collect();
    for (tag, text) in CATALOGS {
        let helps: BTreeSet<String> = messages(text)
            .into_keys()
            .filter(|id| id.starts_with(HF_HELP) || id.starts_with(LLAMA_HELP))
            .collect();
        assert_eq!(helps, names, "{tag}");
        let helps: BTreeSet<String> = messages(text)
            .into_keys()
            .filter(|id| id.starts_with(TUTORIAL_HELP))
            .collect();
        assert_eq!(helps, tutorial, "{tag}: one help per tutorial field");
    }
    let zh = I18n::new("zh-CN");
    assert_eq!(zh.hf_help(Knob::TopK), "只保留概率最高的 k 个词元");
    assert!(zh
        .hf_knob_title(Knob::TopP)
        .starts_with("top_p（logits 调整）："));
}

#[test]
fn a_message_speaks_the_language_and_english_fills_a_gap() {
    let zh = I18n::new("zh-CN");
    assert_eq!(zh.tag(), "zh-CN");
    assert_eq!(zh.t("run"), "运行");
    assert_eq!(I18n::default().t("run"), "Run");
    assert_eq!(I18n::new("xx").tag(), "en", "an unknown tag speaks English");
    assert_eq!(zh.t("no-such-message"), "no-such-message");
}

#[test]
fn numbers_choose_the_plural_form() {
    let en = I18n::default();
    let one = en.t_with("prompt-cropped", &[("tokens", 1.into())]);
    let many = en.t_with("prompt-cropped", &[("tokens", 12.into())]);
    assert!(one.contains("its first token was"), "{one}");
    assert!(many.contains("its first 12 tokens were"), "{many}");
    let zh = I18n::new("zh-CN").t_with("prompt-cropped", &[("tokens", 12.into())]);
    assert!(zh.contains("前 12 个词元"), "{zh}");
}

#[test]
fn the_language_comes_from_the_link_then_the_readers_choice_then_the_browser() {
    let browser = |langs: &[&str]| langs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(choose(Some("zh-CN"), Some("en"), &[]), "zh-CN");
    assert_eq!(choose(Some("zh-cn"), None, &[]), "zh-CN", "case aside");
    assert_eq!(
        choose(Some("klingon"), Some("zh-CN"), &browser(&["zh-CN"])),
        "en",
        "an unknown ?lang= is English, silently"
    );
    assert_eq!(choose(None, Some("zh-CN"), &browser(&["en-US"])), "zh-CN");
    assert_eq!(
        choose(None, None, &browser(&["fr-FR", "zh-TW", "en"])),
        "zh-CN"
    );
    assert_eq!(choose(None, None, &browser(&["en-GB"])), "en");
    assert_eq!(choose(None, None, &[]), "en");
}

#[test]
fn the_picker_lists_each_language_by_its_own_name() {
    let names = languages();
    assert_eq!(names[0], ("en", "English".to_string()));
    assert!(names.contains(&("zh-CN", "简体中文".to_string())));
}

#[test]
fn lanes_are_listed_in_each_languages_own_way() {
    let en = I18n::new("en");
    assert_eq!(en.lane_list(&[1, 3]), "lanes 2 and 4");
    assert_eq!(en.lane_list(&[0, 1, 3]), "lanes 1, 2 and 4");
    assert_eq!(en.lane_list(&[2]), "lane 3");
    assert_eq!(en.lane_list(&[]), "");
    let zh = I18n::new("zh-CN");
    assert_eq!(zh.lane_list(&[0, 1, 3]), "通道 1、2 和 4");
    assert_eq!(zh.lane_list(&[2]), "通道 3");
}
