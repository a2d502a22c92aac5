//! Descriptor tables: a small, fast hasher for module names and descriptors, and the
//! four-bytes-a-name index tables of a parsed module's nodes and types.

/// A small, fast hash for descriptor tables (the default SipHash is built to resist
/// adversarial keys, which module descriptors are not; resolving a large corpus hashes
/// hundreds of thousands of them).
#[derive(Default, Clone, Copy)]
pub struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
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

    /// The index of `name`, where `names(i)` is the i-th name of the table's module.
    pub(crate) fn get<'a>(&self, name: &str, names: impl Fn(usize) -> &'a str) -> Option<usize> {
        self.0
            .find(name_hash(name), |&k| names(k as usize) == name)
            .map(|&k| k as usize)
    }
}
