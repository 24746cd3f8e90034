//! Chinese notation (`炮二平五`, `马8进7`): piece, origin file, 进 (forward),
//! 退 (back) or 平 (sideways), then the new file or the number of steps.
//!
//! Red's files and counts are written in Chinese numerals (一 to 九), Black's in
//! digits. Like pieces on one file are 前 (front) and 后 (rear), with 中 for the
//! middle of three; four or five soldiers are 前, 二, 三, 四 and 后 from the front;
//! when two files each hold two or more soldiers the file replaces the piece
//! (`前七平六`). Moves are written in simplified characters (帅仕相马车炮兵 for
//! Red, 将士象马车炮卒 for Black); reading also takes traditional forms (帥將俥車傌
//! 馬砲包進後), full-width digits and either numeral style for either side.
//!
//! ```
//! use xiangqi::{Position, Standard, notation::chinese};
//!
//! let pos = Position::<Standard>::startpos();
//! let m = chinese::parse(&pos, "炮二平五").unwrap();
//! assert_eq!(pos.move_name(m), "h2e2");
//! assert_eq!(chinese::write(&pos, m), "炮二平五");
//! ```

use super::{
    descriptive::{self, Direction, Marker, Pattern, describe, marker},
    iccs::MoveError,
};
use crate::{
    geometry::Standard,
    position::Position,
    types::{Color, Move, Role},
};

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn piece_char(color: Color, role: Role) -> char {
    match (color, role) {
        (Color::Red, Role::General) => '帅',
        (Color::Black, Role::General) => '将',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Black, Role::Advisor) => '士',
        (Color::Red, Role::Elephant) => '相',
        (Color::Black, Role::Elephant) => '象',
        (_, Role::Horse) => '马',
        (_, Role::Chariot) => '车',
        (_, Role::Cannon) => '炮',
        (Color::Red, Role::Soldier) => '兵',
        (Color::Black, Role::Soldier) => '卒',
    }
}

fn role_of(c: char) -> Option<Role> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Role::General,
        '仕' | '士' => Role::Advisor,
        '相' | '象' => Role::Elephant,
        '马' | '馬' | '傌' => Role::Horse,
        '车' | '車' | '俥' => Role::Chariot,
        '炮' | '砲' | '包' => Role::Cannon,
        '兵' | '卒' => Role::Soldier,
        _ => return None,
    })
}

fn number_of(c: char) -> Option<u8> {
    if let Some(i) = NUMERALS.iter().position(|&n| n == c) {
        return Some(i as u8 + 1);
    }
    let ascii = match c {
        '１'..='９' => char::from_u32(c as u32 - '１' as u32 + '1' as u32)?,
        c => c,
    };
    ascii.to_digit(10).filter(|&d| (1..=9).contains(&d)).map(|d| d as u8)
}

fn number(color: Color, n: u8) -> String {
    match color {
        Color::Red => NUMERALS[(n as usize).clamp(1, 9) - 1].to_string(),
        Color::Black => n.to_string(),
    }
}

/// The front-to-rear name of a soldier among four or five on a file.
fn ordinal(index: u8, count: u8) -> char {
    match index {
        0 => '前',
        i if i + 1 == count => '后',
        i => NUMERALS[i as usize],
    }
}

/// Writes a legal move in Chinese notation.
pub fn write(pos: &Position<Standard>, m: Move) -> String {
    let Some(d) = describe(pos, m) else { return pos.move_name(m) };
    let color = pos.turn();
    let piece = piece_char(color, d.role);
    let tandem = match marker(&d) {
        None => None,
        Some(_) if d.count == 3 && d.index == 1 => Some('中'),
        Some(_) => Some(ordinal(d.index, d.count)),
    };
    let head = match tandem {
        None => format!("{piece}{}", number(color, d.file)),
        Some(t) if d.role == Role::Soldier && d.soldier_files => format!("{t}{}", number(color, d.file)),
        Some(t) => format!("{t}{piece}"),
    };
    let op = match d.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    };
    format!("{head}{op}{}", number(color, d.target))
}

/// Reads a move in Chinese notation and returns the legal move it names.
///
/// # Errors
/// [`MoveError::Syntax`] for text that is not Chinese notation;
/// [`MoveError::Illegal`] when no legal move fits; [`MoveError::Ambiguous`] when
/// several do.
pub fn parse(pos: &Position<Standard>, text: &str) -> Result<Move, MoveError> {
    let pattern = pattern(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
    descriptive::resolve(pos, &pattern, text)
}

fn pattern(text: &str) -> Option<Pattern> {
    let chars: Vec<char> = text.trim().chars().filter(|c| !c.is_whitespace()).collect();
    let [a, b, op, target] = chars[..] else { return None };
    let direction = match op {
        '进' | '進' => Direction::Forward,
        '退' => Direction::Backward,
        '平' => Direction::Sideways,
        _ => return None,
    };
    let mut p =
        Pattern { direction: Some(direction), target: Some(number_of(target)?), ..Pattern::default() };
    let marker_of = |c: char| match c {
        '前' => Some(Marker::First),
        '后' | '後' => Some(Marker::Last),
        '中' => Some(Marker::Middle),
        _ => None,
    };
    match (role_of(a), marker_of(a), number_of(a)) {
        (Some(role), _, _) => {
            p.role = Some(role);
            p.file = Some(number_of(b)?);
        }
        (None, Some(m), _) => {
            p.marker = Some(m);
            match role_of(b) {
                Some(role) => p.role = Some(role),
                None => {
                    p.role = Some(Role::Soldier);
                    p.file = Some(number_of(b)?);
                }
            }
        }
        (None, None, Some(n)) => {
            // 二兵, 三卒: the n-th soldier from the front.
            if role_of(b) != Some(Role::Soldier) {
                return None;
            }
            p.role = Some(Role::Soldier);
            p.marker = Some(Marker::Nth(n));
        }
        _ => return None,
    }
    Some(p)
}
