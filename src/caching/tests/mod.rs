//! Unit tests of the caching rules.

mod rules;
