//! Makes the distance tables of `src/tables.rs` once, at build time, so that no call of
//! a fresh process waits for them (see `src/table_gen.rs` for what they hold).

#[allow(dead_code)]
#[path = "src/table_gen.rs"]
mod table_gen;

fn main() {
    println!("cargo:rerun-if-changed=src/table_gen.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (shape, file) in table_gen::Shape::ALL {
        let dist = table_gen::build(shape);
        if shape == table_gen::Shape::SUIT_PAST_FOUR || shape == table_gen::Shape::HONOURS_SIX {
            let needs = table_gen::needs(&dist, shape.kinds);
            let name = if shape.kinds == 9 { "suit_needs.bin" } else { "honours_needs.bin" };
            std::fs::write(out.join(name), needs).expect("the tables are written to OUT_DIR");
        }
        std::fs::write(out.join(file), dist).expect("the tables are written to OUT_DIR");
    }
}
