//! The built-in lessons are the files under `www/lessons/` (the same files
//! the site serves): this writes the list the page compiles in, in the
//! order of `www/lessons/index.json`, so a new lesson is a file and an
//! index entry, never Rust.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/lessons");
    let index_path = dir.join("index.json");
    println!("cargo:rerun-if-changed={}", index_path.display());
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&index_path).expect("www/lessons/index.json"))
            .expect("www/lessons/index.json is JSON");
    let files = index["lessons"]
        .as_array()
        .expect("index.json: lessons")
        .iter()
        .map(|entry| {
            let file = entry["file"].as_str().expect("index.json: lessons[].file");
            let path = dir.join(file);
            assert!(path.exists(), "index.json lists {file}, which is missing");
            (file.to_string(), path)
        });
    write_included("built_in_lessons.rs", files);
    bundled_size();
    locales();
}

/// The message catalogs under `www/locales/` (`<tag>.ftl`), English first:
/// a new language is a file, never Rust.
fn locales() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/locales");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut tags: Vec<String> = std::fs::read_dir(&dir)
        .expect("www/locales")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".ftl").map(str::to_string)
        })
        .collect();
    tags.sort_by_key(|t| (t != "en", t.clone()));
    assert_eq!(
        tags.first().map(String::as_str),
        Some("en"),
        "www/locales/en.ftl"
    );
    let files = tags.into_iter().map(|tag| {
        let path = dir.join(format!("{tag}.ftl"));
        (tag, path)
    });
    write_included("locales.rs", files);
}

/// Writes `OUT_DIR/<name>`: a `&[(name, text)]` of the files, each compiled
/// in with `include_str!` and watched for changes.
fn write_included(name: &str, files: impl Iterator<Item = (String, std::path::PathBuf)>) {
    let mut out = String::from("&[\n");
    for (key, path) in files {
        println!("cargo:rerun-if-changed={}", path.display());
        out.push_str(&format!(
            "    ({key:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("]\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join(name);
    std::fs::write(dest, out).unwrap();
}

/// What the bundled model downloads (the files the worker fetches), so an
/// embed can say it before anything is fetched.
fn bundled_size() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/models/kjv-gpt2");
    let mut bytes = 0;
    for file in ["config.json", "model.safetensors", "tokenizer.json"] {
        let path = dir.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        bytes += std::fs::metadata(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .len();
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("bundled_bytes.rs");
    std::fs::write(dest, format!("{bytes}")).unwrap();
}
