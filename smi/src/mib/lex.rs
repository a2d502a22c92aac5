//! The SMI lexer: module text to tokens (words, numbers, strings, symbols), sharing the ASN.1
//! front-end's comment rules ([`crate::asn1::parse::trivia_len`]: a `--` comment ends at the next
//! `--` or at the end of the line).

/// Token kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// A name or keyword (letters, digits, `-`, `_`).
    Word,
    /// A decimal number, possibly negative.
    Number,
    /// `"..."`.
    Str,
    /// `'...'H` or `'...'B`.
    BinHex,
    /// Punctuation: `::=`, `..`, `{`, `}`, `(`, `)`, `[`, `]`, `,`, `;`, `|`, `.`.
    Sym,
}

/// A token: its kind and byte range, in 12 bytes (texts over 4 GiB are not lexed).
#[derive(Debug, Clone, Copy)]
pub struct Token {
    /// Kind.
    pub kind: Tok,
    start: u32,
    end: u32,
}

impl Token {
    /// First byte.
    pub fn start(&self) -> usize {
        self.start as usize
    }

    /// After the last byte.
    pub fn end(&self) -> usize {
        self.end as usize
    }
}

/// Splits `src` into tokens. Fails with an offset on an unterminated string or a character that
/// starts no token.
pub fn lex(src: &str) -> Result<Vec<Token>, (usize, String)> {
    let mut out = Vec::new();
    match lex_into(src, &mut out).stopped {
        Some(error) => Err(error),
        None => Ok(out),
    }
}

/// Whether the `-` at `i` is the last of a line of nothing but dashes (three or more) and
/// blanks: [`Relaxation::DashLine`].
fn ends_dash_line(b: &[u8], i: usize) -> bool {
    let eol = |c: &u8| *c == b'\n' || *c == b'\r';
    let start = b[..i].iter().rposition(eol).map_or(0, |k| k + 1);
    let end = b[i..].iter().position(eol).map_or(b.len(), |k| i + k);
    let line = &b[start..end];
    line.iter().filter(|&&c| c == b'-').count() >= 3
        && line.iter().all(|&c| matches!(c, b'-' | b' ' | b'\t'))
        && b[i + 1..end].iter().all(|&c| c != b'-')
}

/// Byte classes for the lexer: which bytes continue a word, which are white space.
const WORD: u8 = 1;
const SPACE: u8 = 2;
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' {
            t[c] = WORD;
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            t[c] = SPACE;
        }
        c += 1;
    }
    t
};

/// The end of the run of bytes of `class` at `i`.
#[inline]
fn run_end(b: &[u8], mut i: usize, class: u8) -> usize {
    // Four bytes a bounds check.
    while let Some(four) = b.get(i..i + 4) {
        for (k, &c) in four.iter().enumerate() {
            if CLASS[c as usize] != class {
                return i + k;
            }
        }
        i += 4;
    }
    while i < b.len() && CLASS[b[i] as usize] == class {
        i += 1;
    }
    i
}

/// The index after the white space and comments at `i` (the rules of
/// [`crate::asn1::parse::trivia_len`]: a `--` comment ends at the next `--` or at the end of the line).
#[inline]
fn skip_trivia(b: &[u8], mut i: usize) -> usize {
    loop {
        // Indentation comes in runs of spaces: eight at a time.
        while let Some(chunk) = b.get(i..i + 8) {
            if chunk != b"        " {
                break;
            }
            i += 8;
        }
        i = run_end(b, i, SPACE);
        if i + 1 < b.len() && b[i] == b'-' && b[i + 1] == b'-' {
            i += 2;
            loop {
                match memchr::memchr3(b'\n', b'\r', b'-', &b[i..]) {
                    None => return b.len(),
                    Some(k) => {
                        i += k;
                        if b[i] != b'-' {
                            break;
                        }
                        if b.get(i + 1) == Some(&b'-') {
                            i += 2;
                            break;
                        }
                        i += 1;
                    }
                }
            }
        } else if i + 1 < b.len() && b[i] == b'/' && b[i + 1] == b'*' {
            i = match memchr::memmem::find(&b[i + 2..], b"*/") {
                Some(k) => i + 2 + k + 2,
                None => b.len(),
            };
        } else {
            return i;
        }
    }
}

/// What [`lex_into`] found besides the tokens.
#[derive(Debug, Default)]
pub struct Lexed {
    /// The offsets of the dash lines read as comments ([`super::Relaxation::DashLine`]).
    pub dash_lines: Vec<usize>,
    /// The characters that start no token skipped in the body of a `::= SEQUENCE { ... }`
    /// ([`super::Relaxation::EntrySequence`]: net-snmp skips the body whole; LibreNMS's
    /// PARKS-PK700 has a full-width comma `，` there): per body, the offset of the first and
    /// how many.
    pub strays: Vec<(usize, usize)>,
    /// Where lexing stopped and why, if it stopped before the end.
    pub stopped: Option<(usize, String)>,
}

/// [`lex`] into `out` (cleared first), so that a buffer can serve many files (`out` holds the
/// tokens before where it stopped, if it did).
pub fn lex_into(src: &str, out: &mut Vec<Token>) -> Lexed {
    let mut lexed = Lexed::default();
    lexed.stopped = lex_tokens(src, out, &mut lexed).err();
    lexed
}

/// The last brace among the tokens lexed so far, found by looking only at the tokens added
/// since the last question (so that many stray characters cost no more than the tokens).
#[derive(Default)]
struct LastBrace {
    seen: usize,
    at: Option<usize>,
}

impl LastBrace {
    /// Whether the tokens so far end inside the braces of a `::= SEQUENCE {`.
    fn in_sequence_body(&mut self, src: &str, out: &[Token]) -> bool {
        let text = |t: &Token| &src[t.start()..t.end()];
        let brace = |t: &Token| t.kind == Tok::Sym && matches!(text(t), "{" | "}");
        if let Some(k) = out[self.seen..].iter().rposition(brace) {
            self.at = Some(self.seen + k);
        }
        self.seen = out.len();
        let Some(open) = self.at else {
            return false;
        };
        text(&out[open]) == "{"
            && open >= 2
            && text(&out[open - 1]) == "SEQUENCE"
            && text(&out[open - 2]) == "::="
    }
}

fn lex_tokens(src: &str, out: &mut Vec<Token>, lexed: &mut Lexed) -> Result<(), (usize, String)> {
    let b = src.as_bytes();
    out.clear();
    let mut last_brace = LastBrace::default();
    let mut stray_body = None;
    if u32::try_from(b.len()).is_err() {
        return Err((0, format!("the text is {} bytes: over 4 GiB", b.len())));
    }
    let mut i = 0;
    loop {
        i = skip_trivia(b, i);
        if i >= b.len() {
            return Ok(());
        }
        let start = i;
        let c = b[i];
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            i += 1;
            loop {
                i = run_end(b, i, WORD);
                // An inner hyphen, not a comment's `--`; `&` or `+` inside a name (`WPA&WPA2`,
                // `TKIP+AES`), and a hyphen that ends one before its number (`g723High-(16)`),
                // as net-snmp reads them: words the parser then says are no SMI identifiers.
                // Most words end at a space: one byte looked at.
                let Some(&joint @ (b'-' | b'&' | b'+')) = b.get(i) else {
                    break;
                };
                match b.get(i + 1) {
                    Some(&n) if CLASS[n as usize] == WORD => i += 1,
                    Some(b'(') if joint == b'-' => {
                        i += 1;
                        break;
                    }
                    _ => break,
                }
            }
            Tok::Word
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if c != b'-'
                && b.get(i)
                    .is_some_and(|d| d.is_ascii_alphabetic() || *d == b'_')
            {
                // A label that starts with digits, like `802dot3(10006)` in an OID value.
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || b[i] == b'_'
                        || (b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric)))
                {
                    i += 1;
                }
                Tok::Word
            } else {
                Tok::Number
            }
        } else if c == b'"' {
            match memchr::memchr(b'"', &b[i + 1..]) {
                Some(k) => i += k + 2,
                None => return Err((start, "unterminated string: expected a closing `\"`".into())),
            }
            Tok::Str
        } else if c == b'\'' {
            match memchr::memchr(b'\'', &b[i + 1..]) {
                Some(k) => {
                    i += k + 2;
                    if b.get(i)
                        .is_some_and(|r| matches!(r, b'H' | b'h' | b'B' | b'b'))
                    {
                        i += 1;
                    }
                }
                None => {
                    return Err((
                        start,
                        "unterminated 'string': expected a closing `'`".into(),
                    ))
                }
            }
            Tok::BinHex
        } else if b[i..].starts_with(b"::=") {
            i += 3;
            Tok::Sym
        } else if b[i..].starts_with(b"..") {
            i += 2;
            Tok::Sym
        } else if matches!(
            c,
            b'{' | b'}'
                | b'('
                | b')'
                | b'['
                | b']'
                | b','
                | b';'
                | b'|'
                | b'.'
                | b'<'
                | b'>'
                | b'@'
                | b'!'
                | b':'
                | b'='
        ) {
            i += 1;
            Tok::Sym
        } else if c == b'-' && ends_dash_line(b, i) {
            lexed.dash_lines.push(i);
            i += 1;
            continue;
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            if !last_brace.in_sequence_body(src, out) {
                return Err((start, format!("unexpected character {ch:?}")));
            }
            // One finding per body, however many characters.
            match lexed.strays.last_mut() {
                Some((_, n)) if stray_body == last_brace.at => *n += 1,
                _ => lexed.strays.push((i, 1)),
            }
            stray_body = last_brace.at;
            i += ch.len_utf8();
            continue;
        };
        // Offsets fit: longer texts were refused above.
        out.push(Token {
            kind,
            start: start as u32,
            end: i as u32,
        });
    }
}
