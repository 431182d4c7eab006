//! The application layer: the use cases, with plain inputs and plain replies.

pub mod i18n;
