//! The games database and the opening explorer. Finished games are found by
//! player, opponent, result, reason, rule set, board, pace, rated or not, date
//! and by a position reached (or the moves from the start that lead to it).
//! The explorer tells what was played from a position, how often and how it
//! went, counted by position (transpositions meet) over the first [`PLIES`]
//! moves of each game, once per game; the counts are written in the
//! transaction that finishes the game, so they never drift from the games.
//! A user's imported games count in an explorer of their own.

use std::sync::Arc;

use xiangqi::RuleSet;

use super::{
    board::Board,
    glance::{Glance, Glances},
    refusal::{Refusal, Result},
};

use crate::model::page::{Page, Paged};
use crate::model::{board::BoardSpec, games::GameRecord};
use crate::model::{
    explorer::{GameSearch, Speed},
    named_enum,
};
use crate::store::{Explored, ExplorerAsk, ExplorerRow, Store};

/// How many plies of each game the explorer and the search by position count.
pub const PLIES: usize = 40;

/// What a finished game gives the explorer.
pub fn explored(row: &GameRecord, board: &Board) -> Explored {
    let (steps, reached) = board.opening(PLIES);
    Explored { rules: row.rules, speed: Speed::of(row.clock), steps, reached }
}

impl GameSearch {
    /// The search as the store runs it: with the key of the position `at`
    /// names (if it names one), and an opponent without a player taken as
    /// either side's player.
    pub fn at(mut self, at: &PositionAsk) -> Result<GameSearch> {
        if let Some(board) = at.board()? {
            self.pos_key = Some(board.position_key());
        }
        if self.opponent.is_some() && self.player.is_none() {
            self.player = self.opponent.take();
        }
        Ok(self)
    }
}

/// Where the search by position or the explorer starts: a FEN, or moves from
/// the start of a board (ICCS or any notation the board reads, by spaces).
#[derive(Clone, Debug, Default)]
pub struct PositionAsk {
    /// The board, its rules and the position the moves start from.
    pub start: BoardSpec,
    pub moves: Option<String>,
}

/// Most moves a line from the start may hold.
const MOST_MOVES: usize = PLIES;

impl PositionAsk {
    /// The board the position is on, with the position reached; none if
    /// neither a FEN nor moves were given.
    pub fn board(&self) -> Result<Option<Board>> {
        if self.start.fen.is_none() && self.moves.as_deref().is_none_or(|m| m.trim().is_empty()) {
            return Ok(None);
        }
        self.reached().map(Some)
    }

    /// The position reached: the start's, with the moves played on from it.
    pub fn reached(&self) -> Result<Board> {
        let mut board = Board::from_spec(&self.start)?;
        let words: Vec<&str> = self.moves.as_deref().unwrap_or("").split_whitespace().collect();
        if words.len() > MOST_MOVES {
            return Err(Refusal::LineLength { max: MOST_MOVES as u32 }.into());
        }
        for (i, w) in words.iter().enumerate() {
            let m = board.parse_legal(w).map_err(|why| Refusal::IllegalMove {
                text: (*w).to_string(),
                why,
                number: Some(i as u32 + 1),
            })?;
            board.play(m).map_err(|detail| Refusal::BadPosition { detail })?;
        }
        Ok(board)
    }
}

/// A move from a position as the explorer tells it, with its written forms.
#[derive(Clone, Debug)]
pub struct ExplorerMove {
    pub row: ExplorerRow,
    pub wxf: String,
    pub chinese: String,
}

/// The explorer's filters.
#[derive(Clone, Debug)]
pub struct ExplorerFilters {
    pub rules: Option<RuleSet>,
    pub speed: Option<Speed>,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// Whose games are counted.
    pub source: ExplorerSource,
}

named_enum! {
    /// Whose games the explorer counts.
    "an explorer source" ExplorerSource {
        /// Every finished game played here.
        Site = "site",
        /// The asker's own imported games.
        Mine = "mine",
        /// The site's Masters collection of real games.
        Masters = "masters",
    }
}

/// The opening explorer and the search of the site's games.
pub struct Explorer {
    store: Store,
    glances: Arc<Glances>,
}

impl Explorer {
    pub fn new(store: Store, glances: Arc<Glances>) -> Self {
        Explorer { store, glances }
    }

    /// A page of finished games that match a search, the most recently ended first.
    pub async fn search_games(
        &self,
        search: GameSearch,
        at: &PositionAsk,
        page: &Page,
    ) -> Result<Paged<Glance>> {
        let found = self.store.search_games(&search.at(at)?, page).await?;
        Ok(Paged { items: self.glances.glances(found.items).await?, next: found.next })
    }

    /// The moves played from a position, the most played first, with how
    /// their games went: from the site's games or from `user`'s imported ones.
    pub async fn explore(
        &self,
        user: Option<&str>,
        at: &PositionAsk,
        filters: &ExplorerFilters,
    ) -> Result<(Board, Vec<ExplorerMove>)> {
        let board = at.reached()?;
        let owner = match (filters.source, user) {
            (ExplorerSource::Site, _) => String::new(),
            (ExplorerSource::Masters, _) => crate::store::MASTERS.to_string(),
            (ExplorerSource::Mine, Some(u)) => u.to_string(),
            (ExplorerSource::Mine, None) => return Err(Refusal::LogInFirst {}.into()),
        };
        let ask = ExplorerAsk {
            owner,
            pos_key: board.position_key(),
            rules: filters.rules,
            speed: filters.speed,
            min_rating: filters.min_rating,
            max_rating: filters.max_rating,
        };
        let rows = self.store.explorer(&ask).await?;
        let moves = rows
            .into_iter()
            .filter_map(|row| {
                // A move stored from a position with the same key is legal
                // here; one that is not (a key collision) is left out.
                let m = board.parse_legal(&row.mv).ok()?;
                let names = board.names(m);
                Some(ExplorerMove { row, wxf: names.wxf, chinese: names.chinese })
            })
            .collect();
        Ok((board, moves))
    }
}
