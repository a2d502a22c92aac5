//! Descriptor tables: a small, fast hasher for module names and descriptors, and the
//! four-bytes-a-name index tables of a parsed module's nodes and types.

/// A small, fast hash for descriptor tables (the default SipHash is built to resist
/// adversarial keys, which module descriptors are not; resolving a large corpus hashes
/// hundreds of thousands of them).
#[derive(Default, Clone, Copy)]
pub struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes a step, the last step's short word zero-extended (read a byte at a
        // time: a copy of a length known only at run time is a call to memcpy).
        let mut words = bytes.chunks_exact(8);
        for chunk in &mut words {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            self.mix(word);
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let word = tail
                .iter()
                .rev()
                .fold(0u64, |w, &b| (w << 8) | u64::from(b));
            self.mix(word);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl NameHasher {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A module's names (of its nodes, or of its types) to their index, four bytes a name: the
/// table holds indexes and compares through the module's own names.
#[derive(Debug, Default)]
pub(crate) struct NameTable(hashbrown::HashTable<u32>);

pub(crate) fn name_hash(name: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<NameHasher>::default().hash_one(name)
}

impl NameTable {
    /// The table of `names` (of equal names, the last defined wins).
    pub(crate) fn new<'a>(names: impl Iterator<Item = &'a str>) -> NameTable {
        let all: Vec<&str> = names.collect();
        let mut t = hashbrown::HashTable::with_capacity(all.len());
        for (i, n) in all.iter().enumerate() {
            let h = name_hash(n);
            match t.find_mut(h, |&k: &u32| all[k as usize] == *n) {
                Some(k) => *k = i as u32,
                None => {
                    t.insert_unique(h, i as u32, |&k: &u32| name_hash(all[k as usize]));
                }
            }
        }
        NameTable(t)
    }

    /// Makes `name`, already in the table, stand for `index` (`names` as for [`NameTable::get`]).
    pub(crate) fn set<'a>(&mut self, name: &str, index: usize, names: impl Fn(usize) -> &'a str) {
        if let Some(k) = self
            .0
            .find_mut(name_hash(name), |&k| names(k as usize) == name)
        {
            *k = index as u32;
        }
    }

    /// The index of `name`, where `names(i)` is the i-th name of the table's module.
    pub(crate) fn get<'a>(&self, name: &str, names: impl Fn(usize) -> &'a str) -> Option<usize> {
        self.0
            .find(name_hash(name), |&k| names(k as usize) == name)
            .map(|&k| k as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hasher;

    /// The hash as first written: each chunk of up to eight bytes zero-padded into a word.
    fn padded(bytes: &[u8]) -> u64 {
        let mut h = 0u64;
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        h
    }

    #[test]
    fn the_word_at_a_time_hash_is_the_padded_chunk_hash() {
        let text = b"ifHCInMulticastPkts-and-some-more-bytes\xff\x00\x80";
        for start in 0..8 {
            for end in start..text.len() {
                let mut h = NameHasher::default();
                h.write(&text[start..end]);
                assert_eq!(h.finish(), padded(&text[start..end]), "{start}..{end}");
            }
        }
    }
}
