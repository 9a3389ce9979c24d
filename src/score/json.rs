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
    let mut items: Vec<(&str, Value<'_>)> = Vec::with_capacity(8);
    p.space();
    if p.peek() == Some(b'}') {
        p.at += 1;
    } else {
        loop {
            p.space();
            let key = p.string()?;
            if items.len() == MAX_ITEMS || items.iter().any(|(k, _)| *k == key) {
                return None;
            }
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
        let start = self.at;
        let len = self.text.as_bytes()[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        self.at = start + len;
        self.eat(b'"')?;
        // The quotes are ASCII, so the text between them is whole characters.
        Some(&self.text[start..start + len])
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
