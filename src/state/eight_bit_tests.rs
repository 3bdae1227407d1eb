//! 8-bit at load: the switch in *Change model* reloads a safetensors model
//! in use as Q8_0, leaves a `.gguf` file alone, and the memory the page
//! warns about is the memory the weights will take.

use super::memory_need::MemoryNeed;
use super::model::tests::info;
use super::model::ModelState;
use ntl_protocol::{LoadWeights, ModelInfo, ModelSource, ToWorker};

fn bundled() -> ModelSource {
    ModelSource::Bundled {
        base: "./models/kjv-gpt2".into(),
    }
}

fn ready(dtype: &str) -> ModelState {
    let mut m = ModelState::new(Some("bundled"), false);
    m.reload();
    let source = m.source.clone().expect("the bundled model");
    m.loaded(
        ModelInfo {
            storage_dtype: dtype.into(),
            ..info()
        },
        source,
        10.0,
        1,
    );
    m
}

#[test]
fn switching_eight_bits_on_reloads_the_safetensors_model_in_use_as_q8_0() {
    let mut m = ready("F32");
    assert_eq!(
        m.set_eight_bit(true),
        Some(ToWorker::Load {
            source: bundled(),
            weights: LoadWeights::Q8_0,
            heads: None
        })
    );
    // Asked again, nothing more to do; and every later load keeps it.
    assert_eq!(m.set_eight_bit(true), None);
    m.loaded(
        ModelInfo {
            storage_dtype: "Q8_0 (quantized at load from F32)".into(),
            ..info()
        },
        bundled(),
        10.0,
        1,
    );
    let again = m.load(bundled());
    assert!(matches!(
        again,
        ToWorker::Load {
            weights: LoadWeights::Q8_0,
            ..
        }
    ));
    // Off again: full precision, HF-exact.
    m.loaded(info(), bundled(), 10.0, 1);
    assert_eq!(
        m.set_eight_bit(false),
        Some(ToWorker::Load {
            source: bundled(),
            weights: LoadWeights::AsStored,
            heads: None
        })
    );
}

#[test]
fn a_gguf_file_in_use_keeps_its_own_types_and_is_not_loaded_again() {
    let mut m = ready("GGUF Q4_K_M");
    assert_eq!(m.set_eight_bit(true), None);
    assert!(m.eight_bit, "the next safetensors model takes it");
}

#[test]
fn eight_bits_keep_a_16_bit_file_s_weights_in_17_32nds_of_its_bytes() {
    let need = MemoryNeed::estimate(988_097_824, None);
    let q8 = need.quantized_to_q8_0();
    assert_eq!(q8.weights, 988_097_824 / 32 * 17);
    assert_eq!(q8.download, need.download, "the file downloads whole");
    assert!(q8.in_wasm() < need.in_wasm() * 6 / 10);
}

#[test]
fn a_share_link_made_with_eight_bits_loads_its_model_in_eight_bits() {
    use super::{Command, Page, Requested};
    use ntl_protocol::{share, FromWorker};
    let mut page = super::tests::ready_page(Requested::default());
    let _ = page.set_eight_bit(true);
    let link = page.shared();
    assert_eq!(link.weights, LoadWeights::Q8_0);
    let opened = share::decode(&share::encode(&link)).unwrap();
    let requested = Requested {
        shared: Some(Ok(opened)),
        ..Requested::default()
    };
    let (mut page, _) = Page::new(requested, crate::worker_choice::Abilities::default());
    page.worker_spawned(Ok(()));
    let out = page.on_worker(FromWorker::Ready, 0.0);
    assert!(
        out.commands.iter().any(|c| matches!(
            c,
            Command::Send(ToWorker::Load {
                weights: LoadWeights::Q8_0,
                ..
            })
        )),
        "{out:?}"
    );
    // A link made at full precision says nothing of it, and loads so.
    let plain = super::tests::ready_page(Requested::default()).shared();
    assert_eq!(plain.weights, LoadWeights::AsStored);
    assert!(!serde_json::to_string(&plain).unwrap().contains("weights"));
}
