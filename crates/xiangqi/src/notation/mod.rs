//! Reading and writing positions, moves and game records.
//!
//! Moves have three written forms on the standard board: ICCS coordinates
//! ([`iccs`], `h2e2`), WXF ([`wxf`], `C2=5`) and Chinese ([`chinese`], `炮二平五`).
//! [`parse_any`] reads whichever it is given.

pub mod chinese;
pub mod descriptive;
pub mod fen;
pub mod iccs;
pub mod limits;
pub mod pgn;
pub mod tree;
pub mod wxf;

use unicode_normalization::UnicodeNormalization;

use self::{iccs::MoveError, pgn::Format};
use crate::{geometry::Standard, position::Position, types::Move};

/// Reads a move written in ICCS, WXF or Chinese notation.
///
/// # Errors
/// The most telling error among the notations: a refusal from one that could
/// read the text, else the syntax error.
pub fn parse_any(pos: &Position<Standard>, text: &str) -> Result<Move, MoveError> {
    parse_in(pos, text, Format::Iccs)
}

/// Reads a move trying `first` before the other notations.
pub(crate) fn parse_in(pos: &Position<Standard>, text: &str, first: Format) -> Result<Move, MoveError> {
    // Records from Chinese sites write WXF and digits in full-width forms
    // (`Ｃ２＝５`, `马８进７`): compatibility normalisation (NFKC) makes them
    // the ASCII the readers know, and leaves the Chinese glyphs as they are.
    let normal: String;
    let text = if text.is_ascii() {
        text
    } else {
        normal = text.nfkc().collect();
        &normal
    };
    let token = text.trim().trim_end_matches(['!', '?', '#']);
    let mut order = vec![first];
    order.extend([Format::Iccs, Format::Wxf, Format::Chinese].into_iter().filter(|f| *f != first));
    let mut errors = Vec::new();
    for f in order {
        let attempt = match f {
            Format::Iccs | Format::OldIccs => pos.parse_move(token),
            Format::Wxf => wxf::parse(pos, token),
            Format::Chinese => chinese::parse(pos, token),
        };
        match attempt {
            Ok(m) => return Ok(m),
            Err(e) => errors.push(e),
        }
    }
    // A notation that could read the text says more than the ones that could not.
    let best = errors.iter().position(|e| !matches!(e, MoveError::Syntax(_))).unwrap_or(0);
    Err(errors.swap_remove(best))
}
