//! The PyO3 binding layer: `haidi._core`. One file per concern; the algorithms live
//! outside this folder and never see Python.

use pyo3::prelude::*;

mod analyze;
mod answer;
mod columns;
mod convert;
mod engine;
mod entry;
mod errors;
mod game;
mod hand;
mod interrupt;
mod kwcall;
mod learn;
mod lines;
mod many;
mod mcr;
mod reproduce;
mod result;
mod scheme;
mod score;
mod table;
mod vector;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("_MAX_ARRANGEMENTS", engine::MAX_ARRANGEMENTS)?;
    let hand_error = m.py().get_type::<errors::HandError>();
    errors::add_defaults(&hand_error)?;
    m.add("HandError", hand_error)?;
    m.add_class::<hand::PyHand>()?;
    m.add_class::<hand::PyMeld>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<score::PyScheme>()?;
    result::add(m)?;
    score::add_evaluate(m)?;
    m.add_class::<game::PyGame>()?;
    m.add_function(wrap_pyfunction!(game::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(game::game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(game::game_rules, m)?)?;
    m.add_function(wrap_pyfunction!(game::game_rule_fields, m)?)?;
    m.add_function(wrap_pyfunction!(game::audit_wins, m)?)?;
    m.add_class::<learn::PyActionSpace>()?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(learn::action_blocks, m)?)?;
    m.add_function(wrap_pyfunction!(learn::observation_versions, m)?)?;
    m.add_function(wrap_pyfunction!(score::wild_from_indicator, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::analyze_batch, m)?)?;
    m.add_function(wrap_pyfunction!(hand::tile_glyph, m)?)?;
    m.add_function(wrap_pyfunction!(hand::tile_names, m)?)?;
    mcr::add_evaluate(m)?;
    m.add_class::<mcr::PyMcrScorer>()?;
    m.add_function(wrap_pyfunction!(reproduce::reproduce_table, m)?)?;
    m.add_function(wrap_pyfunction!(reproduce::reproduce_published, m)?)?;
    m.add_function(wrap_pyfunction!(errors::spelling, m)?)?;
    Ok(())
}
