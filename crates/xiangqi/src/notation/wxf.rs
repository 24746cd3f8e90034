//! WXF notation (`C2=5`, `H8+7`, `R+=3`), as the World Xiangqi Federation writes
//! moves: piece letter, origin file counted from the mover's right, `+` forward,
//! `-` backward or `=` sideways, then the new file or the number of steps.
//!
//! Two pieces of one kind on a file are told apart by `+` (front) and `-` (rear)
//! in place of the file: `R+=3`. Soldiers follow the WXF conventions: with three
//! on a file the middle one keeps its file digit (`P+`, `P7`, `P-`); with four or
//! five, the outer ones are `++` and `--`; when two files each hold two or more
//! soldiers, the file digit replaces the letter (`7+=6`, `77=6`, `7-=6`).
//! Advisors and elephants always give their file: the direction and target tell
//! two of them apart.
//!
//! Reading also accepts lower case, `.` for `=`, `B`/`N` for `E`/`H`, the
//! tandem marker before the letter (`+C=5`, `-R+1`), and the
//! numbered-soldier form some programs write (`15=6`: the first soldier from the
//! front on file 5). A file digit written twice is read as WXF means it, the
//! middle soldier, only where WXF writes it: the file holds three soldiers and
//! another file two. Anywhere else it is the numbered form, so with three
//! soldiers on file 1 alone `11=2` is the front one (which WXF writes `P+=2`).
//!
//! ```
//! use xiangqi::{Position, Standard, notation::wxf};
//!
//! let pos = Position::<Standard>::startpos();
//! let m = wxf::parse(&pos, "C2=5").unwrap();
//! assert_eq!(pos.move_name(m), "h2e2");
//! assert_eq!(wxf::write(&pos, m), "C2=5");
//! ```

use super::{
    descriptive::{self, Direction, Marker, Pattern, describe, marker},
    iccs::MoveError,
};
use crate::{
    geometry::Standard,
    position::Position,
    types::{Move, Role},
};

/// Writes a legal move in WXF.
pub fn write(pos: &Position<Standard>, m: Move) -> String {
    let Some(d) = describe(pos, m) else { return pos.move_name(m) };
    let letter = d.role.wxf_char();
    let head = match marker(&d) {
        None => format!("{letter}{}", d.file),
        Some(mk) if d.role == Role::Soldier && d.soldier_files => match mk {
            Marker::Front => format!("{}+", d.file),
            Marker::Rear => format!("{}-", d.file),
            _ => format!("{0}{0}", d.file),
        },
        Some(Marker::Front) => format!("{letter}+"),
        Some(Marker::Rear) => format!("{letter}-"),
        Some(Marker::FrontMost) => "++".to_string(),
        Some(Marker::RearMost) => "--".to_string(),
        Some(Marker::Middle | Marker::Nth(_) | Marker::First | Marker::Last | Marker::Doubled) => {
            format!("{letter}{}", d.file)
        }
    };
    let op = match d.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '=',
    };
    format!("{head}{op}{}", d.target)
}

/// Reads a WXF move and returns the legal move it names.
///
/// # Errors
/// [`MoveError::Syntax`] for text that is not WXF; [`MoveError::Illegal`] when no
/// legal move fits; [`MoveError::Ambiguous`] when several do.
pub fn parse(pos: &Position<Standard>, text: &str) -> Result<Move, MoveError> {
    let patterns = patterns(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
    let mut first_error = None;
    for p in &patterns {
        match descriptive::resolve(pos, p, text) {
            Ok(m) => return Ok(m),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| MoveError::Syntax(text.to_string())))
}

fn digit(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| (1..=9).contains(&d)).map(|d| d as u8)
}

/// The readings of a WXF text, most likely first.
fn patterns(text: &str) -> Option<Vec<Pattern>> {
    let chars: Vec<char> = text.trim().chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() < 3 || chars.len() > 5 {
        return None;
    }
    let (head, tail) = chars.split_at(chars.len() - 2);
    let direction = match tail[0] {
        '+' => Direction::Forward,
        '-' => Direction::Backward,
        '=' | '.' => Direction::Sideways,
        _ => return None,
    };
    let target = digit(tail[1])?;
    let base = Pattern { direction: Some(direction), target: Some(target), ..Pattern::default() };
    let with =
        |role: Option<Role>, file: Option<u8>, marker: Option<Marker>| Pattern { role, file, marker, ..base };
    let role_of = |c: char| if c.is_ascii_alphabetic() { Role::from_char(c) } else { None };
    let soldier = Some(Role::Soldier);
    Some(match head {
        // With three like soldiers on a file the middle one keeps the plain file digit.
        [l, f] if role_of(*l).is_some() && digit(*f).is_some() => {
            vec![with(role_of(*l), digit(*f), None), with(role_of(*l), digit(*f), Some(Marker::Middle))]
        }
        [l, '+'] if role_of(*l).is_some() => vec![with(role_of(*l), None, Some(Marker::Front))],
        [l, '-'] if role_of(*l).is_some() => vec![with(role_of(*l), None, Some(Marker::Rear))],
        // The tandem marker before the letter, as some archives write it: `+C=5`.
        ['+', l] if role_of(*l).is_some() => vec![with(role_of(*l), None, Some(Marker::Front))],
        ['-', l] if role_of(*l).is_some() => vec![with(role_of(*l), None, Some(Marker::Rear))],
        ['+', '+'] => vec![with(soldier, None, Some(Marker::FrontMost))],
        ['-', '-'] => vec![with(soldier, None, Some(Marker::RearMost))],
        [f, '+'] if digit(*f).is_some() => vec![with(soldier, digit(*f), Some(Marker::Front))],
        [f, '-'] if digit(*f).is_some() => vec![with(soldier, digit(*f), Some(Marker::Rear))],
        // `77` names the middle soldier only where WXF writes it; `17`, `27`, ... and
        // a doubled digit anywhere else count from the front.
        [a, b] if a == b && digit(*a).is_some() => vec![with(soldier, digit(*b), Some(Marker::Doubled))],
        [a, b] if digit(*a).is_some() && digit(*b).is_some() => {
            vec![with(soldier, digit(*b), Some(Marker::Nth(digit(*a)?)))]
        }
        // A marker after the letter and file digit (`P3+` style), or a tandem
        // marker doubled after a letter (`P++` for the front-most soldier).
        [l, '+', '+'] if role_of(*l).is_some() => vec![with(role_of(*l), None, Some(Marker::FrontMost))],
        [l, '-', '-'] if role_of(*l).is_some() => vec![with(role_of(*l), None, Some(Marker::RearMost))],
        [l, f, '+'] if role_of(*l).is_some() && digit(*f).is_some() => {
            vec![with(role_of(*l), digit(*f), Some(Marker::Front))]
        }
        [l, f, '-'] if role_of(*l).is_some() && digit(*f).is_some() => {
            vec![with(role_of(*l), digit(*f), Some(Marker::Rear))]
        }
        _ => return None,
    })
}
