//! The errors a reader makes, each at the offset it is about: inlined wrappers over the one
//! out-of-line constructor (`error_at_offset`), so that no error path takes the reader out of
//! registers.

use super::*;

impl<'a> Reader<'a> {
    /// An error at the start of `slice`.
    #[inline(always)]
    pub fn error_at(self, slice: &[u8], kind: DecodeErrorKind) -> DecodeError {
        error_at_offset(self.offset_of(slice), kind)
    }

    /// An error at the next unread octet.
    #[inline(always)]
    pub fn error_here(self, kind: DecodeErrorKind) -> DecodeError {
        error_at_offset(self.offset(), kind)
    }

    #[inline(always)]
    pub(super) fn trailing(self, what: &'static str) -> DecodeError {
        self.error_here(DecodeErrorKind::TrailingData {
            what,
            found: self.buf.len(),
        })
    }

    /// The error for a CHOICE (or OPTIONAL component) whose next tag matches no alternative:
    /// truncation when the input is exhausted, otherwise an unexpected tag.
    #[inline(always)]
    pub fn no_alternative(self, expected: &'static str) -> DecodeError {
        match self.buf.first() {
            Some(&t) => self.unexpected(t, expected),
            None => self.truncated("tag", 1, 0),
        }
    }

    /// An INTEGER outside its constraint; `contents` locates it.
    #[inline(always)]
    pub fn out_of_range(self, contents: &[u8], found: i128, expected: &'static str) -> DecodeError {
        self.error_at(
            contents,
            DecodeErrorKind::IntegerOutOfRange { found, expected },
        )
    }

    /// A size (octets, bits or elements) outside its SIZE constraint; `contents` locates it.
    #[inline(always)]
    pub fn size_out_of_range(
        self,
        contents: &[u8],
        found: usize,
        expected: &'static str,
    ) -> DecodeError {
        self.error_at(
            contents,
            DecodeErrorKind::SizeOutOfRange { found, expected },
        )
    }

    #[inline(always)]
    pub(super) fn unexpected(self, found: u8, expected: &'static str) -> DecodeError {
        self.error_here(DecodeErrorKind::UnexpectedTag {
            expected,
            found: TagByte(found),
        })
    }

    #[inline(always)]
    pub(super) fn truncated(self, what: &'static str, needed: usize, found: usize) -> DecodeError {
        self.error_here(DecodeErrorKind::Truncated {
            what,
            needed,
            found,
        })
    }

    #[inline(always)]
    pub(super) fn truncated_at(
        self,
        skip: usize,
        what: &'static str,
        needed: usize,
        found: usize,
    ) -> DecodeError {
        DecodeError::new(
            self.offset() + skip,
            DecodeErrorKind::Truncated {
                what,
                needed,
                found,
            },
        )
    }

    #[inline(always)]
    pub(super) fn past_end(self, tag_len: usize, length: u64, available: usize) -> DecodeError {
        DecodeError::new(
            self.offset() + tag_len,
            DecodeErrorKind::LengthPastEnd { length, available },
        )
    }
}
