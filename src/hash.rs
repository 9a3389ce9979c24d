//! A fast hasher for the short keys the engine makes for its own caches (tile counts,
//! arrangements of one situation): a multiply-rotate per word. Not for keys an adversary
//! could choose in bulk; none of its callers take such keys.

use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for chunk in &mut words {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// `HashMap<K, V, Fast>` and `HashSet<K, Fast>` use [`FastHasher`].
pub type Fast = BuildHasherDefault<FastHasher>;

/// A set of short byte strings held in one buffer: inserting one copies its bytes there,
/// with no allocation of its own (a `HashSet<Vec<u8>>` allocates a vector a key). Open
/// addressing, at most half full.
#[derive(Default)]
pub struct ByteSet {
    bytes: Vec<u8>,
    /// 0 for an empty slot; else the key's start + 1 (high 32 bits), its length (16) and
    /// 16 bits of its hash.
    slots: Vec<u64>,
    len: usize,
}

impl ByteSet {
    fn hash(key: &[u8]) -> u64 {
        let mut h = FastHasher::default();
        h.write(key);
        h.write_u64(key.len() as u64);
        h.finish()
    }

    /// Adds `key`; whether it was not in the set.
    pub fn insert(&mut self, key: &[u8]) -> bool {
        // The slot packs a start under 4 GiB and a length under 64 KiB; past them this
        // stops rather than mixing keys up. Its one caller's keys are at most a few hundred
        // bytes (an arrangement's groups and the winning tile's places), one a distinct
        // arrangement of one situation: filling 4 GiB would take some 20 million of them.
        assert!(key.len() < 1 << 16 && self.bytes.len() + key.len() < u32::MAX as usize);
        if self.slots.is_empty() {
            // Most sets hold a few keys of some dozens of bytes.
            self.slots = vec![0; 16];
            self.bytes.reserve(256);
        }
        let h = Self::hash(key);
        let tag = (key.len() as u64) << 16 | h >> 48;
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let e = self.slots[i];
            if e == 0 {
                break;
            }
            if e & 0xffff_ffff == tag {
                let start = (e >> 32) as usize - 1;
                if &self.bytes[start..start + key.len()] == key {
                    return false;
                }
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = ((self.bytes.len() + 1) as u64) << 32 | tag;
        self.bytes.extend_from_slice(key);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
        true
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        let mask = self.slots.len() - 1;
        for e in old.into_iter().filter(|&e| e != 0) {
            let start = (e >> 32) as usize - 1;
            let len = (e >> 16 & 0xffff) as usize;
            let mut i = Self::hash(&self.bytes[start..start + len]) as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = e;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::ByteSet;

    #[test]
    fn byte_sets_hold_each_key_once() {
        let mut set = ByteSet::default();
        let mut reference = std::collections::HashSet::new();
        // Keys of many lengths (the empty one among them), met again and again, past
        // several growths.
        let mut x = 12345u64;
        for _ in 0..20_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let len = (x >> 59) as usize;
            let key: Vec<u8> = (0..len).map(|i| (x >> (i % 8 * 4)) as u8 % 3).collect();
            assert_eq!(set.insert(&key), reference.insert(key));
        }
        assert_eq!(set.len(), reference.len());
        assert!(set.len() > 1000);
    }
}
