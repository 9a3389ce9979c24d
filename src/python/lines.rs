//! `eval --jsonl`'s lines, for every ruleset: a block of plain lines read, scored and
//! answered with their results' JSON text on every core, the GIL released, and given back
//! as one block of answer lines; the few lines that need Python (a line that is not a
//! plain object, options, `explain`) left to the caller.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use super::answer;
use crate::error::Spelling;
use crate::notation::Format;

/// How a scorer answered a line.
pub enum Line {
    /// The result's JSON text is written.
    Written,
    /// The reader's message where it refuses the situation.
    Refused(String),
    /// Not read here: the caller reads it as a dict.
    Unread,
}

/// A scorer of lines: reads one plain JSON line and answers it, without Python.
pub trait LineScorer: Sync {
    /// Answers `line`: its result's JSON text appended to `out` (`Line::Written`), or
    /// `out` left as it was.
    fn line(&self, common: &answer::Common, line: &[u8], format: Format, out: &mut Vec<u8>) -> Line;
}

/// Lines are read and answered this many at a time, between which Ctrl-C is heard.
const RUN: usize = 4096;
/// A thread answers this many lines at a time, into one buffer.
const PIECE: usize = 32;

/// A piece's answers: their text, each line's followed by `\n`, where each ends, and
/// which lines are left to the caller.
struct Piece {
    text: Vec<u8>,
    ends: Vec<usize>,
    unread: bool,
    failed: usize,
}

/// Answers `block`, lines of JSON separated by `\n`: the answer lines as one bytes
/// object (each line's result JSON text, or the command's error answer `{"error":
/// message, "line": N, "input": line}` where the reader refuses it, N counted from
/// `first_line`, each followed by `\n`); or, where some line is left to the caller, a
/// list of each line's answer (without its `\n`), None for the lines the caller reads.
/// With it, how many lines are errors. Messages are spelt as on the calling thread.
pub fn evaluate_lines<'py>(
    py: Python<'py>,
    scorer: &impl LineScorer,
    block: &Bound<'py, PyAny>,
    format: Format,
    first_line: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, usize)> {
    // The number of the first line (1 where not given): an int, as every count is read.
    let first_line = match first_line.filter(|o| !o.is_none()) {
        Some(n) => super::convert::count(n, "first_line", i64::MAX as u64)?,
        None => 1,
    };
    let Ok(block) = block.cast::<PyBytes>() else {
        let name = block.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(super::errors::hand_error(py, format!("lines: expected bytes, got {name}")));
    };
    let common = answer::common(py);
    let spelling = Spelling::current();
    let lines: Vec<&[u8]> = block.as_bytes().split(|&b| b == b'\n').collect();
    let mut pieces: Vec<Piece> = Vec::with_capacity(lines.len().div_ceil(PIECE));
    for start in (0..lines.len()).step_by(RUN) {
        let run = &lines[start..(start + RUN).min(lines.len())];
        let answered = py.detach(|| {
            crate::parallel::map(run.len().div_ceil(PIECE), 2, 1, |p| {
                let before = spelling.set();
                let at = p * PIECE;
                let these = &run[at..(at + PIECE).min(run.len())];
                let mut piece = Piece {
                    text: Vec::with_capacity(these.len() * answer::JSON_ROOM),
                    ends: Vec::with_capacity(these.len()),
                    unread: false,
                    failed: 0,
                };
                for (i, line) in these.iter().enumerate() {
                    match scorer.line(common, line, format, &mut piece.text) {
                        Line::Written => {}
                        Line::Refused(e) => {
                            piece.failed += 1;
                            refusal(&mut piece.text, &e, line, first_line, start + at + i);
                        }
                        Line::Unread => piece.unread = true,
                    }
                    piece.text.push(b'\n');
                    piece.ends.push(piece.text.len());
                }
                before.set();
                piece
            })
        });
        pieces.extend(answered);
        py.check_signals()?;
    }
    let failed = pieces.iter().map(|p| p.failed).sum();
    if !pieces.iter().any(|p| p.unread) {
        let size = pieces.iter().map(|p| p.text.len()).sum();
        let all = PyBytes::new_with(py, size, |buf| {
            let mut at = 0;
            for p in &pieces {
                buf[at..at + p.text.len()].copy_from_slice(&p.text);
                at += p.text.len();
            }
            Ok(())
        })?;
        return Ok((all.into_any(), failed));
    }
    // Some line is the caller's: each line's answer apart, None for the unanswered (an
    // empty answer: every answer written holds at least `{}`).
    let out = PyList::empty(py);
    for p in &pieces {
        let mut from = 0;
        for &end in &p.ends {
            match &p.text[from..end - 1] {
                b"" => out.append(py.None())?,
                text => out.append(PyBytes::new(py, text))?,
            }
            from = end;
        }
    }
    Ok((out.into_any(), failed))
}

/// The command's answer to a refused line: `{"error": message, "line": N, "input": line}`.
fn refusal(json: &mut Vec<u8>, message: &str, line: &[u8], first_line: u64, at: usize) {
    // A refused line is a plain JSON object, so UTF-8 with only JSON's white space around
    // it: the text Python's strip() leaves.
    let text = std::str::from_utf8(line).unwrap_or_default().trim_matches([' ', '\t', '\n', '\r']);
    json.extend_from_slice(b"{\"error\":");
    answer::string(json, message);
    json.extend_from_slice(format!(",\"line\":{},\"input\":", first_line.saturating_add(at as u64)).as_bytes());
    answer::string(json, text);
    json.push(b'}');
}
