//! The page: one prompt, four decoding lanes side by side, the probability
//! table behind every token. The model runs in a web worker; this crate never
//! touches tensors.

mod app;
mod compare;
mod components;
mod download;
mod export;
mod format;
mod i18n;
mod lane_config;
mod lane_result;
mod lanes;
mod lesson_check;
mod lesson_package;
mod lessons;
mod model_cache;
mod model_files;
mod page_error;
mod page_url;
mod rc_eq;
mod said;
mod state;
mod text_divergence;
mod theme;
mod token_bytes;
mod tree_layout;
mod watermark_check;
mod worker_choice;
mod worker_link;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
