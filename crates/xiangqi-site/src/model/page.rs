//! A page of a list, as asked for and as answered: lists that can grow
//! without bound (games, messages, players) come a page at a time, keyed by
//! an opaque `after` that callers pass back.

/// A page of a list: at most `limit` rows after the key `after` (exclusive) in
/// the list's order. The key is opaque to callers: they pass back `next`.
#[derive(Clone, Debug, Default)]
pub struct Page {
    pub after: Option<String>,
    pub limit: Option<u32>,
}

impl Page {
    /// The most rows a page may hold.
    pub const MAX: u32 = 100;
    pub const DEFAULT: u32 = 50;

    pub fn first(limit: u32) -> Page {
        Page { after: None, limit: Some(limit) }
    }

    /// How many rows the page holds at most: the limit asked for, within 1 to [`Page::MAX`].
    pub fn rows(&self) -> u32 {
        self.limit.unwrap_or(Self::DEFAULT).clamp(1, Self::MAX)
    }
}

/// One page of rows and the key that fetches the next one.
#[derive(Debug)]
pub struct Paged<T> {
    pub items: Vec<T>,
    pub next: Option<String>,
}
