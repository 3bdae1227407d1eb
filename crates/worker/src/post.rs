use ntl_protocol::FromWorker;

/// Sends one protocol message to the page.
pub fn post(msg: &FromWorker) {
    let _ = super::scope().post_message(&msg.to_json().into());
}
