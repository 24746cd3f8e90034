//! Game review: after a game, the engine evaluates every position at a fixed
//! node budget, once, on the server's engine pool, and searches the move played
//! there to the same depth; each move is judged by how much expected score
//! (lichess's Win%, from centipawns by a logistic curve) it gave up against the
//! engine's best move at that depth. Comparing at one depth keeps the judgement
//! fair: two searches of consecutive positions reach different horizons, and
//! their scores swing with the side to move. The evaluations are stored; the
//! judgement is worked out from them when a review is read, so the thresholds
//! can change without searching again.
//!
//! The review row in the store is the claim on the work: one asker inserts it
//! and computes; everyone else (on any instance) sees it pending. Each position
//! is stored as it is done and renews the claim; a claim quiet for longer than
//! [`STALE_MS`] (its server stopped) is taken over by the next asker, who
//! resumes from the positions already stored.

use std::{collections::HashSet, sync::Arc};

use xiangqi::Color;
use xiangqi_engine::{Control, Engine, Limits};

use crate::engines::{EnginePool, Purpose};

use super::{
    Clock,
    accounts::new_id,
    analysis::Analyses,
    board::Board,
    games::{Games, Loaded},
    refusal::{Act, Refusal, Result, Window},
};

use crate::model::reviews::{ReviewPositionRecord, ReviewRecord};
use crate::model::{
    eval::{BLUNDER_PCT, Eval, INACCURACY_PCT, MISTAKE_PCT},
    {GameStatus, MoveClass, ReviewStatus},
};
use crate::store::{Claim, ClaimRequest, Store, Written};

/// Nodes searched per position: about a quarter of a second of one engine
/// (and as many at most for each of the two moves compared there). Fewer leave
/// the usual openings' moves half a soldier apart from one search to another.
pub const REVIEW_NODES: u64 = 500_000;
/// A claim not renewed for this long belongs to a worker that has stopped.
pub const STALE_MS: i64 = 120_000;

/// How a move is judged: `best` is the evaluation of the engine's move from the
/// position it was played from, `played` that of the move played (both from
/// the mover's view, at one depth), `was_best` whether it is the engine's move.
/// The loss is the expected score given up, in percentage points of
/// [`Eval::win_percent`], rounded, never negative; the engine's own move is
/// good whatever the searches say.
pub fn classify(best: Eval, played: Eval, was_best: bool) -> (MoveClass, i32) {
    if was_best {
        return (MoveClass::Good, 0);
    }
    let loss = (best.win_percent() - played.win_percent()).max(0.0);
    let class = if loss >= f64::from(BLUNDER_PCT) {
        MoveClass::Blunder
    } else if loss >= f64::from(MISTAKE_PCT) {
        MoveClass::Mistake
    } else if loss >= f64::from(INACCURACY_PCT) {
        MoveClass::Inaccuracy
    } else {
        MoveClass::Good
    };
    (class, loss.round() as i32)
}

/// A move of a reviewed game, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// Its number in the game, from 1.
    pub ply: usize,
    pub mover: Color,
    pub class: MoveClass,
    /// Percentage points of expected score the mover gave up.
    pub loss: i32,
}

/// Judges every move whose positions before and after are both evaluated.
/// `played[i]` is move `i + 1` in ICCS; `positions` are the stored evaluations
/// in order of ply (the position after `ply` moves); `first` moved first. A
/// move is compared with the engine's at the same depth where its own search
/// is stored, or by the evaluation of the position it led to where that is
/// better for its mover (or the only one, in reviews stored before).
pub fn judge(first: Color, played: &[String], positions: &[ReviewPositionRecord]) -> Vec<Judged> {
    let by_ply = |ply: usize| positions.iter().find(|p| p.ply == ply as i64);
    let mut judged = Vec::new();
    for (i, mv) in played.iter().enumerate() {
        let (Some(before), Some(after)) = (by_ply(i), by_ply(i + 1)) else { continue };
        let was_best = before.best.as_deref() == Some(mv.as_str());
        // The engine's move is the best of many noisy estimates, so its score
        // leans high; the move played gets the better of its two: its search
        // from the position it was played from, at the engine's depth, and
        // the search of the position it led to (a ply further on).
        let reached = after.eval.flip();
        let mine = match before.played {
            Some(alone) if alone.win_percent() > reached.win_percent() => alone,
            _ => reached,
        };
        let (class, loss) = classify(before.eval, mine, was_best);
        let mover = if i % 2 == 0 { first } else { !first };
        judged.push(Judged { ply: i + 1, mover, class, loss });
    }
    judged
}

/// Evaluates the position after `ply` moves of a game for its review: the
/// engine's move within [`REVIEW_NODES`] and its score; where another move was
/// played there (`played`, ICCS), the scores of both moves searched alone to
/// the same depth. Blocks: run it on the engine pool.
pub fn evaluate(
    engine: &mut Engine,
    position: &Board,
    ply: usize,
    played: Option<&str>,
) -> ReviewPositionRecord {
    if let Some(o) = position.outcome() {
        let eval = Eval::over(o, position.turn());
        return ReviewPositionRecord { ply: ply as i64, eval, best: None, depth: 0, played: None };
    }
    let r = position.search(engine, &Limits::nodes(REVIEW_NODES), &Control::new(), &mut |_| {});
    let best = r.best.map(|m| position.names(m).iccs);
    let mut eval = Eval::from_score(r.score());
    let mine = played.and_then(|p| position.parse_legal(p).ok()).filter(|&m| Some(m) != r.best);
    let mut played = None;
    if let (Some(mine), Some(theirs)) = (mine, r.best) {
        // Both moves searched alone to the depth the search reached, the same
        // way: a full search's score and a single move's differ by more than
        // many a choice between two good moves. (The node budget again is
        // the ceiling, in case a move leads somewhere much harder to search.)
        let limits = Limits { nodes: Some(REVIEW_NODES), ..Limits::depth(r.depth().max(1)) };
        eval = Eval::from_score(position.search_move(engine, theirs, &limits).score());
        played = Some(Eval::from_score(position.search_move(engine, mine, &limits).score()));
    }
    ReviewPositionRecord { ply: ply as i64, eval, best, depth: i64::from(r.depth()), played }
}

/// Reviews of finished games: every position evaluated, each move judged.
pub struct Review {
    store: Store,
    games: Arc<Games>,
    analyses: Arc<Analyses>,
    engines: Arc<EnginePool>,
    clock: Clock,
}

impl Review {
    pub fn new(
        store: Store,
        games: Arc<Games>,
        analyses: Arc<Analyses>,
        engines: Arc<EnginePool>,
        clock: Clock,
    ) -> Self {
        Review { store, games, analyses, engines, clock }
    }

    /// Asks for the review of a finished game: starts computing it unless it
    /// exists (or resumes one whose worker stopped). Whether this call started
    /// the work.
    pub async fn request_review(self: &Arc<Self>, user: &str, id: &str, now: i64) -> Result<bool> {
        let loaded = self.games.load_game(id).await?;
        match loaded.row.status {
            GameStatus::Finished => {}
            GameStatus::Active => {
                return Err(Refusal::GameNotOver {}.into());
            }
            GameStatus::Aborted => {
                return Err(Refusal::GameAborted {}.into());
            }
        }
        if let Some(r) = self.store.review(id).await?
            && (r.status == ReviewStatus::Done || r.claimed_ms >= now - STALE_MS)
        {
            return Ok(false);
        }
        let limit = &self.analyses.reviews_per_hour;
        limit.admit(user, now).map_err(|wait| Refusal::TooOften {
            act: Act::Reviews,
            allowed: limit.limit(),
            per: Window::Hour,
            seconds: u64::try_from((wait + 999) / 1000).unwrap_or(1),
        })?;
        let token = new_id();
        let claim = self
            .store
            .claim_review(&ClaimRequest {
                game_id: id,
                user,
                token: &token,
                total: loaded.game.ply_count() as i64 + 1,
                nodes: REVIEW_NODES as i64,
                now,
                stale_before: now - STALE_MS,
            })
            .await;
        // A review that was already there (or could not be claimed) costs nothing.
        if !matches!(claim, Ok(Claim::New | Claim::TakenOver)) {
            limit.refund(user, now);
        }
        if claim? == Claim::Exists {
            return Ok(false);
        }
        // A review that fails (a panic included) is resumed by the next request for it.
        crate::supervise::spawn_logged(
            "a review",
            compute(self.clone(), loaded.game.clone(), id.to_string(), token),
        );
        Ok(true)
    }

    /// A game and its review so far, if one was asked for.
    pub async fn review(
        &self,
        id: &str,
    ) -> Result<(Loaded, Option<(ReviewRecord, Vec<ReviewPositionRecord>)>)> {
        let loaded = self.games.load_game(id).await?;
        let Some(row) = self.store.review(id).await? else { return Ok((loaded, None)) };
        let positions = self.store.review_positions(id).await?;
        Ok((loaded, Some((row, positions))))
    }
}

/// Evaluates the positions of a game not yet stored, one engine job each (so
/// that analyses waiting for the pool take turns with it), then marks the
/// review done. Stops if the claim is taken over; a failure leaves the claim to
/// go stale, and the next request resumes it.
async fn compute(review: Arc<Review>, game: Arc<Board>, id: String, token: String) {
    let stored: HashSet<i64> = match review.store.review_positions(&id).await {
        Ok(rows) => rows.iter().map(|r| r.ply).collect(),
        Err(e) => return tracing::warn!("review of {id}: {e}"),
    };
    let played: Arc<Vec<String>> = Arc::new(game.all_names().into_iter().map(|n| n.iccs).collect());
    for ply in 0..=game.ply_count() {
        if stored.contains(&(ply as i64)) {
            continue;
        }
        let position = game.prefix(ply);
        let moves = played.clone();
        let searched = review
            .engines
            .run_as(
                Purpose::Study(format!("review:{id}")),
                None,
                move |engine| evaluate(engine, &position, ply, moves.get(ply).map(String::as_str)),
                |_| {},
            )
            .await;
        let row = match searched {
            Ok(searched) => searched.answer,
            Err(e) => return tracing::warn!("review of {id} stopped: {e}"),
        };
        match review.store.save_review_position(&id, &token, &row, review.clock.now_ms()).await {
            Ok(Written::Done) => {}
            Ok(Written::Stale) => return tracing::info!("review of {id} was taken over"),
            Err(e) => return tracing::warn!("review of {id} stopped: {e}"),
        }
    }
    if let Err(e) = review.store.finish_review(&id, &token, review.clock.now_ms()).await {
        tracing::warn!("review of {id} could not be finished: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_judged_by_the_expected_score_it_gives_up() {
        // The curve: even is 50 %, a soldier up about 59 %, symmetric.
        assert_eq!(Eval::Cp(0).win_percent(), 50.0);
        assert!((Eval::Cp(100).win_percent() - 59.1).abs() < 0.1);
        assert!((Eval::Cp(-100).win_percent() + Eval::Cp(100).win_percent() - 100.0).abs() < 1e-9);
        // Best and played from the mover's view.
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(40), false), (MoveClass::Good, 1));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(60), false), (MoveClass::Good, 0), "a gain is no loss");
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(-10), false), (MoveClass::Good, 6), "search noise");
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(-70), false), (MoveClass::Inaccuracy, 11));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(-200), false), (MoveClass::Mistake, 22));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(-350), false), (MoveClass::Blunder, 33));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(-350), true), (MoveClass::Good, 0), "the engine's move");
        // The same drop counts less when a side is far ahead.
        assert_eq!(classify(Eval::Cp(900), Eval::Cp(600), false).0, MoveClass::Good);
        assert_eq!(classify(Eval::Cp(200), Eval::Cp(-200), false).0, MoveClass::Blunder);
    }

    #[test]
    fn mates_and_big_leads_count_as_certain() {
        // Still winning by a lot: no loss worth a mark.
        assert_eq!(classify(Eval::Cp(2500), Eval::Cp(1500), false), (MoveClass::Good, 0));
        // A mate in hand given up for a large lead costs little.
        assert_eq!(classify(Eval::Mate(3), Eval::Cp(1000), false).0, MoveClass::Good);
        // Walking into a mate from equality is a blunder.
        assert_eq!(classify(Eval::Cp(0), Eval::Mate(-2), false), (MoveClass::Blunder, 50));
        // A move that loses by a repetition rule, or throws a win into a draw.
        assert_eq!(classify(Eval::Cp(0), Eval::Lost, false), (MoveClass::Blunder, 50));
        assert_eq!(classify(Eval::Cp(300), Eval::Drawn, false), (MoveClass::Blunder, 25));
    }

    fn at(ply: i64, eval: Eval, best: &str) -> ReviewPositionRecord {
        ReviewPositionRecord { ply, eval, best: Some(best.into()), depth: 10, played: None }
    }

    #[test]
    fn moves_are_judged_where_both_their_positions_are_evaluated() {
        let played: Vec<String> = ["h2e2", "h9g7", "b0c2"].iter().map(|s| s.to_string()).collect();
        let positions = [
            at(0, Eval::Cp(20), "h2e2"),
            at(1, Eval::Cp(-30), "b9c7"),
            at(2, Eval::Cp(200), "b0c2"),
            // Ply 3 not evaluated yet: the third move waits.
        ];
        let judged = judge(Color::Red, &played, &positions);
        assert_eq!(judged.len(), 2);
        assert_eq!(judged[0], Judged { ply: 1, mover: Color::Red, class: MoveClass::Good, loss: 0 });
        assert_eq!(judged[1], Judged { ply: 2, mover: Color::Black, class: MoveClass::Inaccuracy, loss: 15 });
        let from_black = judge(Color::Black, &played[..1], &positions);
        assert_eq!(from_black[0].mover, Color::Black);
        // Where the played move's own search is stored, it is what counts.
        let mut positions = positions.to_vec();
        positions[1].played = Some(Eval::Cp(-40));
        let judged = judge(Color::Red, &played, &positions);
        assert_eq!(judged[1], Judged { ply: 2, mover: Color::Black, class: MoveClass::Good, loss: 1 });
    }

    /// Masters' openings (WXF, from the start): the first moves of each.
    const OPENINGS: [&[&str]; 5] = [
        // Central cannon against screen horses.
        &["C2=5", "H8+7", "H2+3", "R9=8", "R1=2", "H2+3", "P7+1", "P7+1"],
        // Same-direction cannons.
        &["C2=5", "C8=5", "H2+3", "H8+7", "R1=2", "R9=8"],
        // Left central cannon against the opposite cannon.
        &["C8=5", "C2=5", "H8+7", "H8+7", "R9=8"],
        // The soldier opening.
        &["P7+1", "P7+1", "H8+7", "H8+7", "H2+3", "H2+3"],
        // The horse opening, and the elephant opening's reply.
        &["H2+3", "P7+1", "P7+1", "H8+7", "E3+5", "H2+3"],
    ];

    /// Each move of a line from the start, judged as a review judges it.
    fn judge_line(engine: &mut Engine, line: &[&str]) -> (Vec<Judged>, Vec<ReviewPositionRecord>) {
        use xiangqi::{RuleSet, Variant};

        use crate::domain::board::start_fen;

        let mut game =
            Board::from_fen(Variant::Standard, &start_fen(Variant::Standard), RuleSet::Asian).unwrap();
        let mut played = Vec::new();
        for wxf in line {
            let m = game.parse_legal(wxf).unwrap_or_else(|e| panic!("{line:?}: {wxf}: {e}"));
            played.push(game.names(m).iccs);
            game.play(m).unwrap();
        }
        let positions: Vec<ReviewPositionRecord> = (0..=played.len())
            .map(|ply| evaluate(engine, &game.prefix(ply), ply, played.get(ply).map(String::as_str)))
            .collect();
        (judge(Color::Red, &played, &positions), positions)
    }

    #[test]
    fn no_move_of_the_usual_openings_is_flagged_but_a_lost_rook_is() {
        use xiangqi_engine::Options;

        // Each line on an engine of its own, all at once: the answers do not
        // depend on which line a table saw before, and the cores share the work.
        let engine = || Engine::new(Options { hash_mb: 16, ..Options::default() }.with_embedded_net());
        let judged: Vec<_> = std::thread::scope(|scope| {
            let lines: Vec<_> = OPENINGS
                .iter()
                .map(|opening| scope.spawn(move || judge_line(&mut engine(), opening)))
                .collect();
            lines.into_iter().map(|line| line.join().expect("a line is judged")).collect()
        });
        for (opening, (judged, positions)) in OPENINGS.iter().zip(judged) {
            for j in judged {
                assert_eq!(
                    j.class,
                    MoveClass::Good,
                    "{opening:?}: move {} ({}) loses {} points; positions {positions:?}",
                    j.ply,
                    opening[j.ply - 1],
                    j.loss
                );
            }
        }
        // Black's rook to the file of Red's cannon, behind its own cannon, is lost.
        let blunder = ["C8=5", "C2=5", "H8+7", "H8+7", "R9=8", "R9=8"];
        let (judged, positions) = judge_line(&mut engine(), &blunder);
        assert_eq!(judged[5].class, MoveClass::Blunder, "{positions:?}");
    }
}
