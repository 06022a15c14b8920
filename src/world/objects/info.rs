//! Info objects as the world keeps them (the operations: `world::info`).

#[derive(Debug, Clone, Default)]
pub struct Info {
    /// In order of first setting (`MPI_Info_get_nthkey` numbers them so).
    pub(crate) entries: Vec<(String, String)>,
}

impl Info {
    /// An info holding `entries` (the hints a file reports, MPI 4.1 §14.2.8).
    pub fn from_entries(entries: Vec<(String, String)>) -> Info {
        Info { entries }
    }

    /// The (key, value) pairs, in order.
    pub fn entries(&self) -> &[(String, String)] {
        &self.entries
    }

    pub(crate) fn find(&self, key: &str) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k == key)
    }

    /// The value of `key`, if set.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.find(key).map(|n| self.entries[n].1.as_str())
    }
}
