//! SEQUENCE OF / SET OF without allocation.

use std::fmt;
use std::marker::PhantomData;

use crate::{Decode, DecodeError, Encode, EncodeError, Reader, Writer};

/// A SEQUENCE OF `T`: either decoded input (validated element by element when the enclosing
/// value was decoded, then iterated lazily without allocating) or a caller's slice to encode.
#[derive(Clone, Copy)]
pub struct SequenceOf<'a, T> {
    repr: Repr<'a, T>,
}

#[derive(Clone, Copy)]
enum Repr<'a, T> {
    Decoded { reader: Reader<'a>, count: usize },
    Items(&'a [T]),
}

impl<'a, T> SequenceOf<'a, T> {
    /// A list of `items`, for encoding.
    pub const fn from_slice(items: &'a [T]) -> Self {
        SequenceOf {
            repr: Repr::Items(items),
        }
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Decoded { count, .. } => *count,
            Repr::Items(items) => items.len(),
        }
    }

    /// True when there are no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The encoded contents octets, when this list was decoded.
    pub fn encoded(&self) -> Option<&'a [u8]> {
        match &self.repr {
            Repr::Decoded { reader, .. } => Some(reader.remaining()),
            Repr::Items(_) => None,
        }
    }
}

impl<'a, T: Decode<'a>> SequenceOf<'a, T> {
    /// Decodes the contents of a SEQUENCE OF: every element is decoded once here so that errors
    /// surface now, with the element's index in the path, and nothing is silently dropped later.
    #[inline]
    pub fn decode_contents(contents: Reader<'a>) -> Result<Self, DecodeError> {
        let mut r = contents;
        let mut count = 0usize;
        while !r.is_empty() {
            if let Err(e) = T::decode(&mut r) {
                return Err(e.in_element(count));
            }
            count += 1;
        }
        Ok(SequenceOf {
            repr: Repr::Decoded {
                reader: contents,
                count,
            },
        })
    }

    /// The elements, decoded one by one as the iterator advances.
    #[inline]
    pub fn iter(&self) -> SequenceOfIter<'a, '_, T>
    where
        T: Clone,
    {
        match &self.repr {
            Repr::Decoded { reader, count } => SequenceOfIter {
                inner: IterRepr::Decoded {
                    reader: *reader,
                    left: *count,
                    _t: PhantomData,
                },
            },
            Repr::Items(items) => SequenceOfIter {
                inner: IterRepr::Items(items.iter()),
            },
        }
    }
}

/// Iterator over a [`SequenceOf`].
pub struct SequenceOfIter<'a, 's, T> {
    inner: IterRepr<'a, 's, T>,
}

enum IterRepr<'a, 's, T> {
    Decoded {
        reader: Reader<'a>,
        left: usize,
        _t: PhantomData<T>,
    },
    Items(std::slice::Iter<'s, T>),
}

impl<'a, T: Decode<'a> + Clone> Iterator for SequenceOfIter<'a, '_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        match &mut self.inner {
            IterRepr::Decoded { reader, left, .. } => {
                if *left == 0 {
                    return None;
                }
                *left -= 1;
                // Validated when the list was decoded, so this cannot fail; stop rather than
                // panic if it somehow did.
                T::decode(reader).ok()
            }
            IterRepr::Items(it) => it.next().cloned(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match &self.inner {
            IterRepr::Decoded { left, .. } => *left,
            IterRepr::Items(it) => it.len(),
        };
        (n, Some(n))
    }
}

impl<'a, T: Decode<'a> + Clone> ExactSizeIterator for SequenceOfIter<'a, '_, T> {}

impl<'a, T: Encode> SequenceOf<'a, T> {
    /// Writes the contents (the elements, without the outer header).
    #[inline]
    pub fn encode_contents(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        match &self.repr {
            // Decoded input was validated; its octets are written back as they came.
            Repr::Decoded { reader, .. } => w.put_slice(reader.remaining()),
            Repr::Items(items) => {
                for item in items.iter().rev() {
                    item.encode(w)?;
                }
                Ok(())
            }
        }
    }
}

impl<'a, T: Decode<'a> + Clone + PartialEq> PartialEq for SequenceOf<'a, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<'a, T: Decode<'a> + Clone + fmt::Debug> fmt::Debug for SequenceOf<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T> Default for SequenceOf<'a, T> {
    fn default() -> Self {
        SequenceOf::from_slice(&[])
    }
}
