//! INDEX components of a conceptual row read from an instance OID's suffix (RFC 2578 7.7).

use super::*;

/// Reads the INDEX components of a conceptual row from an instance OID's suffix, by the
/// rules of RFC 2578 section 7.7.
#[derive(Debug, Clone)]
pub struct IndexReader<'a> {
    entry: &'static str,
    suffix: &'a [u32],
    pos: usize,
}

impl<'a> IndexReader<'a> {
    /// A reader over `suffix` (the instance OID after the column) for row `entry`.
    pub fn new(entry: &'static str, suffix: &'a [u32]) -> Self {
        IndexReader {
            entry,
            suffix,
            pos: 0,
        }
    }

    fn err(&self, position: usize, reason: &'static str) -> MibError {
        MibError::BadIndex {
            entry: self.entry,
            suffix: self.suffix.to_vec(),
            position,
            reason,
        }
    }

    fn next(&mut self, reason: &'static str) -> Result<u32, MibError> {
        let v = *self
            .suffix
            .get(self.pos)
            .ok_or_else(|| self.err(self.pos, reason))?;
        self.pos += 1;
        Ok(v)
    }

    /// An INTEGER-valued component: one sub-identifier (negative values cannot be indexes).
    pub fn integer(&mut self) -> Result<i32, MibError> {
        let at = self.pos;
        let v = self.next("a sub-identifier for an INTEGER component")?;
        i32::try_from(v).map_err(|_| self.err(at, "an INTEGER component at most 2147483647"))
    }

    /// An Unsigned32, Gauge32 or TimeTicks component: one sub-identifier.
    pub fn unsigned(&mut self) -> Result<u32, MibError> {
        self.next("a sub-identifier for an unsigned component")
    }

    /// An IpAddress component: four sub-identifiers of at most 255.
    pub fn ip_address(&mut self) -> Result<Ipv4Addr, MibError> {
        let mut a = [0u8; 4];
        for b in &mut a {
            let at = self.pos;
            let v = self.next("four sub-identifiers for an IpAddress")?;
            *b = u8::try_from(v).map_err(|_| self.err(at, "an IpAddress octet at most 255"))?;
        }
        Ok(Ipv4Addr::from(a))
    }

    /// An OCTET STRING component: `fixed` octets when the SYNTAX has one fixed size, the rest
    /// of the suffix when IMPLIED, otherwise a length then that many octets.
    pub fn octets(&mut self, fixed: Option<usize>, implied: bool) -> Result<Vec<u8>, MibError> {
        let n = match fixed {
            Some(n) => n,
            None if implied => self.suffix.len() - self.pos,
            None => self.next("a length sub-identifier for an OCTET STRING")? as usize,
        };
        if n > self.suffix.len() - self.pos {
            return Err(self.err(self.pos, "as many sub-identifiers as the string's length"));
        }
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let at = self.pos;
            let v = self.next("an octet")?;
            out.push(u8::try_from(v).map_err(|_| self.err(at, "an octet at most 255"))?);
        }
        Ok(out)
    }

    /// A text component (DisplayString-like).
    pub fn text(&mut self, fixed: Option<usize>, implied: bool) -> Result<String, MibError> {
        let at = self.pos;
        let bytes = self.octets(fixed, implied)?;
        String::from_utf8(bytes).map_err(|_| self.err(at, "a UTF-8 text component"))
    }

    /// An OBJECT IDENTIFIER component: the rest when IMPLIED, else a length then the arcs.
    pub fn oid(&mut self, implied: bool) -> Result<Vec<u32>, MibError> {
        let n = if implied {
            self.suffix.len() - self.pos
        } else {
            self.next("a length sub-identifier for an OBJECT IDENTIFIER")? as usize
        };
        if n > self.suffix.len() - self.pos {
            return Err(self.err(self.pos, "as many sub-identifiers as the OID's length"));
        }
        let out = self.suffix[self.pos..self.pos + n].to_vec();
        self.pos += n;
        Ok(out)
    }

    /// The sub-identifiers not read yet (an INDEX the MIB does not let us type).
    pub fn rest(&mut self) -> Vec<u32> {
        let out = self.suffix[self.pos..].to_vec();
        self.pos = self.suffix.len();
        out
    }

    /// Checks that every sub-identifier was used.
    pub fn finish(self) -> Result<(), MibError> {
        if self.pos == self.suffix.len() {
            Ok(())
        } else {
            Err(self.err(self.pos, "the end of the index"))
        }
    }
}
