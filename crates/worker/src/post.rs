use ntl_protocol::FromWorker;
use std::cell::RefCell;

thread_local! {
    /// The lane model loading now: its downloads' progress is that model's,
    /// not the page's (the worker runs one load at a time).
    static LANE_LOAD: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Sends one protocol message to the page.
pub fn post(msg: &FromWorker) {
    let lane_load = LANE_LOAD.with(|l| l.borrow().clone());
    let msg = match (lane_load, msg) {
        (
            Some(name),
            FromWorker::Progress {
                file,
                loaded,
                total,
            },
        ) => &FromWorker::LaneModelProgress {
            name,
            file: file.clone(),
            loaded: *loaded,
            total: *total,
        },
        // A lane model's wait keeps its last progress on the page; the
        // page's model's status must not change under it.
        (Some(_), FromWorker::Retrying { .. } | FromWorker::Waiting { .. }) => return,
        _ => msg,
    };
    let _ = super::scope().post_message(&msg.to_json().into());
}

/// Downloads from here on belong to lane model `name` (`None`: the page's).
pub fn lane_load(name: Option<String>) {
    LANE_LOAD.with(|l| *l.borrow_mut() = name);
}
