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
