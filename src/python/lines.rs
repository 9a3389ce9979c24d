//! `eval --jsonl`'s lines, for every ruleset: each plain line read, scored and answered
//! with its result's JSON text on every core, the GIL released; the few lines that need
//! Python (a line that is not a plain object, options, `explain`) left to the caller.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use super::answer;
use crate::error::Spelling;
use crate::notation::Format;

/// A line as a scorer answers it.
pub enum Line {
    /// The result's JSON text.
    Json(Vec<u8>),
    /// The reader's message where it refuses the situation.
    Refused(String),
    /// Not read here: the caller reads it as a dict.
    Unread,
}

/// A scorer of lines: reads one plain JSON line and answers it, without Python.
pub trait LineScorer: Sync {
    fn line(&self, common: &answer::Common, line: &[u8], format: Format) -> Line;
}

/// Lines are read and answered this many at a time, between which Ctrl-C is heard.
const RUN: usize = 4096;

/// Answers `lines` (bytes; anything else is left to the caller): a list of each line's
/// result JSON text, the command's error answer `{"error": message, "line": N, "input":
/// line}` where the reader refuses it (N counted from `first_line`), or None where the
/// caller reads it; and how many are errors. Messages are spelt as on the calling thread.
pub fn evaluate_lines<'py>(
    py: Python<'py>,
    scorer: &impl LineScorer,
    lines: &Bound<'py, PyList>,
    format: Format,
    first_line: u64,
) -> PyResult<(Bound<'py, PyList>, usize)> {
    let common = answer::common(py);
    let spelling = Spelling::current();
    let items: Vec<Bound<'py, PyAny>> = lines.iter().collect();
    let texts: Vec<Option<&[u8]>> = items.iter().map(|l| l.cast::<PyBytes>().ok().map(|b| b.as_bytes())).collect();
    let out = PyList::empty(py);
    let mut failed = 0;
    for start in (0..texts.len()).step_by(RUN) {
        let run = &texts[start..(start + RUN).min(texts.len())];
        let answers = py.detach(|| {
            crate::parallel::map(run.len(), 64, 16, |i| {
                let Some(text) = run[i] else { return Line::Unread };
                let before = spelling.set();
                let answer = scorer.line(common, text, format);
                before.set();
                answer
            })
        });
        for (i, a) in answers.into_iter().enumerate() {
            match a {
                Line::Json(json) => out.append(PyBytes::new(py, &json))?,
                Line::Refused(e) => {
                    failed += 1;
                    out.append(PyBytes::new(py, &refusal(&e, run[i].unwrap_or_default(), first_line, start + i)))?;
                }
                Line::Unread => out.append(py.None())?,
            }
        }
        py.check_signals()?;
    }
    Ok((out, failed))
}

/// The command's answer to a refused line: `{"error": message, "line": N, "input": line}`.
fn refusal(message: &str, line: &[u8], first_line: u64, at: usize) -> Vec<u8> {
    // A refused line is a plain JSON object, so UTF-8 with only JSON's white space around
    // it: the text Python's strip() leaves.
    let text = std::str::from_utf8(line).unwrap_or_default().trim_matches([' ', '\t', '\n', '\r']);
    let mut json = Vec::with_capacity(text.len() + message.len() + 40);
    json.extend_from_slice(b"{\"error\":");
    answer::string(&mut json, message);
    json.extend_from_slice(format!(",\"line\":{},\"input\":", first_line.saturating_add(at as u64)).as_bytes());
    answer::string(&mut json, text);
    json.push(b'}');
    json
}
