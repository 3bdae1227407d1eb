//! The page's views. They receive state and callbacks; they never hold model data of their own.

pub mod cached_models;
pub mod chat_editor;
pub mod compare_view;
pub mod config_editor;
pub mod distribution;
pub mod divergence_note;
pub mod draft_field;
pub mod handout;
pub mod header;
pub mod help;
pub mod lane_buttons;
pub mod lane_column;
pub mod lane_text;
pub mod lesson_panel;
pub mod lesson_player;
pub mod lesson_printed;
pub mod lesson_writer;
pub mod model_panel;
pub mod model_picker;
pub mod plots;
pub mod prompt_row;
pub mod prose;
pub mod question_panel;
pub mod sandbox_panel;
pub mod step_grid;
pub mod token_inspector;
