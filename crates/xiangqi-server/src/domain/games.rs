//! Games: whose turn it is, the submit of a move, resignation, draw offers, time,
//! and the state every client sees. The rules crate decides what is legal and how
//! a game ends; this module decides who may act and keeps the clocks.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use serde_json::{Value, json};
use xiangqi::{
    Color, Game, Outcome, Position, Reason, RuleSet, Standard,
    notation::{self, pgn, wxf},
};

use super::{
    Services,
    clock::{ClockSpec, DAY_MS},
    now_ms,
};
use crate::{
    error::{ApiError, ApiResult},
    store::{GameRow, MoveRow, Written},
};

/// Replayed games by id, reused while their ply count matches the database.
#[derive(Default)]
pub struct GameCache(Mutex<HashMap<String, Arc<Game>>>);

/// A game as loaded: its row, its moves and the replayed rules-crate game.
pub struct Loaded {
    pub row: GameRow,
    pub moves: Vec<MoveRow>,
    pub game: Arc<Game>,
}

fn color_name(c: Color) -> &'static str {
    c.name()
}

fn parse_color(s: &str) -> Option<Color> {
    match s {
        "red" => Some(Color::Red),
        "black" => Some(Color::Black),
        _ => None,
    }
}

impl Loaded {
    pub fn turn(&self) -> Color {
        self.game.turn()
    }

    pub fn player(&self, c: Color) -> &str {
        match c {
            Color::Red => &self.row.red,
            Color::Black => &self.row.black,
        }
    }

    /// The colour `user` plays here, if any.
    pub fn color_of(&self, user: &str) -> Option<Color> {
        if self.row.red == user {
            Some(Color::Red)
        } else if self.row.black == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub fn clock(&self) -> ClockSpec {
        let r = &self.row;
        ClockSpec::from_columns(&r.clock_kind, r.days, r.base_ms, r.increment_ms)
    }

    /// How the game ended, from the row (resignation, time and agreement are not
    /// board events, so the row is the authority).
    pub fn outcome(&self) -> Option<Outcome> {
        let reason: Reason = self.row.reason.as_deref()?.parse().ok()?;
        Some(Outcome { winner: self.row.winner.as_deref().and_then(parse_color), reason })
    }

    /// Time left for a side now (live games), counting the running clock.
    pub fn time_left(&self, c: Color, now: i64) -> i64 {
        let stored = match c {
            Color::Red => self.row.red_ms,
            Color::Black => self.row.black_ms,
        };
        if self.row.status == "active" && self.turn() == c {
            stored - (now - self.row.turn_started_ms)
        } else {
            stored
        }
    }

    /// Whether the side to move has run out of time (clock or correspondence deadline).
    pub fn out_of_time(&self, now: i64) -> bool {
        match self.clock() {
            ClockSpec::Live { .. } => self.time_left(self.turn(), now) <= 0,
            ClockSpec::Correspondence { days } => now > self.row.turn_started_ms + days * DAY_MS,
        }
    }

    /// The state a client sees; `full` adds the moves and the legal moves.
    pub fn to_json(&self, full: bool) -> Value {
        let r = &self.row;
        let active = r.status == "active";
        let clocks = match self.clock() {
            ClockSpec::Live { .. } => json!({
                "red": r.red_ms, "black": r.black_ms,
                "running": active.then(|| color_name(self.turn())),
                "since": r.turn_started_ms,
            }),
            ClockSpec::Correspondence { .. } => Value::Null,
        };
        let deadline = match self.clock() {
            ClockSpec::Correspondence { days } if active => json!(r.turn_started_ms + days * DAY_MS),
            _ => Value::Null,
        };
        let outcome = self.outcome().map(|o| {
            json!({ "winner": o.winner.map(color_name), "reason": o.reason.name(), "text": o.to_string() })
        });
        let mut v = json!({
            "id": r.id, "version": r.version, "red": r.red, "black": r.black, "rules": r.rules,
            "clock": self.clock(), "start_fen": r.start_fen, "fen": r.fen,
            "turn": color_name(self.turn()), "ply": r.ply, "check": self.game.is_check(),
            "clocks": clocks, "deadline": deadline, "draw_offer": r.draw_offer,
            "status": r.status, "outcome": outcome, "updated": r.updated_ms,
            "last_move": self.moves.last().map(|m| m.iccs.clone()),
        });
        if full {
            let pos = self.game.position();
            let mut legal: Vec<String> = if active {
                self.game.legal_moves().iter().map(|m| pos.move_name(*m)).collect()
            } else {
                Vec::new()
            };
            legal.sort();
            v["legal"] = json!(legal);
            v["moves"] =
                self.moves.iter().map(|m| json!({"iccs": m.iccs, "wxf": m.wxf, "at": m.at_ms})).collect();
        }
        v
    }

    /// The game record as PGN with WXF moves.
    pub fn pgn(&self) -> String {
        let mut record = pgn::Record::from_game(&self.game);
        record.set_tag("Event", "xiangqi server game");
        record.set_tag("Site", &format!("game {}", self.row.id));
        record.set_tag("Red", &self.row.red);
        record.set_tag("Black", &self.row.black);
        if let Some(o) = self.outcome() {
            record.set_tag("Result", o.result());
            record.set_tag("Termination", &o.reason.to_string());
        }
        pgn::write(&record, pgn::Format::Wxf)
    }
}

/// A new game row between two players.
pub fn new_game_row(
    id: String,
    red: &str,
    black: &str,
    rules: RuleSet,
    clock: ClockSpec,
    now: i64,
) -> GameRow {
    let (kind, days, base, increment) = clock.columns();
    let start = Position::<Standard>::startpos().to_fen();
    GameRow {
        id,
        red: red.to_string(),
        black: black.to_string(),
        rules: rules.to_string(),
        start_fen: start.clone(),
        clock_kind: kind.to_string(),
        days,
        base_ms: base,
        increment_ms: increment,
        ply: 0,
        version: 1,
        fen: start,
        status: "active".into(),
        winner: None,
        reason: None,
        red_ms: base,
        black_ms: base,
        turn_started_ms: now,
        draw_offer: None,
        created_ms: now,
        updated_ms: now,
    }
}

impl Services {
    /// Loads a game and replays it with the rules crate (cached by ply).
    pub async fn load_game(&self, id: &str) -> ApiResult<Loaded> {
        let row = self.store.game(id).await?.ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let mut moves = self.store.moves(id).await?;
        // The moves are read after the row: a move committed in between is not
        // part of this state yet.
        moves.truncate(row.ply.max(0) as usize);
        let cached = self.cache.0.lock().ok().and_then(|c| c.get(id).cloned());
        let game = match cached {
            Some(g) if g.ply_count() as i64 == row.ply => g,
            _ => {
                let g = Arc::new(replay(&row, &moves)?);
                if let Ok(mut c) = self.cache.0.lock() {
                    if c.len() > 10_000 {
                        c.clear();
                    }
                    c.insert(id.to_string(), g.clone());
                }
                g
            }
        };
        Ok(Loaded { row, moves, game })
    }

    /// Submits the move number `ply + 1` of a game for `user`.
    pub async fn submit_move(&self, user: &str, id: &str, ply: i64, text: &str) -> ApiResult<Loaded> {
        let loaded = self.load_game(id).await?;
        let now = now_ms();
        let color =
            loaded.color_of(user).ok_or_else(|| ApiError::forbidden("you are not playing in this game"))?;
        if loaded.row.status != "active" {
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
        if matches!(loaded.clock(), ClockSpec::Live { .. }) && loaded.out_of_time(now) {
            self.finish(&loaded, Outcome::win(!color, Reason::TimeForfeit)).await?;
            return Err(ApiError::conflict("your time ran out"));
        }
        let pos = loaded.game.position();
        let m = notation::parse_any(pos, text).map_err(|e| ApiError::illegal_move(e.to_string()))?;
        if let Some(why) = loaded.game.why_illegal(m) {
            return Err(ApiError::illegal_move(format!("{} is illegal: {why}", pos.move_name(m))));
        }
        let record = MoveRow {
            game_id: id.to_string(),
            ply: ply + 1,
            iccs: pos.move_name(m),
            wxf: wxf::write(pos, m),
            at_ms: now,
        };
        let mut game = (*loaded.game).clone();
        game.play(m).map_err(|e| ApiError::illegal_move(e.to_string()))?;
        let mut after = loaded.row.clone();
        after.ply += 1;
        after.version += 1;
        after.fen = game.position().to_fen();
        after.draw_offer = None;
        after.updated_ms = now;
        if let ClockSpec::Live { increment, .. } = loaded.clock() {
            let left = loaded.time_left(color, now) + increment;
            match color {
                Color::Red => after.red_ms = left,
                Color::Black => after.black_ms = left,
            }
        }
        after.turn_started_ms = now;
        if let Some(o) = game.outcome() {
            after.status = "finished".into();
            after.winner = o.winner.map(|c| c.name().to_string());
            after.reason = Some(o.reason.name().to_string());
        }
        if self.store.record_move(&loaded.row, &after, &record).await? == Written::Stale {
            return Err(ApiError::conflict("another move was made at the same moment; reload the game"));
        }
        let game = Arc::new(game);
        if let Ok(mut c) = self.cache.0.lock() {
            c.insert(id.to_string(), game.clone());
        }
        let mut moves = loaded.moves;
        moves.push(record);
        let done = Loaded { row: after, moves, game };
        self.after_change(&done).await?;
        Ok(done)
    }

    /// Ends a game for a reason off the board (or a time forfeit).
    pub async fn finish(&self, loaded: &Loaded, outcome: Outcome) -> ApiResult<Loaded> {
        let mut after = loaded.row.clone();
        after.status = "finished".into();
        after.winner = outcome.winner.map(|c| c.name().to_string());
        after.reason = Some(outcome.reason.name().to_string());
        after.version += 1;
        after.draw_offer = None;
        let now = now_ms();
        if matches!(loaded.clock(), ClockSpec::Live { .. }) {
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
        let done = Loaded { row: after, moves: loaded.moves.clone(), game: loaded.game.clone() };
        self.after_change(&done).await?;
        Ok(done)
    }

    pub async fn resign(&self, user: &str, id: &str) -> ApiResult<Loaded> {
        let loaded = self.active_game_of(user, id).await?;
        let color = loaded.color_of(user).unwrap_or(Color::Red);
        self.finish(&loaded, Outcome::win(!color, Reason::Resignation)).await
    }

    pub async fn draw(&self, user: &str, id: &str, action: &str) -> ApiResult<Loaded> {
        let loaded = self.active_game_of(user, id).await?;
        let me = loaded.color_of(user).unwrap_or(Color::Red);
        let offer = loaded.row.draw_offer.as_deref().and_then(parse_color);
        let mut after = loaded.row.clone();
        let from_opponent = offer.is_some_and(|c| c != me);
        match action {
            "offer" if offer == Some(me) => {
                return Err(ApiError::conflict("you have already offered a draw"));
            }
            // Offering when the opponent already has is agreeing.
            "offer" | "accept" if from_opponent => {
                return self.finish(&loaded, Outcome::draw(Reason::Agreement)).await;
            }
            "offer" => after.draw_offer = Some(me.name().to_string()),
            "decline" if from_opponent => after.draw_offer = None,
            "accept" | "decline" => {
                return Err(ApiError::conflict("there is no draw offer from your opponent"));
            }
            _ => return Err(ApiError::bad_request("action is offer, accept or decline")),
        }
        after.version += 1;
        after.updated_ms = now_ms();
        if self.store.update_game(&loaded.row, &after).await? == Written::Stale {
            return Err(ApiError::conflict("the game changed meanwhile; reload it"));
        }
        let done = Loaded { row: after, moves: loaded.moves, game: loaded.game };
        self.after_change(&done).await?;
        Ok(done)
    }

    /// A win claimed because the opponent's clock or deadline ran out.
    pub async fn claim(&self, user: &str, id: &str) -> ApiResult<Loaded> {
        let loaded = self.active_game_of(user, id).await?;
        let me = loaded.color_of(user).unwrap_or(Color::Red);
        if loaded.turn() == me || !loaded.out_of_time(now_ms()) {
            return Err(ApiError::conflict("your opponent still has time"));
        }
        self.finish(&loaded, Outcome::win(me, Reason::TimeForfeit)).await
    }

    async fn active_game_of(&self, user: &str, id: &str) -> ApiResult<Loaded> {
        let loaded = self.load_game(id).await?;
        if loaded.color_of(user).is_none() {
            return Err(ApiError::forbidden("you are not playing in this game"));
        }
        if loaded.row.status != "active" {
            return Err(ApiError::conflict("the game is over"));
        }
        Ok(loaded)
    }

    /// Ends every live game whose side to move has run out of time.
    pub async fn flag_games(&self) -> ApiResult<usize> {
        let now = now_ms();
        let mut flagged = 0;
        for row in self.store.active_live_games().await? {
            let loaded = self.load_game(&row.id).await?;
            if loaded.out_of_time(now) {
                let loser = loaded.turn();
                if self.finish(&loaded, Outcome::win(!loser, Reason::TimeForfeit)).await.is_ok() {
                    flagged += 1;
                }
            }
        }
        Ok(flagged)
    }

    /// Publishes a change and, at the end of a game, updates the ratings.
    async fn after_change(&self, loaded: &Loaded) -> ApiResult<()> {
        if loaded.row.status == "finished" {
            self.rate(loaded).await?;
        } else {
            let to_move = loaded.player(loaded.turn()).to_string();
            self.notify(&to_move, "It is your move", Some(&loaded.row.id)).await;
        }
        self.publish_game(&loaded.row.id).await;
        Ok(())
    }

    /// Elo with K = 32 for both players of a finished game.
    async fn rate(&self, loaded: &Loaded) -> ApiResult<()> {
        let (Some(red), Some(black)) =
            (self.store.user(&loaded.row.red).await?, self.store.user(&loaded.row.black).await?)
        else {
            return Ok(());
        };
        let score = match loaded.row.winner.as_deref() {
            Some("red") => 1.0,
            Some("black") => 0.0,
            _ => 0.5,
        };
        let expected = 1.0 / (1.0 + 10f64.powf((black.rating - red.rating) as f64 / 400.0));
        let delta = (32.0 * (score - expected)).round() as i64;
        self.store.set_rating(&red.name, red.rating + delta).await?;
        self.store.set_rating(&black.name, black.rating - delta).await?;
        Ok(())
    }
}

fn replay(row: &GameRow, moves: &[MoveRow]) -> ApiResult<Game> {
    let start = Position::<Standard>::from_fen(&row.start_fen)
        .map_err(|e| ApiError::internal(format!("stored start position is unreadable: {e}")))?;
    let rules: RuleSet = row.rules.parse().map_err(ApiError::internal)?;
    let mut game = Game::new(start, rules);
    for m in moves {
        game.play_str(&m.iccs)
            .map_err(|e| ApiError::internal(format!("stored move {} is unplayable: {e}", m.ply)))?;
    }
    Ok(game)
}
