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
/// addressing, at most half full. The first key, when short, is kept inline: most sets
/// hold one key, and then allocate nothing.
pub struct ByteSet {
    /// The first key inserted, when it is at most `FIRST` bytes long: its bytes and
    /// length (0 where there is none; an empty first key is hashed as the others are).
    first: ([u8; FIRST], u8),
    bytes: Vec<u8>,
    /// 0 for an empty slot; else the key's start + 1 (high 32 bits), its length (16) and
    /// 16 bits of its hash.
    slots: Vec<u64>,
    len: usize,
}

/// The longest first key kept inline.
const FIRST: usize = 64;

impl Default for ByteSet {
    fn default() -> Self {
        ByteSet { first: ([0; FIRST], 0), bytes: Vec::new(), slots: Vec::new(), len: 0 }
    }
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
        let (first, first_len) = (&mut self.first.0, self.first.1 as usize);
        if self.len == 0 && (1..=FIRST).contains(&key.len()) {
            first[..key.len()].copy_from_slice(key);
            self.first.1 = key.len() as u8;
            self.len = 1;
            return true;
        }
        if first_len > 0 && first_len == key.len() && first[..first_len] == *key {
            return false;
        }
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
        if self.hashed() * 2 > self.slots.len() {
            self.grow();
        }
        true
    }

    /// How many keys are in the table (all but an inline first one).
    fn hashed(&self) -> usize {
        self.len - (self.first.1 > 0) as usize
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

    #[test]
    fn a_first_key_kept_inline_or_not_is_held_once() {
        // The first key empty, short (kept inline) or long (hashed), then met again among
        // others.
        for first in [vec![], vec![7u8; 5], vec![1u8; super::FIRST], vec![2u8; super::FIRST + 1]] {
            let mut set = ByteSet::default();
            assert!(set.insert(&first));
            let others = [vec![], vec![7u8; 4], vec![7u8; 5], vec![1u8; super::FIRST], vec![3u8; 200]];
            for other in &others {
                let new = *other != first;
                assert_eq!(set.insert(other), new, "{first:?} then {other:?}");
                assert!(!set.insert(other));
                assert!(!set.insert(&first));
            }
            assert_eq!(set.len(), others.len() + !others.contains(&first) as usize);
        }
    }
}
