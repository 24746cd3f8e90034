//! Who sees a study and what its members may do.

use crate::model::named_enum;

named_enum! {
    /// Who sees a study.
    "a study's visibility" Visibility {
        /// Everyone, logged in or not.
        Public = "public",
        /// Its owner and members only.
        Private = "private",
    }
}

named_enum! {
    /// What a member of a study may do.
    "a member's role" StudyRole {
        View = "view",
        Edit = "edit",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudyRecord {
    pub id: String,
    pub owner: String,
    pub title: String,
    pub visibility: Visibility,
    pub version: i64,
    pub created_ms: i64,
    pub updated_ms: i64,
}

/// Which studies a list holds.
#[derive(Clone, Copy, Debug)]
pub enum StudyShelf<'a> {
    /// Those a user owns or is a member of.
    Of(&'a str),
    /// Public ones, everyone's.
    Public,
}
