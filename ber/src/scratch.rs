//! The per-thread scratch buffer behind [`crate::Encode::to_ber`]: the writer fills buffers from
//! their end, so an encoding of unknown length is written where there is surely room, then
//! copied into a vector of its own length.

use std::cell::RefCell;
use std::mem::MaybeUninit;

use crate::writer::uninit_mut;
use crate::EncodeError;

/// Octets of the per-thread scratch buffer: the largest SNMP message over UDP (65,507) fits.
pub const SCRATCH_OCTETS: usize = 1 << 16;

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Runs `encode` (which returns how many octets it wrote at the end of the buffer it is given)
/// on the scratch buffer, and copies the encoding out; or, when the thread's buffer is in use
/// by an encoding further up the stack or the value does not fit, asks `len` for the
/// encoding's length and encodes into a vector of exactly that size (no copy, no octet of the
/// allocation left unused).
pub(crate) fn encode_to_vec(
    encode: impl Fn(&mut [MaybeUninit<u8>]) -> Result<usize, EncodeError>,
    len: impl FnOnce() -> usize,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    encode_into(encode, len, &mut out)?;
    Ok(out)
}

/// [`encode_to_vec`] into `out` (its contents replaced, its allocation reused when it has room).
pub(crate) fn encode_into(
    encode: impl Fn(&mut [MaybeUninit<u8>]) -> Result<usize, EncodeError>,
    len: impl FnOnce() -> usize,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let first = SCRATCH.try_with(|cell| {
        let mut buf = cell.try_borrow_mut().ok()?;
        if buf.is_empty() {
            buf.resize(SCRATCH_OCTETS, 0);
        }
        Some(encode(uninit_mut(&mut buf)).map(|n| {
            out.clear();
            out.extend_from_slice(&buf[buf.len() - n..]);
        }))
    });
    match first {
        Ok(Some(Err(EncodeError::BufferTooSmall { .. }))) | Ok(None) | Err(_) => {
            encode_measured(&encode, len(), out)
        }
        Ok(Some(done)) => done,
    }
}

/// Encodes into `out`'s capacity, reserved for `len` octets, the length the value gave for
/// its encoding, and not zeroed first (the writer stores every octet it hands back). Should
/// the encoder write fewer octets (a length function out of step with its encoder, a bug),
/// the encoding is moved to the front; should it need more, the buffer is grown until it
/// fits; either way the result is the encoding.
fn encode_measured(
    encode: &impl Fn(&mut [MaybeUninit<u8>]) -> Result<usize, EncodeError>,
    len: usize,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let mut size = len;
    loop {
        out.clear();
        if out.capacity() < size {
            // Asked for, not assumed: a length memory cannot hold is an error, not an abort.
            *out = Vec::new();
            out.try_reserve_exact(size)
                .map_err(|_| EncodeError::TooLarge { octets: size })?;
        }
        let room = &mut out.spare_capacity_mut()[..size];
        match encode(room) {
            Ok(n) => {
                debug_assert_eq!(n, len, "encoded_len out of step with encode");
                room.copy_within(size - n.., 0);
                // SAFETY: the first `n` octets of the spare capacity are the `n` the writer
                // stored at the end of `room`, just moved to the front.
                unsafe { out.set_len(n) };
                return Ok(());
            }
            Err(EncodeError::BufferTooSmall { .. }) if size < (1 << 31) => {
                debug_assert!(false, "encoded_len {len} short of the encoding");
                size = size.max(SCRATCH_OCTETS) * 4;
            }
            Err(e) => return Err(e),
        }
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

        fn encoded_len(&self) -> usize {
            self.0
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

        fn encoded_len(&self) -> usize {
            3
        }
    }

    #[test]
    fn small_large_and_nested_encodings() {
        assert_eq!(Octets(3).to_ber().unwrap(), vec![2, 1, 0]);
        let big = Octets(SCRATCH_OCTETS + 10).to_ber().unwrap();
        assert_eq!(big.len(), SCRATCH_OCTETS + 10);
        assert_eq!(big.capacity(), big.len(), "measured, so allocated to size");
        assert_eq!(big[big.len() - 1], 0);
        assert_eq!(big[0], ((SCRATCH_OCTETS + 9) % 256) as u8);
        assert_eq!(Nested.to_ber().unwrap(), vec![2, 1, 0]);
        assert_eq!(Octets(0).to_ber().unwrap(), Vec::<u8>::new());
    }

    /// A value claiming more octets than memory holds.
    struct Huge;

    impl Encode for Huge {
        fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
            Octets(SCRATCH_OCTETS + 1).encode(w)
        }

        fn encoded_len(&self) -> usize {
            usize::MAX / 2
        }
    }

    #[test]
    fn an_encoding_too_large_to_allocate_is_an_error() {
        let octets = usize::MAX / 2;
        assert_eq!(Huge.to_ber(), Err(EncodeError::TooLarge { octets }));
        let mut out = vec![1, 2, 3];
        assert_eq!(
            Huge.encode_into_vec(&mut out),
            Err(EncodeError::TooLarge { octets })
        );
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
