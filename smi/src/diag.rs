//! Diagnostics: file:line:column, the source line and a caret.

use std::fmt;

/// An error (or warning) located in a source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file, as given to the generator.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The text of that line.
    pub source_line: String,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at byte `offset` of `source`.
    pub fn at(file: &str, source: &str, offset: usize, message: impl Into<String>) -> Self {
        // Inside the text and on a character boundary (an offset from another reading of a
        // file that has changed since must not split a character).
        let mut offset = offset.min(source.len());
        while !source.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &source[..offset];
        let line_start = before.rfind('\n').map_or(0, |k| k + 1);
        let line_end = source[offset..]
            .find('\n')
            .map_or(source.len(), |k| offset + k);
        Diagnostic {
            file: file.to_string(),
            line: before.bytes().filter(|&b| b == b'\n').count() + 1,
            column: source[line_start..offset].chars().count() + 1,
            source_line: source[line_start..line_end]
                .trim_end_matches('\r')
                .to_string(),
            message: message.into(),
        }
    }

    /// A diagnostic about a whole file (no position).
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            line: 0,
            column: 0,
            source_line: String::new(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: error: {}", self.file, self.message);
        }
        writeln!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )?;
        let gutter = self.line.to_string().len();
        writeln!(f, "{:gutter$} |", "")?;
        writeln!(f, "{} | {}", self.line, self.source_line)?;
        let pad: String = self
            .source_line
            .chars()
            .take(self.column - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "{:gutter$} | {pad}^", "")
    }
}

impl std::error::Error for Diagnostic {}

/// Several diagnostics from one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, d) in self.0.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}
