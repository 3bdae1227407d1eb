//! The page: one prompt, four decoding lanes side by side, the probability
//! table behind every token. The model runs in a web worker; this crate never
//! touches tensors.

mod app;
mod components;
mod format;
mod lane_config;
mod presets;
mod worker_link;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
