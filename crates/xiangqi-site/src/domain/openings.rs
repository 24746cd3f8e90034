//! Openings by name: every game, played here or imported, is classified by
//! the ECCO codes (`xiangqi_records::ecco`), its names given in four
//! languages by the table the API serves once. A game's code is written as
//! it is imported; games finished here, and any stored before names existed,
//! are named by a background pass that takes the unnamed ones a batch at a
//! time, so it resumes wherever it stopped.

use xiangqi::{Position, Standard, Variant};
use xiangqi_records::ecco::{self, Code, Opening};

use super::refusal::Result;
use crate::store::{NamedRows, OpeningCount, Store, Unnamed};

/// How many games or records one round of the pass names, of each kind.
pub const BATCH: i64 = 200;

/// The ECCO code of a game from `start_fen` with these moves (ICCS, by
/// spaces), or `""` when it has none: another start than the usual one, the
/// hex board, no move, or moves that cannot be read.
pub fn code_of(variant: Variant, start_fen: &str, moves: &str) -> String {
    if variant != Variant::Standard {
        return String::new();
    }
    let Ok(start) = Position::<Standard>::from_fen(start_fen) else { return String::new() };
    let mut pos = start.clone();
    let mut line = Vec::new();
    for word in moves.split_whitespace().take(ecco::PLIES) {
        let Ok(m) = pos.parse_move(word) else { break };
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
        line.push(m);
    }
    ecco::classify(&start, &line).map_or_else(String::new, |o| o.code.to_string())
}

/// The codes a search for an opening names: by code or code prefix (`C4`),
/// or by a name in any of the four languages.
pub fn codes_matching(text: &str) -> Vec<String> {
    ecco::search(text.trim()).map(|o| o.code.to_string()).collect()
}

/// The opening a code names, if the table has it.
pub fn opening(code: &str) -> Option<&'static Opening> {
    code.parse::<Code>().ok().and_then(ecco::by_code)
}

/// The names of games' openings and each player's openings.
pub struct Openings {
    store: Store,
}

impl Openings {
    pub fn new(store: Store) -> Self {
        Openings { store }
    }

    /// One round of the background pass: names up to [`BATCH`] unnamed
    /// finished games, imported games and Masters games each. How many it named.
    pub async fn name_openings(&self) -> Result<usize> {
        let mut count = 0;
        for kind in [NamedRows::Games, NamedRows::Imported, NamedRows::Masters] {
            let rows: Vec<Unnamed> = self.store.unnamed(kind, BATCH, ecco::PLIES as i64).await?;
            let named: Vec<(String, String)> = rows
                .into_iter()
                .map(|r| (code_of(r.variant, &r.start_fen, &r.moves), r.id))
                .map(|(c, id)| (id, c))
                .collect();
            count += named.len();
            self.store.name(kind, &named).await?;
        }
        Ok(count)
    }

    /// A player's finished games by opening and side, the most played first.
    pub async fn player_openings(&self, player: &str) -> Result<Vec<OpeningCount>> {
        Ok(self.store.player_openings(player, 20).await?)
    }
}
