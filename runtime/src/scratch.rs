//! The per-thread scratch buffer behind [`crate::Encode::to_ber`]: the writer fills buffers from
//! their end, so an encoding of unknown length is written where there is surely room, then
//! copied into a vector of its own length.

use std::cell::RefCell;

use crate::EncodeError;

/// Octets of the per-thread scratch buffer: the largest SNMP message over UDP (65,507) fits.
pub const SCRATCH_OCTETS: usize = 1 << 16;

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Runs `encode` (which returns how many octets it wrote at the end of the buffer it is given)
/// on the scratch buffer, and copies the encoding out; or, when the thread's buffer is in use
/// by an encoding further up the stack or the value does not fit, on buffers of 16 times the
/// size until one fits (a failed attempt costs the work up to the point where the buffer ran
/// out, so few and large steps waste least), whose encoding is moved to the front of the
/// same allocation and the rest given back: one large buffer, zeroed by the allocator page by
/// page as the writer reaches it, and no second copy.
pub(crate) fn encode_to_vec(
    encode: impl Fn(&mut [u8]) -> Result<usize, EncodeError>,
) -> Result<Vec<u8>, EncodeError> {
    let first = SCRATCH.try_with(|cell| {
        let mut buf = cell.try_borrow_mut().ok()?;
        if buf.is_empty() {
            buf.resize(SCRATCH_OCTETS, 0);
        }
        Some(encode(&mut buf).map(|n| buf[buf.len() - n..].to_vec()))
    });
    let mut size = match first {
        Ok(Some(Err(EncodeError::BufferTooSmall { .. }))) => SCRATCH_OCTETS * 16,
        Ok(Some(done)) => return done,
        // The scratch buffer is busy (or the thread is ending): a buffer of our own.
        Ok(None) | Err(_) => SCRATCH_OCTETS,
    };
    loop {
        let mut buf = vec![0u8; size];
        match encode(&mut buf) {
            Ok(n) => {
                buf.copy_within(size - n.., 0);
                buf.truncate(n);
                buf.shrink_to_fit();
                return Ok(buf);
            }
            Err(EncodeError::BufferTooSmall { .. }) if size < (1 << 31) => size *= 16,
            Err(e) => return Err(e),
        }
    }
}

/// [`encode_to_vec`] into `out` (its contents replaced): from the scratch buffer into `out`'s
/// allocation; a value too large for the scratch buffer replaces `out` with its own vector.
pub(crate) fn encode_into(
    encode: impl Fn(&mut [u8]) -> Result<usize, EncodeError>,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let first = SCRATCH.try_with(|cell| {
        let mut buf = cell.try_borrow_mut().ok()?;
        if buf.is_empty() {
            buf.resize(SCRATCH_OCTETS, 0);
        }
        Some(encode(&mut buf).map(|n| {
            out.clear();
            out.extend_from_slice(&buf[buf.len() - n..]);
        }))
    });
    match first {
        Ok(Some(Err(EncodeError::BufferTooSmall { .. }))) | Ok(None) | Err(_) => {
            *out = encode_to_vec(encode)?;
            Ok(())
        }
        Ok(Some(done)) => done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Encode, Writer};

    struct Octets(usize);

    impl Encode for Octets {
        fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
            for i in 0..self.0 {
                w.put_u8(i as u8)?;
            }
            Ok(())
        }
    }

    /// Encodes another value from inside its own encoding, as a value carrying an encoded
    /// message in an OCTET STRING does.
    struct Nested;

    impl Encode for Nested {
        fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
            let inner = Octets(3).to_ber()?;
            w.put_slice(&inner)
        }
    }

    #[test]
    fn small_large_and_nested_encodings() {
        assert_eq!(Octets(3).to_ber().unwrap(), vec![2, 1, 0]);
        let big = Octets(SCRATCH_OCTETS + 10).to_ber().unwrap();
        assert_eq!(big.len(), SCRATCH_OCTETS + 10);
        assert_eq!(big[big.len() - 1], 0);
        assert_eq!(Nested.to_ber().unwrap(), vec![2, 1, 0]);
        assert_eq!(Octets(0).to_ber().unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn into_a_reused_vector() {
        let mut out = vec![9; 5];
        Octets(3).encode_into_vec(&mut out).unwrap();
        assert_eq!(out, vec![2, 1, 0]);
        let room = out.capacity();
        Octets(2).encode_into_vec(&mut out).unwrap();
        assert_eq!((out.as_slice(), out.capacity()), (&[1, 0][..], room));
        Octets(SCRATCH_OCTETS + 10)
            .encode_into_vec(&mut out)
            .unwrap();
        assert_eq!(out.len(), SCRATCH_OCTETS + 10);
        Nested.encode_into_vec(&mut out).unwrap();
        assert_eq!(out, vec![2, 1, 0]);
    }
}
