//! Game review: after a game, the engine evaluates every position at a fixed
//! node budget, once, on the server's engine pool, and each move is judged by
//! how much it lowered its mover's evaluation. The evaluations are stored; the
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
use xiangqi_engine::{Control, Limits};

use crate::engines::Purpose;

use super::{
    Services,
    accounts::new_id,
    analysis::{BLUNDER_CP, Eval, INACCURACY_CP, MISTAKE_CP},
    board::Board,
    games::Loaded,
    model::{GameStatus, MoveClass, ReviewStatus},
};
use crate::{
    error::{ApiError, ApiResult},
    store::{Claim, ClaimRequest, ReviewPositionRow, ReviewRow, Written},
};

/// Nodes searched per position: about a tenth of a second of one engine.
pub const REVIEW_NODES: u64 = 200_000;
/// A claim not renewed for this long belongs to a worker that has stopped.
pub const STALE_MS: i64 = 120_000;

/// How a move is judged: `before` is the evaluation of the position it was
/// played from (the mover's view), `after` that of the position it led to (the
/// opponent's view), `was_best` whether it is the move the engine chose. The
/// loss is in clamped centipawns of the mover's evaluation, never negative; the
/// engine's own move is good whatever the two searches say.
pub fn classify(before: Eval, after: Eval, was_best: bool) -> (MoveClass, i32) {
    if was_best {
        return (MoveClass::Good, 0);
    }
    let loss = (before.clamped() - after.flip().clamped()).max(0);
    let class = if loss >= BLUNDER_CP {
        MoveClass::Blunder
    } else if loss >= MISTAKE_CP {
        MoveClass::Mistake
    } else if loss >= INACCURACY_CP {
        MoveClass::Inaccuracy
    } else {
        MoveClass::Good
    };
    (class, loss)
}

/// A move of a reviewed game, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// Its number in the game, from 1.
    pub ply: usize,
    pub mover: Color,
    pub class: MoveClass,
    /// Clamped centipawns the mover's evaluation fell by.
    pub loss: i32,
}

/// Judges every move whose positions before and after are both evaluated.
/// `played[i]` is move `i + 1` in ICCS; `positions` are the stored evaluations
/// in order of ply (the position after `ply` moves); `first` moved first.
pub fn judge(first: Color, played: &[String], positions: &[ReviewPositionRow]) -> Vec<Judged> {
    let by_ply = |ply: usize| positions.iter().find(|p| p.ply == ply as i64);
    let mut judged = Vec::new();
    for (i, mv) in played.iter().enumerate() {
        let (Some(before), Some(after)) = (by_ply(i), by_ply(i + 1)) else { continue };
        let was_best = before.best.as_deref() == Some(mv.as_str());
        let (class, loss) = classify(before.eval, after.eval, was_best);
        let mover = if i % 2 == 0 { first } else { !first };
        judged.push(Judged { ply: i + 1, mover, class, loss });
    }
    judged
}

impl Services {
    /// Asks for the review of a finished game: starts computing it unless it
    /// exists (or resumes one whose worker stopped). Whether this call started
    /// the work.
    pub async fn request_review(self: &Arc<Self>, user: &str, id: &str, now: i64) -> ApiResult<bool> {
        let loaded = self.load_game(id).await?;
        match loaded.row.status {
            GameStatus::Finished => {}
            GameStatus::Active => {
                return Err(ApiError::conflict(
                    "the game is still being played: it can be reviewed once it is over",
                ));
            }
            GameStatus::Aborted => {
                return Err(ApiError::conflict("the game was aborted: there is nothing to review"));
            }
        }
        if let Some(r) = self.store.review(id).await?
            && (r.status == ReviewStatus::Done || r.claimed_ms >= now - STALE_MS)
        {
            return Ok(false);
        }
        let limit = &self.analysis.reviews_per_hour;
        limit.admit(user, now).map_err(|wait| {
            ApiError::rate_limited(
                format!(
                    "you may start {} reviews an hour: engine time is shared by everyone here; try again in {} min",
                    limit.limit(),
                    (wait + 59_999) / 60_000
                ),
                u64::try_from((wait + 999) / 1000).unwrap_or(1),
            )
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
        tokio::spawn(compute(self.clone(), loaded.game.clone(), id.to_string(), token));
        Ok(true)
    }

    /// A game and its review so far, if one was asked for.
    pub async fn review(&self, id: &str) -> ApiResult<(Loaded, Option<(ReviewRow, Vec<ReviewPositionRow>)>)> {
        let loaded = self.load_game(id).await?;
        let Some(row) = self.store.review(id).await? else { return Ok((loaded, None)) };
        let positions = self.store.review_positions(id).await?;
        Ok((loaded, Some((row, positions))))
    }
}

/// Evaluates the positions of a game not yet stored, one engine job each (so
/// that analyses waiting for the pool take turns with it), then marks the
/// review done. Stops if the claim is taken over; a failure leaves the claim to
/// go stale, and the next request resumes it.
async fn compute(services: Arc<Services>, game: Arc<Board>, id: String, token: String) {
    let stored: HashSet<i64> = match services.store.review_positions(&id).await {
        Ok(rows) => rows.iter().map(|r| r.ply).collect(),
        Err(e) => return tracing::warn!("review of {id}: {e}"),
    };
    for ply in 0..=game.ply_count() {
        if stored.contains(&(ply as i64)) {
            continue;
        }
        let position = game.prefix(ply);
        let row = match position.outcome() {
            Some(o) => ReviewPositionRow {
                ply: ply as i64,
                eval: Eval::over(o, position.turn()),
                best: None,
                depth: 0,
            },
            None => {
                let searched = services
                    .engines
                    .run_as(
                        Purpose::Study(format!("review:{id}")),
                        None,
                        move |engine| {
                            let r = position.search(
                                engine,
                                &Limits::nodes(REVIEW_NODES),
                                &Control::new(),
                                &mut |_| {},
                            );
                            let best = r.best.map(|m| position.names(m).iccs);
                            ReviewPositionRow {
                                ply: ply as i64,
                                eval: Eval::from_score(r.score),
                                best,
                                depth: i64::from(r.depth),
                            }
                        },
                        |_| {},
                    )
                    .await;
                match searched {
                    Ok(searched) => searched.answer,
                    Err(e) => return tracing::warn!("review of {id} stopped: {e}"),
                }
            }
        };
        match services.store.save_review_position(&id, &token, &row, services.now()).await {
            Ok(Written::Done) => {}
            Ok(Written::Stale) => return tracing::info!("review of {id} was taken over"),
            Err(e) => return tracing::warn!("review of {id} stopped: {e}"),
        }
    }
    if let Err(e) = services.store.finish_review(&id, &token, services.now()).await {
        tracing::warn!("review of {id} could not be finished: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_judged_by_the_drop_in_its_movers_evaluation() {
        // Before: the mover is 50 up. After: the opponent's view.
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(-40), false), (MoveClass::Good, 10));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(-50), false), (MoveClass::Good, 0));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(-60), false).0, MoveClass::Good, "a gain is no loss");
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(10), false), (MoveClass::Inaccuracy, 60));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(99), false), (MoveClass::Inaccuracy, 149));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(100), false), (MoveClass::Mistake, 150));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(250), false), (MoveClass::Blunder, 300));
        assert_eq!(classify(Eval::Cp(50), Eval::Cp(250), true), (MoveClass::Good, 0), "the engine's move");
    }

    #[test]
    fn mates_and_big_leads_are_clamped() {
        // Still winning by a lot: no loss worth a mark.
        assert_eq!(classify(Eval::Cp(2500), Eval::Cp(-1500), false), (MoveClass::Good, 0));
        // A mate in hand given up for a large lead is a mistake, not worse.
        assert_eq!(classify(Eval::Mate(3), Eval::Cp(-800), false), (MoveClass::Mistake, 200));
        // Walking into a mate from equality is a blunder.
        assert_eq!(classify(Eval::Cp(0), Eval::Mate(2), false), (MoveClass::Blunder, 1000));
        // The move that mates, or that loses by a repetition rule.
        assert_eq!(classify(Eval::Mate(1), Eval::Lost, false), (MoveClass::Good, 0));
        assert_eq!(classify(Eval::Cp(0), Eval::Won, false), (MoveClass::Blunder, 1000));
        assert_eq!(classify(Eval::Cp(300), Eval::Drawn, false), (MoveClass::Blunder, 300));
    }

    fn at(ply: i64, eval: Eval, best: &str) -> ReviewPositionRow {
        ReviewPositionRow { ply, eval, best: Some(best.into()), depth: 10 }
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
        assert_eq!(judged[1], Judged { ply: 2, mover: Color::Black, class: MoveClass::Mistake, loss: 170 });
        let from_black = judge(Color::Black, &played[..1], &positions);
        assert_eq!(from_black[0].mover, Color::Black);
    }
}
