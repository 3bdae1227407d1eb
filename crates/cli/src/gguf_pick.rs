//! `gguf-pick`: which `.gguf` file of a hub repo a name picks, by the page's
//! own rule (`ntl_protocol::hub_gguf`), for `scripts/add-model.mjs`.
//!
//! `gguf-pick [SELECTOR] < TREE.json`
//!
//! Reads the hub's tree listing (`/api/models/OWNER/NAME/tree/main`) on
//! stdin; SELECTOR is a quant tag (`Q8_0`) or a file name, none for the
//! page's default (the only file, else Q4_K_M). Prints
//! `{"file": NAME, "bytes": N, "runs_here": BOOL}`, or the reason and exit 2.

use ntl_protocol::hub_gguf::{parse_listing, pick};
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let sel = std::env::args().nth(1);
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("gguf-pick: reading the listing: {e}");
        return ExitCode::from(2);
    }
    let listing = match parse_listing(&bytes) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("gguf-pick: {e}");
            return ExitCode::from(2);
        }
    };
    match pick(&listing, sel.as_deref()) {
        Ok(f) => {
            let out =
                serde_json::json!({"file": f.name, "bytes": f.bytes, "runs_here": f.runs_here()});
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gguf-pick: {e}");
            ExitCode::from(2)
        }
    }
}
