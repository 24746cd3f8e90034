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
    board::{Board, MoveNames, start_fen},
    computer::Jobs,
    conditionals,
    events::Events,
    refusal::{Error, Refusal, Result},
    tournaments::Steps,
};

use crate::model::games::{Conditionals, GameRecord, MoveRecord};
use crate::model::page::Page;
use crate::model::{
    clock::ClockSpec,
    ratings::Category,
    {DrawAction, GameStatus, NoticeKind},
};
use crate::store::{Finish, LadderResultRow, Store, TournamentStep, Written};

/// Games as this instance last read or wrote them, by id, and the turn to
/// submit a move to each: the moves of one game are made here one at a time,
/// against the game's state in memory rather than one read back from the
/// database. A state that turns out stale (another instance moved) is only a
/// failed version check away from being read again.
#[derive(Default)]
pub struct GameCache(Mutex<HashMap<String, Known>>);

#[derive(Default)]
struct Known {
    /// Held while a move to the game is being made on this instance.
    turn: Arc<tokio::sync::Mutex<()>>,
    /// The game as last read or written (taken out while a move is made, so
    /// that its lists grow in place).
    game: Option<Loaded>,
}

impl GameCache {
    /// Games kept at most; past this the cache starts again empty.
    const MOST: usize = 10_000;

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, Known>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn turn(&self, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut entries = self.entries();
        if entries.len() >= Self::MOST && !entries.contains_key(id) {
            entries.clear();
        }
        entries.entry(id.to_string()).or_default().turn.clone()
    }

    fn get(&self, id: &str) -> Option<Loaded> {
        self.entries().get(id).and_then(|k| k.game.clone())
    }

    fn take(&self, id: &str) -> Option<Loaded> {
        self.entries().get_mut(id).and_then(|k| k.game.take())
    }

    fn remember(&self, loaded: &Loaded) {
        let mut entries = self.entries();
        if entries.len() >= Self::MOST && !entries.contains_key(&loaded.row.id) {
            entries.clear();
        }
        entries.entry(loaded.row.id.clone()).or_default().game = Some(loaded.clone());
    }
}

/// A game as loaded: its row, its moves, the replayed game on its board and
/// the written names of every move (in the order played).
#[derive(Clone)]
pub struct Loaded {
    pub row: GameRecord,
    pub moves: Arc<Vec<MoveRecord>>,
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
        if self.clock_running() && self.turn() == c {
            stored - (now - self.row.turn_started_ms)
        } else {
            stored
        }
    }

    /// Whether the live clock of the side to move runs: only once both sides
    /// have made their first move (before that no time is charged).
    pub fn clock_running(&self) -> bool {
        self.is_active() && self.row.clock.is_live() && self.row.ply >= 2
    }

    /// Whether a live game was never started: the side to move has yet to make
    /// its first move, and `wait_ms` have passed since the pairing (Red) or
    /// since Red's first move (Black).
    pub fn never_started(&self, now: i64, wait_ms: i64) -> bool {
        self.is_active()
            && self.row.clock.is_live()
            && self.row.ply < 2
            && now - self.row.turn_started_ms >= wait_ms
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
        game_pgn(&self.row, &self.game, xiangqi::notation::pgn::Format::Wxf)
    }
}

/// A game's record as PGN (moves in `format` on the standard board, cell
/// names on the hex board), with the date it started and its time control.
pub fn game_pgn(row: &GameRecord, board: &Board, format: xiangqi::notation::pgn::Format) -> String {
    board.pgn_as(&game_tags(row), format)
}

/// The tags of a game's record: where and when it was played, the players,
/// the time control and, once it is over, the result and why.
pub fn game_tags(row: &GameRecord) -> Vec<(&'static str, String)> {
    let mut tags = vec![("Event", "xiangqi server game".to_string()), ("Site", format!("game {}", row.id))];
    if let Ok(start) = time::OffsetDateTime::from_unix_timestamp(row.created_ms.div_euclid(1000)) {
        let (y, m, d) = (start.year(), u8::from(start.month()), start.day());
        tags.push(("Date", format!("{y:04}.{m:02}.{d:02}")));
        let (h, min, s) = start.time().as_hms();
        tags.push(("Time", format!("{h:02}:{min:02}:{s:02}")));
    }
    tags.push(("Red", row.red.clone()));
    tags.push(("Black", row.black.clone()));
    tags.push(("TimeControl", row.clock.pgn_tag()));
    if let Some(o) = row.outcome {
        tags.push(("Result", o.result().to_string()));
        tags.push(("Termination", o.reason.to_string()));
    }
    tags
}

/// A new game row between two players, from the start of the variant's board.
pub fn new_game_row(
    id: String,
    red: &str,
    black: &str,
    (variant, rules): (Variant, RuleSet),
    clock: ClockSpec,
    now: i64,
) -> GameRecord {
    let start = start_fen(variant);
    let (base, _) = match clock {
        ClockSpec::Live { base, increment } => (base, increment),
        ClockSpec::Correspondence { .. } => (0, 0),
    };
    GameRecord {
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
        premoves: [None, None],
        conditionals: Default::default(),
    }
}

/// Games being played and their ends: moves, resignations, draws, time.
/// A change is written with what it finishes (a tournament's step, see
/// [`Steps`]) and then told: to the game's watchers and, where the computer
/// is to move or answer, to the computer's queue ([`Jobs`]).
pub struct Games {
    store: Store,
    events: Events,
    cache: GameCache,
    computer_jobs: Arc<Jobs>,
    tournament_steps: Arc<Steps>,
    /// How long a game waits for its first moves (see [`super::limits::Limits::first_move_ms`]).
    first_move_ms: i64,
}

impl Games {
    pub fn new(
        store: Store,
        events: Events,
        computer_jobs: Arc<Jobs>,
        tournament_steps: Arc<Steps>,
        first_move_ms: i64,
    ) -> Self {
        Games { store, events, cache: GameCache::default(), computer_jobs, tournament_steps, first_move_ms }
    }

    /// Loads a game: its row always from the database; its moves, board and
    /// move names from memory while the row's ply count matches what was
    /// played there; if other instances played on, only their moves are read
    /// and played on the state in memory; else all are read and replayed with
    /// the rules crate.
    pub async fn load_game(&self, id: &str) -> Result<Loaded> {
        let row = self.store.game(id).await?.ok_or_else(|| Refusal::NoGame { id: id.to_string() })?;
        let known = self.cache.get(id).filter(|k| k.moves.len() == k.game.ply_count());
        let loaded = match known {
            Some(known) if known.moves.len() as i64 == row.ply => Loaded { row, ..known },
            Some(known) if (known.moves.len() as i64) < row.ply => self.catch_up(known, row).await?,
            _ => self.read_whole(row).await?,
        };
        self.cache.remember(&loaded);
        Ok(loaded)
    }

    /// A state in memory brought up to a newer row: the moves played since
    /// are read and played on it. (A row is never behind its moves: a move and
    /// its row are written in one transaction.)
    async fn catch_up(&self, known: Loaded, row: GameRecord) -> Result<Loaded> {
        let Loaded { mut moves, mut game, mut names, .. } = known;
        let mut since = self.store.moves_after(&row.id, moves.len() as i64).await?;
        since.truncate((row.ply as usize).saturating_sub(moves.len()));
        let (board, list, all) =
            (Arc::make_mut(&mut game), Arc::make_mut(&mut moves), Arc::make_mut(&mut names));
        for m in since {
            let checked = board
                .check_text(&m.iccs)
                .map_err(|e| Error::broken(format!("stored move {} is unplayable: {e}", m.ply)))?;
            all.push(board.names(checked.mv()));
            board.play_checked(checked);
            list.push(m);
        }
        if list.len() as i64 != row.ply {
            // The moves read do not reach the row: read everything again.
            return self.read_whole(row).await;
        }
        Ok(Loaded { row, moves, game, names })
    }

    /// A game's state from its row and all its moves, replayed with the rules crate.
    async fn read_whole(&self, row: GameRecord) -> Result<Loaded> {
        let mut moves = self.store.moves(&row.id).await?;
        // The moves are read after the row: a move committed in between is not
        // part of this state yet.
        moves.truncate(row.ply.max(0) as usize);
        let game = replay(&row, &moves)?;
        let names = game.all_names();
        Ok(Loaded { row, moves: Arc::new(moves), game: Arc::new(game), names: Arc::new(names) })
    }

    /// Submits the move number `ply + 1` of a game for `user`. Moves to one
    /// game are made one at a time here, against the state in memory; if that
    /// state refuses the move or proves stale, the move is tried once more
    /// against the database's.
    pub async fn submit_move(&self, user: &str, id: &str, ply: i64, text: &str, now: i64) -> Result<Loaded> {
        let turn = self.cache.turn(id);
        let _turn = turn.lock().await;
        let mv = Submitted { user, ply, text, now };
        if let Some(known) = self.cache.take(id) {
            if known.row.ply != ply {
                // Another instance moved (or the request is out of date): the
                // database's state decides, and the one here catches up to it.
                self.cache.remember(&known);
            } else if let Attempt::Done(done) = self.attempt_move(known, &mv).await? {
                return Ok(*done);
            }
        }
        match self.attempt_move(self.load_game(id).await?, &mv).await? {
            Attempt::Done(done) => Ok(*done),
            Attempt::Refused(e) => Err(e.into()),
            Attempt::Stale => Err(Refusal::GameChanged {}.into()),
        }
    }

    /// Makes a move against a state of its game: checks who may move, the
    /// clock and the rules, and writes it if the game is still at that state.
    async fn attempt_move(&self, loaded: Loaded, mv: &Submitted<'_>) -> Result<Attempt> {
        let Submitted { user, ply, text, now } = *mv;
        let Some(color) = loaded.color_of(user) else {
            return Ok(Attempt::Refused(Refusal::NotPlaying {}));
        };
        if !loaded.is_active() {
            return Ok(Attempt::Refused(Refusal::GameOver {}));
        }
        // A stale ply first: a second submit of the same move is a conflict, not a turn error.
        if ply != loaded.row.ply {
            return Ok(Attempt::Refused(Refusal::MovedAlready {}));
        }
        if color != loaded.turn() {
            return Ok(Attempt::Refused(Refusal::NotYourTurn {}));
        }
        if loaded.never_started(now, self.first_move_ms) {
            return Ok(match self.end(&loaded, None, now).await {
                Ok(_) => Attempt::Refused(Refusal::NotStarted {}),
                Err(_) => Attempt::Stale,
            });
        }
        if loaded.row.clock.is_live() && loaded.out_of_time(now) {
            return Ok(match self.time_out(&loaded, now).await {
                Ok(_) => Attempt::Refused(Refusal::TimeRanOut {}),
                Err(_) => Attempt::Stale,
            });
        }
        let checked = match loaded.game.check_text(text) {
            Ok(checked) => checked,
            Err(why) => return Ok(Attempt::Refused(Refusal::illegal(text, why))),
        };
        let names = loaded.game.names(checked.mv());
        let record = MoveRecord {
            game_id: loaded.row.id.clone(),
            ply: ply + 1,
            iccs: names.iccs.clone(),
            wxf: names.wxf.clone(),
            at_ms: now,
        };
        let mut after = loaded.row.clone();
        let time_left = loaded.time_left(color, now);
        let Loaded { row: before, mut moves, mut game, names: mut all_names } = loaded;
        let board = Arc::make_mut(&mut game);
        board.play_checked(checked);
        after.ply += 1;
        after.version += 1;
        after.fen = board.fen();
        after.draw_offer = None;
        after.updated_ms = now;
        // A side's first move is free: its clock does not run and gains no increment.
        if let (ClockSpec::Live { increment, .. }, true) = (before.clock, before.ply >= 2) {
            let left = time_left + increment;
            match color {
                Color::Red => after.red_ms = left,
                Color::Black => after.black_ms = left,
            }
        }
        after.turn_started_ms = now;
        if let Some(o) = board.outcome() {
            after.status = GameStatus::Finished;
            after.outcome = Some(o);
        }
        let mut records = vec![record];
        let mut new_names = vec![names];
        // The side now to move may have prepared its answer: a premove in a
        // live game, conditional moves in a correspondence one. It is played
        // in the same write if it is legal now (its clock has not run: it
        // costs no time), and dropped if not. The mover's own are spent.
        after.premoves[color.index()] = None;
        after.conditionals[color.index()] = Conditionals::default();
        let waiting = !color;
        let prepared = if before.clock.is_live() {
            after.premoves[waiting.index()].take()
        } else {
            let (answer, rest) = after.conditionals[waiting.index()].answer(&records[0].iccs);
            after.conditionals[waiting.index()] = rest;
            answer
        };
        if let Some(text) = prepared
            && after.status == GameStatus::Active
            && let Ok(checked) = board.check_text(&text)
        {
            let replied = board.names(checked.mv());
            board.play_checked(checked);
            if let (ClockSpec::Live { increment, .. }, true) = (before.clock, before.ply + 1 >= 2) {
                match waiting {
                    Color::Red => after.red_ms += increment,
                    Color::Black => after.black_ms += increment,
                }
            }
            after.ply += 1;
            after.fen = board.fen();
            if let Some(o) = board.outcome() {
                after.status = GameStatus::Finished;
                after.outcome = Some(o);
            }
            records.push(MoveRecord {
                game_id: after.id.clone(),
                ply: after.ply,
                iccs: replied.iccs.clone(),
                wxf: replied.wxf.clone(),
                at_ms: now,
            });
            new_names.push(replied);
        }
        let store = &self.store;
        let write =
            async |finish: Option<&Finish>| store.record_move(&before, &after, &records, finish).await;
        if self.write_change(&after, &game, write).await? == Written::Stale {
            return Ok(Attempt::Stale);
        }
        Arc::make_mut(&mut moves).extend(records);
        Arc::make_mut(&mut all_names).extend(new_names);
        let done = Loaded { row: after, moves, game, names: all_names };
        self.cache.remember(&done);
        self.after_change(&done, true).await;
        Ok(Attempt::Done(Box::new(done)))
    }

    /// Queues `user`'s premove in a live game while the opponent is to move
    /// (`ply`: the moves played when it was made), in place of one queued
    /// before: it is played with the opponent's move if legal then. Answers
    /// it as kept (`h2e2`).
    pub async fn set_premove(&self, user: &str, id: &str, ply: i64, text: &str) -> Result<String> {
        let turn = self.cache.turn(id);
        let _turn = turn.lock().await;
        let (loaded, me) = self.active_game_of(user, id).await?;
        if !loaded.row.clock.is_live() {
            return Err(Refusal::PremoveLiveOnly {}.into());
        }
        if ply != loaded.row.ply {
            return Err(Refusal::MovedAlready {}.into());
        }
        if loaded.turn() == me {
            return Err(Refusal::PremoveOnYourTurn {}.into());
        }
        let kept =
            loaded.game.premove(me, text).ok_or_else(|| Refusal::BadPremove { text: text.to_string() })?;
        self.write_premove(&loaded, me, Some(kept.clone())).await?;
        Ok(kept)
    }

    /// Takes back `user`'s queued premove, if there is one.
    pub async fn cancel_premove(&self, user: &str, id: &str) -> Result<()> {
        let turn = self.cache.turn(id);
        let _turn = turn.lock().await;
        let (loaded, me) = self.active_game_of(user, id).await?;
        if loaded.row.premove(me).is_some() {
            self.write_premove(&loaded, me, None).await?;
        }
        Ok(())
    }

    /// `user`'s queued premove in a game, if any.
    pub async fn premove(&self, user: &str, id: &str) -> Result<Option<String>> {
        let loaded = self.load_game(id).await?;
        let me = loaded.color_of(user).ok_or(Refusal::NotPlaying {})?;
        Ok(loaded.row.premove(me).map(str::to_string))
    }

    /// Keeps `user`'s conditional moves in a correspondence game while the
    /// opponent is to move (`ply`: the moves played when they were sent), in
    /// place of those kept before; none takes them all back. Answers them as
    /// kept (see [`conditionals::prepare`]), each move in every notation.
    pub async fn set_conditionals(
        &self,
        user: &str,
        id: &str,
        ply: i64,
        lines: &[Vec<String>],
    ) -> Result<Vec<Vec<MoveNames>>> {
        let turn = self.cache.turn(id);
        let _turn = turn.lock().await;
        let (loaded, me) = self.active_game_of(user, id).await?;
        if loaded.row.clock.is_live() {
            return Err(Refusal::ConditionalsCorrespondenceOnly {}.into());
        }
        if ply != loaded.row.ply {
            return Err(Refusal::MovedAlready {}.into());
        }
        if loaded.turn() == me {
            return Err(Refusal::ConditionalsOnYourTurn {}.into());
        }
        let kept = conditionals::prepare(&loaded.game, lines)?;
        if kept != loaded.row.conditionals[me.index()] {
            let mut after = loaded.row.clone();
            after.conditionals[me.index()] = kept.clone();
            self.write_private(&loaded, after).await?;
        }
        Ok(conditionals::named(&loaded.game, &kept))
    }

    /// `user`'s conditional moves in a game, each move in every notation
    /// (none once it is over).
    pub async fn conditionals(&self, user: &str, id: &str) -> Result<Vec<Vec<MoveNames>>> {
        let loaded = self.load_game(id).await?;
        let me = loaded.color_of(user).ok_or(Refusal::NotPlaying {})?;
        if !loaded.is_active() {
            return Ok(Vec::new());
        }
        Ok(conditionals::named(&loaded.game, &loaded.row.conditionals[me.index()]))
    }

    /// Writes a side's premove (none: taken back), the player's own.
    async fn write_premove(&self, loaded: &Loaded, side: Color, premove: Option<String>) -> Result<()> {
        let mut after = loaded.row.clone();
        after.premoves[side.index()] = premove;
        self.write_private(loaded, after).await
    }

    /// Writes what a player prepared (`after`, the row with it): nobody is
    /// told, and the game's public state is unchanged but for its version,
    /// which orders it against the opponent's move.
    async fn write_private(&self, loaded: &Loaded, mut after: GameRecord) -> Result<()> {
        after.version += 1;
        if self.store.update_game(&loaded.row, &after, None).await? == Written::Stale {
            return Err(Refusal::GameChanged {}.into());
        }
        self.cache.remember(&Loaded { row: after, ..loaded.clone() });
        Ok(())
    }

    /// Ends a game for a reason off the board (or a time forfeit).
    pub async fn finish(&self, loaded: &Loaded, outcome: Outcome, now: i64) -> Result<Loaded> {
        self.end(loaded, Some(outcome), now).await
    }

    /// Ends a game with an outcome, or aborts it (no outcome).
    async fn end(&self, loaded: &Loaded, outcome: Option<Outcome>, now: i64) -> Result<Loaded> {
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
        let store = &self.store;
        let write = async |finish: Option<&Finish>| store.update_game(&loaded.row, &after, finish).await;
        if self.write_change(&after, &loaded.game, write).await? == Written::Stale {
            return Err(Refusal::GameChanged {}.into());
        }
        let done = Loaded { row: after, ..loaded.clone() };
        self.cache.remember(&done);
        self.after_change(&done, false).await;
        Ok(done)
    }

    /// Calls a game off while a side has yet to make its first move: no result, not rated.
    pub async fn abort(&self, user: &str, id: &str, now: i64) -> Result<Loaded> {
        let (loaded, _) = self.active_game_of(user, id).await?;
        if loaded.row.tournament.is_some() {
            return Err(Refusal::TournamentAbort {}.into());
        }
        if !loaded.abortable() {
            return Err(Refusal::BothMoved {}.into());
        }
        self.end(&loaded, None, now).await
    }

    pub async fn resign(&self, user: &str, id: &str, now: i64) -> Result<Loaded> {
        let (loaded, me) = self.active_game_of(user, id).await?;
        self.finish(&loaded, Outcome::win(!me, Reason::Resignation), now).await
    }

    pub async fn draw(&self, user: &str, id: &str, action: DrawAction, now: i64) -> Result<Loaded> {
        let (loaded, me) = self.active_game_of(user, id).await?;
        let offer = loaded.row.draw_offer;
        let from_opponent = offer == Some(!me);
        let mut after = loaded.row.clone();
        match action {
            DrawAction::Offer if offer == Some(me) => {
                return Err(Refusal::DrawOffered {}.into());
            }
            // Offering when the opponent already has is agreeing.
            DrawAction::Offer | DrawAction::Accept if from_opponent => {
                return self.finish(&loaded, Outcome::draw(Reason::Agreement), now).await;
            }
            DrawAction::Offer => after.draw_offer = Some(me),
            DrawAction::Decline if from_opponent => {
                after.draw_offer = None;
                self.events.notify(loaded.player(!me), NoticeKind::DrawDeclined, Some(user), Some(id)).await;
            }
            DrawAction::Accept | DrawAction::Decline => {
                return Err(Refusal::NoDrawOffer {}.into());
            }
        }
        after.version += 1;
        after.updated_ms = now;
        if self.store.update_game(&loaded.row, &after, None).await? == Written::Stale {
            return Err(Refusal::GameChanged {}.into());
        }
        let done = Loaded { row: after, ..loaded };
        self.cache.remember(&done);
        self.after_change(&done, false).await;
        self.computer_jobs.computer_draw_offer(&done);
        Ok(done)
    }

    /// A win claimed because the opponent's clock or deadline ran out.
    pub async fn claim(&self, user: &str, id: &str, now: i64) -> Result<Loaded> {
        let (loaded, me) = self.active_game_of(user, id).await?;
        if loaded.turn() == me || !loaded.out_of_time(now) {
            return Err(Refusal::OpponentHasTime {}.into());
        }
        self.time_out(&loaded, now).await
    }

    /// The side to move ran out of time, and loses.
    pub(super) async fn time_out(&self, loaded: &Loaded, now: i64) -> Result<Loaded> {
        self.finish(loaded, Outcome::win(!loaded.turn(), Reason::TimeForfeit), now).await
    }

    /// A game being played, and the colour `user` plays in it.
    async fn active_game_of(&self, user: &str, id: &str) -> Result<(Loaded, Color)> {
        let loaded = self.load_game(id).await?;
        let me = loaded.color_of(user).ok_or(Refusal::NotPlaying {})?;
        if !loaded.is_active() {
            return Err(Refusal::GameOver {}.into());
        }
        Ok((loaded, me))
    }

    /// Ends every live game whose side to move has run out of time at `now`,
    /// and aborts every live game nobody started (a side's first move not made
    /// in time). A tournament game is not aborted (its round waits for a
    /// result): the side that did not move loses it.
    pub async fn flag_games(&self, now: i64) -> Result<usize> {
        let mut flagged = 0;
        let mut page = Page::first(Page::MAX);
        loop {
            let batch = self.store.active_live_games(&page).await?;
            for row in batch.items {
                let loaded = self.load_game(&row.id).await?;
                let ended = if loaded.never_started(now, self.first_move_ms) {
                    if loaded.row.tournament.is_some() {
                        self.time_out(&loaded, now).await.is_ok()
                    } else {
                        self.end(&loaded, None, now).await.is_ok()
                    }
                } else {
                    loaded.out_of_time(now) && self.time_out(&loaded, now).await.is_ok()
                };
                if ended {
                    flagged += 1;
                }
            }
            match batch.next {
                Some(next) => page.after = Some(next),
                None => return Ok(flagged),
            }
        }
    }

    /// Writes a change to a game (by `write`) with the finish it makes, if it
    /// ends the game. The end of a tournament game is written under the
    /// tournament's lock, with the step it brings; the players of a round it
    /// begins hear of their games once it is written.
    async fn write_change(
        &self,
        after: &GameRecord,
        board: &Board,
        write: impl AsyncFnOnce(Option<&Finish>) -> Result<Written, sqlx::Error>,
    ) -> Result<Written> {
        let ending = self.tournament_steps.tournament_ending(after).await?;
        let step = ending.as_ref().and_then(|(_, step)| step.clone());
        let written = write(finish_of(after, board, step.clone()).as_ref()).await;
        if let Some((held, _)) = ending {
            held.release().await;
        }
        let written = written?;
        if written == Written::Done
            && let Some(step) = &step
        {
            self.tournament_steps.step_taken(step).await;
        }
        Ok(written)
    }

    /// Tells of a change once it is committed: its watchers; after a move, the
    /// player whose move it is (or the computer); at the end of a game, the
    /// ladder's and the tournament's pages, and the tournament takes its next
    /// step. Nothing here can undo or refuse the change: what fails is logged,
    /// and the tournament's own sweep takes a step missed here.
    async fn after_change(&self, loaded: &Loaded, moved: bool) {
        self.events.publish_game(loaded).await;
        if loaded.is_active() && moved {
            let to_move = loaded.player(loaded.turn()).to_string();
            self.events.notify(&to_move, NoticeKind::YourMove, None, Some(&loaded.row.id)).await;
        } else if loaded.row.status == GameStatus::Finished {
            if loaded.row.ladder.is_some() {
                self.events.lobby_changed().await;
            }
            if let Some((id, _)) = &loaded.row.tournament {
                self.tournament_steps.tournament_game_over(id, loaded.row.updated_ms).await;
            }
        }
        if moved {
            self.computer_jobs.computer_turn(loaded);
        }
    }
}

/// What a game's end writes in the same transaction as the change that ended
/// it (see [`Finish`]): the one place that says what finishing a game means.
/// Nothing for a game still being played or aborted.
fn finish_of(r: &GameRecord, board: &Board, step: Option<TournamentStep>) -> Option<Finish> {
    if r.status != GameStatus::Finished {
        return None;
    }
    let winner = r.outcome.and_then(|o| o.winner);
    let ladder = r.ladder.as_ref().and_then(|(category, challenger)| {
        let (color, defender) = if *challenger == r.red {
            (Color::Red, &r.black)
        } else if *challenger == r.black {
            (Color::Black, &r.red)
        } else {
            return None;
        };
        let result = LadderResultRow {
            challenger: challenger.clone(),
            defender: defender.clone(),
            challenger_won: winner == Some(color),
            game: Some(r.id.clone()),
            at_ms: r.updated_ms,
        };
        Some((*category, result))
    });
    Some(Finish {
        game: r.id.clone(),
        red: r.red.clone(),
        black: r.black.clone(),
        winner,
        at_ms: r.updated_ms,
        rated: r.rated.then(|| Category::of(r.variant, r.clock)),
        ladder,
        tournament: r.tournament.is_some(),
        step,
        explored: Some((Category::of(r.variant, r.clock), super::explorer::explored(r, board))),
    })
}

/// A move as submitted.
#[derive(Clone, Copy)]
struct Submitted<'a> {
    user: &'a str,
    ply: i64,
    text: &'a str,
    now: i64,
}

/// What came of making a move against one state of its game.
enum Attempt {
    Done(Box<Loaded>),
    /// Refused by that state (which may be stale).
    Refused(Refusal),
    /// The game had moved on from that state.
    Stale,
}

fn replay(row: &GameRecord, moves: &[MoveRecord]) -> Result<Board> {
    let mut game = Board::from_fen(row.variant, &row.start_fen, row.rules)
        .map_err(|e| Error::broken(format!("stored start position is unreadable: {e}")))?;
    for m in moves {
        game.play_name(&m.iccs)
            .map_err(|e| Error::broken(format!("stored move {} is unplayable: {e}", m.ply)))?;
    }
    Ok(game)
}
