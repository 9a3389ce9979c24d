#![no_main]
libfuzzer_sys::fuzz_target!(init: haidi_fuzz::warm_up(), |data: &[u8]| haidi_fuzz::scheme(data));
