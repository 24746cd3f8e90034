//! The evaluation's weights: one flat, named vector, so that the tuner can move
//! every weight the same way and the evaluation reads them by name.
//!
//! Each weight that differs between the middle game and the endgame comes as a
//! pair (`_mg`, `_eg`); the evaluation blends them by the material left.
//! The defaults are the output of `tune fit` on positions scored by a stronger
//! engine's search (see the crate's README); the names say what each one scales.

macro_rules! params {
    ($($name:ident = $value:expr),* $(,)?) => {
        /// Indices of the weights.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum P { $(#[doc = concat!("The weight `", stringify!($name), "`.")] $name),* }

        /// The names of the weights, in index order.
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];
        /// The default weights, in index order.
        pub const DEFAULTS: &[i32] = &[$($value),*];
    };
}

params! {
    // Material, by role (general excluded): advisor, elephant, horse, chariot, cannon, soldier.
    // Fitted to a stronger engine's scores, the cannon comes out well above the horse
    // in the middle game; fits to self-play results had them nearly equal, and the
    // engine traded cannons for horses that a stronger engine then outplayed.
    advisor_mg = 216, advisor_eg = 94,
    elephant_mg = 200, elephant_eg = 70,
    horse_mg = 286, horse_eg = 268,
    chariot_mg = 716, chariot_eg = 652,
    cannon_mg = 448, cannon_eg = 250,
    soldier_mg = 86, soldier_eg = 64,
    // Soldiers: after crossing the river, per row advanced beyond it, near the enemy
    // palace, and on the last row (where they can only move sideways).
    soldier_crossed_mg = 34, soldier_crossed_eg = 30,
    soldier_advance_mg = 38, soldier_advance_eg = -8,
    soldier_near_palace_mg = 14, soldier_near_palace_eg = 16,
    soldier_last_row_mg = -56, soldier_last_row_eg = -10,
    soldier_centre_mg = 12, soldier_centre_eg = 6,
    soldier_connected_mg = 20, soldier_connected_eg = -4,
    // Horses: centralised, advanced, close to the enemy palace, on an edge file.
    horse_centre_mg = -2, horse_centre_eg = -2,
    horse_advance_mg = 13, horse_advance_eg = 3,
    horse_near_palace_mg = 42, horse_near_palace_eg = -10,
    horse_edge_mg = -52, horse_edge_eg = -31,
    horse_back_row_mg = -42, horse_back_row_eg = -38,
    // Chariots: advanced, central, undeveloped on the back row.
    chariot_advance_mg = 12, chariot_advance_eg = -6,
    chariot_centre_mg = 12, chariot_centre_eg = 2,
    chariot_back_row_mg = 28, chariot_back_row_eg = -88,
    // Cannons: on the central file, advanced, at home.
    cannon_centre_file_mg = 58, cannon_centre_file_eg = -2,
    cannon_advance_mg = 10, cannon_advance_eg = -8,
    cannon_home_rows_mg = 24, cannon_home_rows_eg = -8,
    // General: off the back row, off the central file.
    general_raised_mg = -110, general_raised_eg = 12,
    general_side_mg = -102, general_side_eg = 8,
    // Advisors and elephants standing in the centre of their formation.
    advisor_centre_mg = 64, advisor_centre_eg = -2,
    elephant_centre_mg = 56, elephant_centre_eg = 6,
    // Mobility per reachable cell.
    horse_mobility_mg = 8, horse_mobility_eg = 0,
    chariot_mobility_mg = 5, chariot_mobility_eg = -2,
    cannon_mobility_mg = 3, cannon_mobility_eg = 3,
    horse_trapped_mg = 2, horse_trapped_eg = -116,
    // King safety: attacks on the palace by role, and the quadratic scale of their sum
    // (fits to self-play results left the scale at 12, which barely notices a mating
    // attack; fitted to a stronger engine's scores the attacks themselves weigh more).
    palace_attack_chariot = 14,
    palace_attack_horse = 14,
    palace_attack_cannon = 28,
    palace_attack_soldier = 29,
    king_danger_scale = 24,
    // Each advisor and elephant, per enemy attacking piece (chariot, horse, cannon).
    advisor_defence = 0,
    elephant_defence = -10,
    // Cannons lined up with the enemy general, by the number of screens between.
    cannon_no_screen_mg = 60, cannon_no_screen_eg = 12,
    cannon_one_screen_mg = 14, cannon_one_screen_eg = 8,
    cannon_two_screens_mg = -10, cannon_two_screens_eg = 82,
    // A chariot on an open line with the enemy general.
    chariot_open_line_mg = 22, chariot_open_line_eg = 12,
    tempo = 34,
}

/// The number of weights.
pub const COUNT: usize = DEFAULTS.len();

/// A full set of weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params(pub Vec<i32>);

impl Default for Params {
    fn default() -> Self {
        Params(DEFAULTS.to_vec())
    }
}

impl Params {
    /// The value of the weight `p`.
    #[inline]
    pub fn get(&self, p: P) -> i32 {
        self.0[p as usize]
    }

    /// A middle-game / endgame pair starting at `mg` (its `_eg` twin follows it).
    #[inline]
    pub fn pair(&self, mg: P) -> (i32, i32) {
        (self.0[mg as usize], self.0[mg as usize + 1])
    }

    /// Reads `name = value` lines (the tuner's output); `#` starts a comment.
    ///
    /// # Errors
    /// A message naming the line that is not `name = integer` or names no weight.
    pub fn parse(text: &str) -> Result<Params, String> {
        let mut params = Params::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (name, value) =
                line.split_once('=').ok_or_else(|| format!("line {}: expected name = value", n + 1))?;
            let i = NAMES
                .iter()
                .position(|k| *k == name.trim())
                .ok_or_else(|| format!("line {}: unknown weight {:?}", n + 1, name.trim()))?;
            params.0[i] = value
                .trim()
                .parse()
                .map_err(|_| format!("line {}: {:?} is not an integer", n + 1, value.trim()))?;
        }
        Ok(params)
    }

    /// Writes the weights as `name = value` lines.
    pub fn write(&self) -> String {
        NAMES.iter().zip(&self.0).map(|(k, v)| format!("{k} = {v}\n")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_adjacent() {
        for (i, name) in NAMES.iter().enumerate() {
            if let Some(stem) = name.strip_suffix("_mg") {
                assert_eq!(NAMES[i + 1], format!("{stem}_eg"));
            }
        }
    }

    #[test]
    fn weights_round_trip_through_text() {
        let mut p = Params::default();
        p.0[3] = -17;
        assert_eq!(Params::parse(&p.write()), Ok(p));
        assert!(Params::parse("nonsense = 3").is_err());
        assert!(Params::parse("tempo = x").is_err());
    }
}
