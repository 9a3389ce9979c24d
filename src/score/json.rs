//! A line of JSON read as a situation's items, for `haidi eval --jsonl`: the plain line
//! only, a JSON object of strings without escapes, integers, `true`, `false`, `null`
//! and lists of those, each key once. Its items go to the situation reader as a dict's
//! do ([`super::Reader`]); any other line (other JSON, or not JSON) is not read here, and
//! its caller reads it as Python does, with the messages of Python's reader.

use super::situation::Value;

/// Most items read from one line (a situation has a dozen keys at most).
const MAX_ITEMS: usize = 64;

/// The items of a plain JSON object, in order, or None for any other text.
pub fn object(line: &[u8]) -> Option<Vec<(&str, Value<'_>)>> {
    let text = std::str::from_utf8(line).ok()?;
    let mut p = Parser { text, at: 0 };
    p.space();
    p.eat(b'{')?;
    // Room for a situation's keys (MCR's lines give ten).
    let mut items: Vec<(&str, Value<'_>)> = Vec::with_capacity(16);
    // The signs of the keys read (see below).
    let mut seen = 0u64;
    p.space();
    if p.peek() == Some(b'}') {
        p.at += 1;
    } else {
        loop {
            p.space();
            let key = p.string()?;
            // A key met before is refused: one whose length and first byte no key had
            // is new without looking.
            let sign = 1u64 << ((key.len() * 7 + key.bytes().next().map_or(0, usize::from)) & 63);
            if items.len() == MAX_ITEMS || (seen & sign != 0 && items.iter().any(|(k, _)| *k == key)) {
                return None;
            }
            seen |= sign;
            p.space();
            p.eat(b':')?;
            p.space();
            let value = match p.peek()? {
                b'[' => {
                    p.at += 1;
                    let mut list = vec![];
                    p.space();
                    if p.peek() == Some(b']') {
                        p.at += 1;
                    } else {
                        loop {
                            p.space();
                            list.push(p.scalar()?.into_owned());
                            p.space();
                            match p.next()? {
                                b',' => {}
                                b']' => break,
                                _ => return None,
                            }
                        }
                    }
                    Value::List(list)
                }
                _ => p.scalar()?,
            };
            items.push((key, value));
            p.space();
            match p.next()? {
                b',' => {}
                b'}' => break,
                _ => return None,
            }
        }
    }
    p.space();
    (p.at == text.len()).then_some(items)
}

/// The bytes of `w` (little-endian) that end a plain string, by their top bits: a quote,
/// a backslash, a control character (below 0x20). A byte below `n` (`n` at most 0x80)
/// sets its top bit in `(w - n * ONES) & !w & HIGH`; a byte above one that does may set
/// it too (the subtraction's borrow), so only the lowest bit set is sure to be one.
fn ends(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |v: u64, n: u64| v.wrapping_sub(n * ONES) & !v & HIGH;
    below(w, 0x20) | below(w ^ (b'"' as u64 * ONES), 1) | below(w ^ (b'\\' as u64 * ONES), 1)
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        (self.next()? == b).then_some(())
    }

    /// JSON's white space.
    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// A string without escapes or control characters.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.at;
        // Eight bytes at a time, to the first that ends a string (a quote, a backslash, a
        // control character); past the text's end the bytes read are zeros, which end it.
        let mut at = start;
        loop {
            let rest = bytes.get(at..)?;
            let word = match rest.get(..8) {
                Some(eight) => u64::from_le_bytes(eight.try_into().ok()?),
                None => {
                    let mut eight = [0u8; 8];
                    eight[..rest.len()].copy_from_slice(rest);
                    u64::from_le_bytes(eight)
                }
            };
            let ending = ends(word);
            if ending != 0 {
                at += (ending.trailing_zeros() / 8) as usize;
                break;
            }
            at += 8;
        }
        self.at = at;
        // A quote ends it; anything else (or the text's end) is not a plain string.
        self.eat(b'"')?;
        // The quotes are ASCII, so the text between them is whole characters.
        Some(&self.text[start..at])
    }

    /// A string, an integer that fits 64 bits, true, false or null.
    fn scalar(&mut self) -> Option<Value<'a>> {
        let word = |p: &mut Self, w: &str, v: Value<'a>| {
            p.text[p.at..].starts_with(w).then(|| {
                p.at += w.len();
                v
            })
        };
        match self.peek()? {
            b'"' => self.string().map(Value::Str),
            b't' => word(self, "true", Value::Bool(true)),
            b'f' => word(self, "false", Value::Bool(false)),
            b'n' => word(self, "null", Value::None),
            b'-' | b'0'..=b'9' => {
                let start = self.at;
                if self.peek() == Some(b'-') {
                    self.at += 1;
                }
                let digits = self.text.as_bytes()[self.at..].iter().take_while(|b| b.is_ascii_digit()).count();
                // JSON writes no leading zero; a fraction or an exponent makes a float,
                // which is left to Python.
                let first = self.peek()?;
                if digits == 0 || (first == b'0' && digits > 1) {
                    return None;
                }
                self.at += digits;
                if matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
                    return None;
                }
                self.text[start..self.at].parse::<i64>().ok().map(Value::Int)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(line: &str) -> Option<Vec<String>> {
        object(line.as_bytes()).map(|items| items.iter().map(|(k, v)| format!("{k}={v:?}")).collect())
    }

    #[test]
    fn plain_objects_are_read() {
        let got = keys(r#" {"hand": "123m", "n": -12, "f": false, "w": ["5z", null], "x": []} "#).unwrap();
        assert_eq!(got.len(), 5);
        assert_eq!(keys("{}").unwrap().len(), 0);
        assert!(keys(r#"{"hand":"中"}"#).is_some());
    }

    #[test]
    fn the_bytes_ending_a_string_are_found_at_every_place() {
        let ending = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
        for b in 0..=255u8 {
            for i in 0..8 {
                let mut eight = *b"abcdefgh";
                eight[i] = b;
                let found = ends(u64::from_le_bytes(eight));
                assert_eq!(found != 0, ending(b), "{b:#x} at {i}");
                if ending(b) {
                    assert_eq!(found.trailing_zeros() / 8, i as u32, "{b:#x} at {i}");
                }
            }
        }
        // The first of two, whatever is after it.
        let mut rng = crate::game::rng::Rng::new(7);
        for _ in 0..100_000 {
            let eight = rng.next_u64().to_le_bytes();
            let first = eight.iter().position(|&b| ending(b));
            let found = ends(u64::from_le_bytes(eight));
            assert_eq!(first, (found != 0).then(|| (found.trailing_zeros() / 8) as usize), "{eight:?}");
        }
        // Strings of every length to 20, ended or broken at every place.
        for len in 0..20 {
            let plain = "x".repeat(len);
            assert!(keys(&format!(r#"{{"{plain}": "{plain}"}}"#)).is_some(), "{len}");
            for at in 0..len {
                let mut broken = plain.clone().into_bytes();
                broken[at] = b'\\';
                let broken = String::from_utf8(broken).unwrap();
                assert!(keys(&format!(r#"{{"{broken}": 1}}"#)).is_none(), "{len} {at}");
                assert!(keys(&format!(r#"{{"a": "{broken}"}}"#)).is_none(), "{len} {at}");
            }
            // Unterminated at the text's end.
            assert!(object(format!(r#"{{"a": "{plain}"#).as_bytes()).is_none(), "{len}");
        }
    }

    #[test]
    fn anything_else_is_left_to_python() {
        for line in [
            "",
            "[]",
            "{",
            r#"{"a": 1,}"#,
            r#"{"a": 1} x"#,
            r#"{"a": "\u0041"}"#,
            r#"{"a": 1.5}"#,
            r#"{"a": 1e3}"#,
            r#"{"a": 01}"#,
            r#"{"a": -}"#,
            r#"{"a": 99999999999999999999}"#,
            r#"{"a": [[1]]}"#,
            r#"{"a": {"b": 1}}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": tru}"#,
            "{\"a\": \"\t\"}",
            "{\"a\"\u{0b}: 1}",
        ] {
            assert!(keys(line).is_none(), "{line:?}");
        }
        assert!(object(b"{\"a\": \"\xff\"}").is_none());
    }
}
