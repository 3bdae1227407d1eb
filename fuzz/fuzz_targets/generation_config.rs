//! The generation-config parser, validator and warnings on arbitrary text,
//! and a lane's knobs (what links and lessons carry) read back as written.
#![no_main]
use libfuzzer_sys::fuzz_target;
use ntl_decoding::GenerationConfig;

fuzz_target!(|text: &str| {
    match GenerationConfig::from_json(text) {
        Ok(c) => {
            let _ = ntl_decoding::warnings::config_warnings(&c);
            if let Ok(v) = c.validate() {
                let _ = v.effective();
                let _ = v.new_token_budget(1000);
            }
            // What we write reads back as the same config.
            assert_eq!(
                GenerationConfig::from_json(&c.to_json()).expect("own output parses"),
                c
            );
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    if let Ok(lane) = ntl_decoding::LaneKnobs::from_json(text) {
        assert_eq!(
            ntl_decoding::LaneKnobs::from_value(lane.to_value()).expect("own output parses"),
            lane
        );
    }
});
