//! `haidi._core.reproduce_table` and `reproduce_published`: the exhaustive enumeration
//! behind `haidi reproduce`, as plain dicts for `haidi.reproduce`.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::errors::{hand_error, IntoPy};
use crate::reproduce::{self, Enumerator, Listed, Table, TileSet, PUBLISHED_TABLES};

fn tile_set(honours: bool) -> TileSet {
    if honours {
        TileSet::Honours
    } else {
        TileSet::OneSuit
    }
}

fn listed<'py>(py: Python<'py>, set: TileSet, hands: &[Listed], labels: bool) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for l in hands {
        let d = PyDict::new(py);
        d.set_item("hand", reproduce::notation(set, l))?;
        d.set_item("waits", reproduce::kinds_notation(l.waits()))?;
        d.set_item("standard_waits", reproduce::kinds_notation(l.standard_waits))?;
        d.set_item("pairs_waits", reproduce::kinds_notation(l.pairs_waits))?;
        d.set_item("kongs", l.kongs.count_ones())?;
        if labels {
            let label = if l.waits().count_ones() == 9 { reproduce::nine_wait_label(l) } else { "" };
            d.set_item("label", label)?;
        }
        out.append(d)?;
    }
    Ok(out)
}

fn table_dict<'py>(py: Python<'py>, t: &Table, labels: bool) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("tiles", t.tiles)?;
    d.set_item("set", t.set.name())?;
    let values = PyDict::new(py);
    for (id, v) in reproduce::table_figures(t) {
        values.set_item(id, v)?;
    }
    d.set_item("values", values)?;
    d.set_item("waits_any", &t.ready.waits_any[..=t.set.kinds()])?;
    d.set_item("waits_standard", &t.ready.waits_standard[..=t.set.kinds()])?;
    d.set_item("every_tile_wins", listed(py, t.set, &t.ready.every_tile_wins_hands, labels)?)?;
    d.set_item("every_tile_wins_with_kongs", listed(py, t.set, &t.kongs.every_tile_wins_hands, false)?)?;
    d.set_item("quads_only", listed(py, t.set, &t.ready.quads_only, false)?)?;
    Ok(d)
}

fn size(py: Python<'_>, tiles: &Bound<'_, PyAny>, set: TileSet) -> PyResult<usize> {
    let shown = super::convert::shown(tiles);
    // An int or a numpy integer scalar, as every number is read.
    if !super::convert::is_integer(tiles) {
        return Err(hand_error(py, format!("a hand size must be an int, not {shown}")));
    }
    if !tiles.gt(0)? {
        return Err(hand_error(py, format!("a hand size must be positive, not {shown}")));
    }
    // An int past a machine word is as much too large as the word's largest.
    let n = tiles.extract::<usize>().unwrap_or(usize::MAX);
    reproduce::check_size(n, set).map_err(|e| hand_error(py, e.to_string().replace(&n.to_string(), &shown)))?;
    Ok(n)
}

/// Every figure of one hand size: `tiles`-tile hands (ready), `tiles + 1` (complete) and
/// the 含杠 hands, over one suit or (`honours`) the seven honours.
#[pyfunction]
#[pyo3(signature = (tiles, honours = None))]
pub fn reproduce_table<'py>(
    py: Python<'py>,
    tiles: &Bound<'py, PyAny>,
    honours: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let honours = super::convert::flag_arg(honours, "honours", false)?;
    let set = tile_set(honours);
    let n = size(py, tiles, set)?;
    let t = py.detach(|| reproduce::table(n, set)).py_err(py)?;
    table_dict(py, &t, false)
}

/// Every published figure of 附二 to 附五 as haidi computes it, keyed by figure id, with
/// the four tables behind them. `progress(message)` is called before each table.
#[pyfunction]
#[pyo3(signature = (progress = None))]
pub fn reproduce_published<'py>(py: Python<'py>, progress: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyDict>> {
    let mut tables = Vec::with_capacity(PUBLISHED_TABLES.len());
    let mut enumerator = Enumerator::default();
    for (n, set) in PUBLISHED_TABLES {
        if let Some(p) = progress {
            p.call1((format!("{n}-tile {} hands", set.name().replace('_', "-")),))?;
        }
        tables.push(py.detach(|| enumerator.table(n, set)).py_err(py)?);
    }
    let tables: [Table; 4] =
        tables.try_into().map_err(|_| hand_error(py, "internal: four published tables expected"))?;
    let d = PyDict::new(py);
    let values = PyDict::new(py);
    for (id, v) in reproduce::published_figures(&tables) {
        values.set_item(id, v)?;
    }
    d.set_item("values", values)?;
    let list = PyList::empty(py);
    for t in &tables {
        list.append(table_dict(py, t, t.tiles == 16 && t.set == TileSet::OneSuit)?)?;
    }
    d.set_item("tables", list)?;
    Ok(d)
}
