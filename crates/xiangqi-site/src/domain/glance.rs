//! Games as lists show them: the row, whether the side to move is in check
//! (read from the position the row holds) and the last move. A list of games
//! costs one query for all their last moves, not a replay of each game.

use xiangqi::Color;

use super::{
    board::Board,
    games::Loaded,
    refusal::{Error, Result},
};

use crate::model::games::GameRecord;
use crate::model::page::{Page, Paged};
use crate::model::{GameStatus, clock::ClockSpec};
use crate::store::Store;

/// A game seen in a list.
pub struct Glance {
    pub row: GameRecord,
    pub turn: Color,
    pub check: bool,
    pub last_move: Option<String>,
}

impl Glance {
    pub fn is_active(&self) -> bool {
        self.row.status == GameStatus::Active
    }

    /// The correspondence deadline of the side to move.
    pub fn deadline(&self) -> Option<i64> {
        match self.row.clock {
            ClockSpec::Correspondence { .. } if self.is_active() => {
                self.row.clock.per_move_ms().map(|per_move| self.row.turn_started_ms + per_move)
            }
            _ => None,
        }
    }

    pub fn player(&self, c: Color) -> &str {
        match c {
            Color::Red => &self.row.red,
            Color::Black => &self.row.black,
        }
    }
}

impl From<&Loaded> for Glance {
    fn from(g: &Loaded) -> Self {
        Glance {
            row: g.row.clone(),
            turn: g.turn(),
            check: g.game.is_check(),
            last_move: g.moves.last().map(|m| m.iccs.clone()),
        }
    }
}

/// The short views of games that lists show: a user's games, games being
/// played now, finished games.
pub struct Glances {
    store: Store,
}

impl Glances {
    pub fn new(store: Store) -> Self {
        Glances { store }
    }

    /// The glances of stored games, in their order.
    pub async fn glances(&self, rows: Vec<GameRecord>) -> Result<Vec<Glance>> {
        let wanted: Vec<(String, i64)> =
            rows.iter().filter(|r| r.ply > 0).map(|r| (r.id.clone(), r.ply)).collect();
        let last = self.store.last_moves(&wanted).await?;
        rows.into_iter()
            .map(|row| {
                let board = Board::from_fen(row.variant, &row.fen, row.rules).map_err(|e| {
                    Error::broken(format!("stored position of {} is unreadable: {e}", row.id))
                })?;
                let last_move = last.get(&row.id).cloned();
                Ok(Glance { turn: board.turn(), check: board.is_check(), last_move, row })
            })
            .collect()
    }
}

/// A player's games being played, split by whose move it is, and the key of
/// the next page.
pub struct Playing {
    pub my_turn: Vec<Glance>,
    pub their_turn: Vec<Glance>,
    pub next: Option<String>,
}

impl Glances {
    /// A page of `me`'s games being played, split by whose move it is.
    pub async fn playing(&self, me: &str, page: &Page) -> Result<Playing> {
        let page = self.store.playing_games_of(me, page).await?;
        let (mut my_turn, mut their_turn) = (Vec::new(), Vec::new());
        for g in self.glances(page.items).await? {
            let list = if g.player(g.turn) == me { &mut my_turn } else { &mut their_turn };
            list.push(g);
        }
        Ok(Playing { my_turn, their_turn, next: page.next })
    }

    /// A player's first page of games being played and a page of finished ones.
    pub async fn my_games(
        &self,
        me: &str,
        playing: &Page,
        finished: &Page,
    ) -> Result<(Playing, Paged<Glance>)> {
        tokio::try_join!(self.playing(me, playing), self.finished_glances(me, finished))
    }

    /// A page of a player's finished games, newest first.
    pub async fn finished_glances(&self, name: &str, page: &Page) -> Result<Paged<Glance>> {
        let page = self.store.finished_games_of(name, page).await?;
        Ok(Paged { items: self.glances(page.items).await?, next: page.next })
    }

    /// A page of the games being played that anyone may watch.
    pub async fn live_glances(&self, page: &Page) -> Result<Paged<Glance>> {
        let page = self.store.live_games(page).await?;
        Ok(Paged { items: self.glances(page.items).await?, next: page.next })
    }
}
