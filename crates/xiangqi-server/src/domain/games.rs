//! Games: whose turn it is, the submit of a move, resignation, draw offers and
//! time. The rules crate decides what is legal and how a game ends; this module
//! decides who may act and keeps the clocks. Every rule takes the moment `now`
//! as an argument, so it is tested without waiting.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use xiangqi::{Color, Outcome, Reason, RuleSet, Variant};

use super::{
    Services,
    board::{Board, MoveNames, start_fen},
    clock::ClockSpec,
    computer,
    lobby::Terms,
    model::{DrawAction, GameStatus, NoticeKind, SideChoice},
    ratings::{Category, rate},
};
use crate::{
    error::{ApiError, ApiResult},
    store::{ChallengeRow, GameResult, GameRow, MoveRow, Page, Written},
};

/// What a game's moves make of it: the moves, the game replayed on its board
/// and every move's written names. Moves are only ever added, so this part of
/// a game read once stays right while the game's ply count is the same.
#[derive(Clone)]
struct Played {
    moves: Arc<Vec<MoveRow>>,
    game: Arc<Board>,
    names: Arc<Vec<MoveNames>>,
}

/// Played games by id, reused while their ply count matches the database.
#[derive(Default)]
pub struct GameCache(Mutex<HashMap<String, Played>>);

/// A game as loaded: its row, its moves, the replayed game on its board and
/// the written names of every move (in the order played).
pub struct Loaded {
    pub row: GameRow,
    pub moves: Arc<Vec<MoveRow>>,
    pub game: Arc<Board>,
    pub names: Arc<Vec<MoveNames>>,
}

impl Loaded {
    pub fn turn(&self) -> Color {
        self.game.turn()
    }

    pub fn is_active(&self) -> bool {
        self.row.status == GameStatus::Active
    }

    pub fn player(&self, c: Color) -> &str {
        match c {
            Color::Red => &self.row.red,
            Color::Black => &self.row.black,
        }
    }

    /// The colour `user` plays here, if any.
    pub fn color_of(&self, user: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.player(c) == user)
    }

    /// Time left for a side at `now` (live games), counting the running clock.
    pub fn time_left(&self, c: Color, now: i64) -> i64 {
        let stored = match c {
            Color::Red => self.row.red_ms,
            Color::Black => self.row.black_ms,
        };
        if self.is_active() && self.turn() == c { stored - (now - self.row.turn_started_ms) } else { stored }
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

    /// Whether the game may still be aborted: a side has yet to make its first move.
    pub fn abortable(&self) -> bool {
        self.is_active() && self.row.ply < 2
    }

    /// Whether the side to move has run out of time (clock or correspondence deadline).
    pub fn out_of_time(&self, now: i64) -> bool {
        match self.row.clock {
            ClockSpec::Live { .. } => self.time_left(self.turn(), now) <= 0,
            ClockSpec::Correspondence { .. } => self.deadline().is_some_and(|d| now > d),
        }
    }

    /// The game record as PGN (WXF moves on the standard board, cell names on
    /// the hex board), with the date it started and its time control.
    pub fn pgn(&self) -> String {
        let mut tags =
            vec![("Event", "xiangqi server game".to_string()), ("Site", format!("game {}", self.row.id))];
        if let Ok(start) = time::OffsetDateTime::from_unix_timestamp(self.row.created_ms.div_euclid(1000)) {
            let (y, m, d) = (start.year(), u8::from(start.month()), start.day());
            tags.push(("Date", format!("{y:04}.{m:02}.{d:02}")));
            let (h, min, s) = start.time().as_hms();
            tags.push(("Time", format!("{h:02}:{min:02}:{s:02}")));
        }
        tags.push(("Red", self.row.red.clone()));
        tags.push(("Black", self.row.black.clone()));
        tags.push(("TimeControl", self.row.clock.pgn_tag()));
        if let Some(o) = self.row.outcome {
            tags.push(("Result", o.result().to_string()));
            tags.push(("Termination", o.reason.to_string()));
        }
        self.game.pgn(&tags)
    }
}

/// A new game row between two players, from the start of the variant's board.
pub fn new_game_row(
    id: String,
    red: &str,
    black: &str,
    (variant, rules): (Variant, RuleSet),
    clock: ClockSpec,
    now: i64,
) -> GameRow {
    let start = start_fen(variant);
    let (base, _) = match clock {
        ClockSpec::Live { base, increment } => (base, increment),
        ClockSpec::Correspondence { .. } => (0, 0),
    };
    GameRow {
        id,
        red: red.to_string(),
        black: black.to_string(),
        variant,
        rules,
        start_fen: start.clone(),
        clock,
        ply: 0,
        version: 1,
        fen: start,
        status: GameStatus::Active,
        outcome: None,
        red_ms: base,
        black_ms: base,
        turn_started_ms: now,
        draw_offer: None,
        rated: true,
        ladder: None,
        tournament: None,
        created_ms: now,
        updated_ms: now,
    }
}

impl Services {
    /// Loads a game: its row always from the database; its moves, board and
    /// move names from the cache while the row's ply count matches what was
    /// played there, else read and replayed with the rules crate.
    pub async fn load_game(&self, id: &str) -> ApiResult<Loaded> {
        let row = self.store.game(id).await?.ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let cached = self.cache.0.lock().ok().and_then(|c| c.get(id).cloned());
        let played = match cached {
            Some(p) if p.moves.len() as i64 == row.ply && p.game.ply_count() as i64 == row.ply => p,
            _ => {
                let mut moves = self.store.moves(id).await?;
                // The moves are read after the row: a move committed in between is not
                // part of this state yet.
                moves.truncate(row.ply.max(0) as usize);
                let game = replay(&row, &moves)?;
                let names = game.all_names();
                let p = Played { moves: Arc::new(moves), game: Arc::new(game), names: Arc::new(names) };
                self.remember(id, p.clone());
                p
            }
        };
        Ok(Loaded { row, moves: played.moves, game: played.game, names: played.names })
    }

    fn remember(&self, id: &str, played: Played) {
        if let Ok(mut c) = self.cache.0.lock() {
            if c.len() > 10_000 {
                c.clear();
            }
            c.insert(id.to_string(), played);
        }
    }

    /// Submits the move number `ply + 1` of a game for `user`.
    pub async fn submit_move(
        &self,
        user: &str,
        id: &str,
        ply: i64,
        text: &str,
        now: i64,
    ) -> ApiResult<Loaded> {
        let loaded = self.load_game(id).await?;
        let color =
            loaded.color_of(user).ok_or_else(|| ApiError::forbidden("you are not playing in this game"))?;
        if !loaded.is_active() {
            return Err(ApiError::conflict("the game is over"));
        }
        // A stale ply first: a second submit of the same move is a conflict, not a turn error.
        if ply != loaded.row.ply {
            return Err(ApiError::conflict(format!(
                "the game is at {} moves, not {ply}: the move was made already; reload the game",
                loaded.row.ply
            )));
        }
        if color != loaded.turn() {
            return Err(ApiError::forbidden("it is not your turn"));
        }
        if loaded.row.clock.is_live() && loaded.out_of_time(now) {
            self.time_out(&loaded, now).await?;
            return Err(ApiError::conflict("your time ran out"));
        }
        let m = loaded.game.parse_legal(text).map_err(ApiError::illegal_move)?;
        let names = loaded.game.names(m);
        let record = MoveRow {
            game_id: id.to_string(),
            ply: ply + 1,
            iccs: names.iccs.clone(),
            wxf: names.wxf.clone(),
            at_ms: now,
        };
        let mut game = (*loaded.game).clone();
        game.play(m).map_err(ApiError::illegal_move)?;
        let mut after = loaded.row.clone();
        after.ply += 1;
        after.version += 1;
        after.fen = game.fen();
        after.draw_offer = None;
        after.updated_ms = now;
        if let ClockSpec::Live { increment, .. } = loaded.row.clock {
            let left = loaded.time_left(color, now) + increment;
            match color {
                Color::Red => after.red_ms = left,
                Color::Black => after.black_ms = left,
            }
        }
        after.turn_started_ms = now;
        if let Some(o) = game.outcome() {
            after.status = GameStatus::Finished;
            after.outcome = Some(o);
        }
        if self.store.record_move(&loaded.row, &after, &record).await? == Written::Stale {
            return Err(ApiError::conflict("another move was made at the same moment; reload the game"));
        }
        let mut moves = Vec::clone(&loaded.moves);
        moves.push(record);
        let mut all_names = Vec::clone(&loaded.names);
        all_names.push(names);
        let played = Played { moves: Arc::new(moves), game: Arc::new(game), names: Arc::new(all_names) };
        self.remember(id, played.clone());
        let done = Loaded { row: after, moves: played.moves, game: played.game, names: played.names };
        self.after_change(&done, true).await?;
        Ok(done)
    }

    /// Ends a game for a reason off the board (or a time forfeit).
    pub async fn finish(&self, loaded: &Loaded, outcome: Outcome, now: i64) -> ApiResult<Loaded> {
        self.end(loaded, Some(outcome), now).await
    }

    /// Ends a game with an outcome, or aborts it (no outcome).
    async fn end(&self, loaded: &Loaded, outcome: Option<Outcome>, now: i64) -> ApiResult<Loaded> {
        let mut after = loaded.row.clone();
        after.status = if outcome.is_some() { GameStatus::Finished } else { GameStatus::Aborted };
        after.outcome = outcome;
        after.version += 1;
        after.draw_offer = None;
        if loaded.row.clock.is_live() {
            let turn = loaded.turn();
            let left = loaded.time_left(turn, now).max(0);
            match turn {
                Color::Red => after.red_ms = left,
                Color::Black => after.black_ms = left,
            }
        }
        after.updated_ms = now;
        if self.store.update_game(&loaded.row, &after).await? == Written::Stale {
            return Err(ApiError::conflict("the game changed meanwhile; reload it"));
        }
        let done = Loaded {
            row: after,
            moves: loaded.moves.clone(),
            game: loaded.game.clone(),
            names: loaded.names.clone(),
        };
        self.after_change(&done, false).await?;
        Ok(done)
    }

    /// Calls a game off while a side has yet to make its first move: no result, not rated.
    pub async fn abort(&self, user: &str, id: &str, now: i64) -> ApiResult<Loaded> {
        let (loaded, _) = self.active_game_of(user, id).await?;
        if loaded.row.tournament.is_some() {
            return Err(ApiError::conflict(
                "a tournament game cannot be aborted; resign to give up the point",
            ));
        }
        if !loaded.abortable() {
            return Err(ApiError::conflict("both sides have moved: the game can no longer be aborted"));
        }
        self.end(&loaded, None, now).await
    }

    /// Offers the opponent a rematch of a game that is over: the same rules and
    /// clock with colours swapped. If the opponent has already offered one, it is
    /// accepted and the new game starts (`Ok`); else the offer waits (`Err`).
    pub async fn rematch(&self, user: &str, id: &str, now: i64) -> ApiResult<Result<Loaded, ChallengeRow>> {
        let loaded = self.load_game(id).await?;
        let me = loaded.color_of(user).ok_or_else(|| ApiError::forbidden("you did not play in this game"))?;
        if loaded.is_active() {
            return Err(ApiError::conflict("the game is still being played"));
        }
        let opponent = loaded.player(!me).to_string();
        if let Some(level) = computer::level_of(&opponent) {
            // The computer always takes a rematch: the new game starts now.
            let level = level.number();
            let color = if me == Color::Red { SideChoice::Black } else { SideChoice::Red };
            let terms = (loaded.row.variant, loaded.row.rules);
            return Ok(Ok(self.play_computer(user, level, terms, color, loaded.row.clock, now).await?));
        }
        if let Some(theirs) = self.store.rematch_from(id, &opponent).await? {
            return Ok(Ok(self.accept_challenge(user, &theirs.id, now).await?));
        }
        if let Some(mine) = self.store.rematch_from(id, user).await? {
            return Ok(Err(mine));
        }
        let terms = Terms {
            opponent: Some(opponent),
            variant: loaded.row.variant,
            rules: loaded.row.rules,
            color: if me == Color::Red { SideChoice::Black } else { SideChoice::Red },
            clock: loaded.row.clock,
            rematch_of: Some(id.to_string()),
            rated: loaded.row.rated,
            ladder: None,
        };
        Ok(Err(self.create_challenge(user, terms, false, now).await?))
    }

    pub async fn resign(&self, user: &str, id: &str, now: i64) -> ApiResult<Loaded> {
        let (loaded, me) = self.active_game_of(user, id).await?;
        self.finish(&loaded, Outcome::win(!me, Reason::Resignation), now).await
    }

    pub async fn draw(&self, user: &str, id: &str, action: DrawAction, now: i64) -> ApiResult<Loaded> {
        let (loaded, me) = self.active_game_of(user, id).await?;
        let offer = loaded.row.draw_offer;
        let from_opponent = offer == Some(!me);
        let mut after = loaded.row.clone();
        match action {
            DrawAction::Offer if offer == Some(me) => {
                return Err(ApiError::conflict("you have already offered a draw"));
            }
            // Offering when the opponent already has is agreeing.
            DrawAction::Offer | DrawAction::Accept if from_opponent => {
                return self.finish(&loaded, Outcome::draw(Reason::Agreement), now).await;
            }
            DrawAction::Offer => after.draw_offer = Some(me),
            DrawAction::Decline if from_opponent => {
                after.draw_offer = None;
                self.notify(loaded.player(!me), NoticeKind::DrawDeclined, Some(user), Some(id)).await;
            }
            DrawAction::Accept | DrawAction::Decline => {
                return Err(ApiError::conflict("there is no draw offer from your opponent"));
            }
        }
        after.version += 1;
        after.updated_ms = now;
        if self.store.update_game(&loaded.row, &after).await? == Written::Stale {
            return Err(ApiError::conflict("the game changed meanwhile; reload it"));
        }
        let done = Loaded { row: after, moves: loaded.moves, game: loaded.game, names: loaded.names };
        self.after_change(&done, false).await?;
        self.computer_draw_offer(&done);
        Ok(done)
    }

    /// A win claimed because the opponent's clock or deadline ran out.
    pub async fn claim(&self, user: &str, id: &str, now: i64) -> ApiResult<Loaded> {
        let (loaded, me) = self.active_game_of(user, id).await?;
        if loaded.turn() == me || !loaded.out_of_time(now) {
            return Err(ApiError::conflict("your opponent still has time"));
        }
        self.time_out(&loaded, now).await
    }

    /// The side to move ran out of time, and loses (a player who never makes a
    /// first move loses too: the opponent waited for them).
    pub(super) async fn time_out(&self, loaded: &Loaded, now: i64) -> ApiResult<Loaded> {
        self.finish(loaded, Outcome::win(!loaded.turn(), Reason::TimeForfeit), now).await
    }

    /// A game being played, and the colour `user` plays in it.
    async fn active_game_of(&self, user: &str, id: &str) -> ApiResult<(Loaded, Color)> {
        let loaded = self.load_game(id).await?;
        let me =
            loaded.color_of(user).ok_or_else(|| ApiError::forbidden("you are not playing in this game"))?;
        if !loaded.is_active() {
            return Err(ApiError::conflict("the game is over"));
        }
        Ok((loaded, me))
    }

    /// Ends every live game whose side to move has run out of time at `now`.
    pub async fn flag_games(&self, now: i64) -> ApiResult<usize> {
        let mut flagged = 0;
        let mut page = Page::first(Page::MAX);
        loop {
            let batch = self.store.active_live_games(&page).await?;
            for row in batch.items {
                let loaded = self.load_game(&row.id).await?;
                if loaded.out_of_time(now) && self.time_out(&loaded, now).await.is_ok() {
                    flagged += 1;
                }
            }
            match batch.next {
                Some(next) => page.after = Some(next),
                None => return Ok(flagged),
            }
        }
    }

    /// Publishes a change; after a move, tells the player whose move it is; at
    /// the end of a game, updates the ratings.
    async fn after_change(&self, loaded: &Loaded, moved: bool) -> ApiResult<()> {
        if loaded.is_active() && moved {
            let to_move = loaded.player(loaded.turn()).to_string();
            self.notify(&to_move, NoticeKind::YourMove, None, Some(&loaded.row.id)).await;
        } else if loaded.row.status == GameStatus::Finished {
            self.rate(loaded).await?;
            self.ladder_game_over(loaded).await?;
            self.tournament_game_over(loaded).await?;
        }
        self.publish_game(loaded).await;
        if moved {
            self.computer_turn(loaded);
        }
        Ok(())
    }

    /// Counts a finished game in both records and, if it was rated, moves both
    /// players' Glicko-2 ratings in its category.
    async fn rate(&self, loaded: &Loaded) -> ApiResult<()> {
        let r = &loaded.row;
        let winner = r.outcome.and_then(|o| o.winner);
        let rated = if r.rated {
            let category = Category::of(r.variant, r.clock);
            let red = self.store.rating(&r.red, category).await?;
            let black = self.store.rating(&r.black, category).await?;
            let (red, black) = rate(&red, &black, winner);
            Some((category, red, black))
        } else {
            None
        };
        let result =
            GameResult { game: &r.id, red: &r.red, black: &r.black, winner, rated, at_ms: r.updated_ms };
        self.store.record_result(&result).await?;
        Ok(())
    }
}

fn replay(row: &GameRow, moves: &[MoveRow]) -> ApiResult<Board> {
    let mut game = Board::from_fen(row.variant, &row.start_fen, row.rules)
        .map_err(|e| ApiError::internal(format!("stored start position is unreadable: {e}")))?;
    for m in moves {
        game.play_name(&m.iccs)
            .map_err(|e| ApiError::internal(format!("stored move {} is unplayable: {e}", m.ply)))?;
    }
    Ok(game)
}
