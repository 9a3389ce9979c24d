//! A list of at most `N` items kept inline, for the small collections of hot paths (a
//! hand's melds, an arrangement's sets, the reader's buffers): they allocate nothing.

/// At most `N` items (`N` below 256), in order. Places past the length hold leftovers and
/// take no part in comparisons.
#[derive(Clone, Copy, Debug)]
pub struct Inline<T: Copy, const N: usize> {
    items: [T; N],
    len: u8,
}

impl<T: Copy, const N: usize> Inline<T, N> {
    /// An empty list; `fill` stands in the places not in use.
    pub const fn filled(fill: T) -> Self {
        Inline { items: [fill; N], len: 0 }
    }

    /// A list of the items of `iter` that fit.
    pub fn collect_with(fill: T, iter: impl IntoIterator<Item = T>) -> Self {
        let mut list = Self::filled(fill);
        for x in iter {
            list.push(x);
        }
        list
    }

    /// Adds `x`; false, and nothing added, when the list is full.
    pub fn push(&mut self, x: T) -> bool {
        match self.items.get_mut(self.len as usize) {
            Some(slot) => {
                *slot = x;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// Removes the last item.
    pub fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len.min(N) as u8);
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for Inline<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for Inline<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Eq, const N: usize> Eq for Inline<T, N> {}

impl<T: Copy + std::hash::Hash, const N: usize> std::hash::Hash for Inline<T, N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a Inline<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_at_most_n() {
        let mut l: Inline<u8, 3> = Inline::filled(0);
        assert!(l.push(1) && l.push(2) && l.push(3));
        assert!(!l.push(4));
        assert_eq!(&*l, &[1, 2, 3]);
        l.pop();
        l.truncate(9);
        assert_eq!(&*l, &[1, 2]);
        // Leftovers past the length do not count.
        assert_eq!(l, Inline::collect_with(9, [1, 2]));
        l.clear();
        assert!(l.is_empty());
    }
}
