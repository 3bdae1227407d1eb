//! A sample tree in the worker: grown a pass at a time, yielding between
//! passes so a Cancel (or a new run) is read, with its progress posted.

use crate::{memory_bytes, now_ms, post, run_failed, yield_to_event_loop, State};
use ntl_engine::{Engine, TreeInput};
use ntl_protocol::{FromWorker, TreeRequest};
use std::rc::Rc;

pub(crate) async fn grow(
    state: &State,
    engine: Rc<Engine>,
    run_id: u64,
    request: Box<TreeRequest>,
) {
    let started = now_ms();
    let request = *request;
    let input = TreeInput {
        prompt: request.prompt,
        prompt_ids: request.prompt_ids,
        lane: request.lane,
        samples: request.samples,
        tokens: request.tokens,
    };
    let prepared = match engine.prepare_tree(input) {
        Ok(p) => p,
        Err(e) => return post(&run_failed(run_id, e)),
    };
    let mut run = match engine.start_tree(&prepared) {
        Ok(r) => r,
        Err(e) => return post(&run_failed(run_id, e)),
    };
    loop {
        let p = run.progress();
        post(&FromWorker::TreeGrowing {
            run_id,
            level: p.level,
            levels: p.levels,
            rows: p.rows,
            fraction: p.fraction,
        });
        yield_to_event_loop().await;
        if state.current_run.get() != run_id {
            run.cancel();
        }
        match run.advance() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return post(&run_failed(run_id, e.into())),
        }
    }
    post(&FromWorker::TreeGrown {
        run_id,
        document: Box::new(prepared.document(run)),
        ms: now_ms() - started,
        memory_bytes: memory_bytes(),
    });
}
