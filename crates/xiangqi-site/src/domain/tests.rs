//! The site's rules of play, tested on the services directly (no HTTP): turn
//! order, draw offers, clocks and auto-match, with time passed in by hand.

use std::sync::Arc;

use xiangqi::{Color, Reason, RuleSet, Variant};

use super::{Services, Setup, games::Loaded, lobby::Terms};

use super::{events::Nobody, refusal::ErrorCode};
use crate::model::reviews::ReviewPositionRecord;
use crate::model::{
    clock::{ClockSpec, DAY_MS},
    {DrawAction, GameStatus, SideChoice},
};
use crate::store::{Store, Tally};

const T0: i64 = 1_800_000_000_000;

struct Site {
    services: Services,
    store: Store,
    _dir: tempdir::Dir,
}

mod tempdir {
    /// A folder removed when dropped.
    pub struct Dir(pub std::path::PathBuf);

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

async fn site() -> Site {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("xiangqi-domain-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&format!("sqlite://{}/t.db?mode=rwc", dir.display())).await.unwrap();
    for name in ["red", "black", "third"] {
        let mut turn = store.counting(Tally::Signups("here")).await.unwrap();
        assert!(store.create_user(&mut turn, "here", name, "no log-in in these tests", T0).await.unwrap());
        turn.done().await.unwrap();
    }
    let services = Setup::default().services(store.clone(), Arc::new(Nobody));
    Site { services, store, _dir: tempdir::Dir(dir) }
}

fn terms(opponent: &str, clock: ClockSpec) -> Terms {
    Terms {
        opponent: Some(opponent.into()),
        variant: Variant::Standard,
        rules: RuleSet::Asian,
        color: SideChoice::Red,
        clock,
        rematch_of: None,
        rated: true,
        ladder: None,
    }
}

const DAYS_3: ClockSpec = ClockSpec::Correspondence { hours: 72 };
const LIVE_1_0: ClockSpec = ClockSpec::Live { base: 60_000, increment: 0 };

/// `red` challenges `black` (playing red) and `black` accepts.
async fn game(s: &Services, clock: ClockSpec) -> Loaded {
    let c = s.lobby.create_challenge("red", terms("black", clock), false, T0).await.unwrap();
    s.lobby.accept_challenge("black", &c.id, T0).await.unwrap()
}

#[tokio::test]
async fn moves_alternate_and_only_the_side_to_move_may_move() {
    let site = site().await;
    let s = &site.services;
    let g = game(s, DAYS_3).await;
    let id = g.row.id.as_str();
    let e = s.games.submit_move("black", id, 0, "h9g7", T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Forbidden, "black may not open");
    let e = s.games.submit_move("third", id, 0, "h2e2", T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Forbidden, "an onlooker may not move");
    let e = s.games.submit_move("red", id, 0, "a0a5", T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::IllegalMove);
    let after = s.games.submit_move("red", id, 0, "C2=5", T0 + 1).await.unwrap();
    assert_eq!((after.row.ply, after.turn()), (1, Color::Black));
    let e = s.games.submit_move("red", id, 0, "h2e2", T0 + 2).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "a second submit of the same move is stale");
    let e = s.games.submit_move("red", id, 1, "b2e2", T0 + 2).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Forbidden, "red may not move twice");
    s.games.submit_move("black", id, 1, "马8进7", T0 + 3).await.unwrap();
    let now = s.games.load_game(id).await.unwrap();
    assert_eq!(now.moves.iter().map(|m| m.iccs.as_str()).collect::<Vec<_>>(), ["h2e2", "h9g7"]);
    // The names kept move by move are those of a replay of the whole game.
    let replayed = now.game.all_names();
    assert_eq!(now.names.len(), 2);
    for (kept, replayed) in now.names.iter().zip(&replayed) {
        assert_eq!(
            (&kept.iccs, &kept.wxf, &kept.chinese),
            (&replayed.iccs, &replayed.wxf, &replayed.chinese)
        );
    }
}

#[tokio::test]
async fn a_draw_offer_stands_until_answered_or_a_move_is_made() {
    let site = site().await;
    let s = &site.services;
    let id = game(s, DAYS_3).await.row.id;
    let offered = s.games.draw("red", &id, DrawAction::Offer, T0).await.unwrap();
    assert_eq!(offered.row.draw_offer, Some(Color::Red));
    let e = s.games.draw("red", &id, DrawAction::Offer, T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "one offer at a time");
    let e = s.games.draw("red", &id, DrawAction::Accept, T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "nobody accepts their own offer");
    let declined = s.games.draw("black", &id, DrawAction::Decline, T0).await.unwrap();
    assert_eq!(declined.row.draw_offer, None);
    // A move withdraws a standing offer.
    s.games.draw("red", &id, DrawAction::Offer, T0).await.unwrap();
    let moved = s.games.submit_move("red", &id, 0, "h2e2", T0).await.unwrap();
    assert_eq!(moved.row.draw_offer, None);
    // Offering when the opponent has offered is agreeing.
    s.games.draw("red", &id, DrawAction::Offer, T0).await.unwrap();
    let agreed = s.games.draw("black", &id, DrawAction::Offer, T0).await.unwrap();
    assert_eq!(agreed.row.status, GameStatus::Finished);
    let o = agreed.row.outcome.unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::Agreement));
    let drawn = s.accounts.user("red").await.unwrap();
    assert_eq!((drawn.wins, drawn.losses, drawn.draws), (0, 0, 1));
}

#[tokio::test]
async fn a_live_clock_runs_for_the_side_to_move_and_flags_at_zero() {
    let site = site().await;
    let s = &site.services;
    let id = game(s, LIVE_1_0).await.row.id;
    // The first move of each side is not timed.
    s.games.submit_move("red", &id, 0, "h2e2", T0 + 10_000).await.unwrap();
    let g = s.games.submit_move("black", &id, 1, "h9g7", T0 + 20_000).await.unwrap();
    assert_eq!((g.row.red_ms, g.row.black_ms), (60_000, 60_000), "nothing charged yet");
    let g = s.games.submit_move("red", &id, 2, "h0g2", T0 + 30_000).await.unwrap();
    assert_eq!(g.row.red_ms, 50_000, "red used ten seconds");
    assert_eq!(g.time_left(Color::Black, T0 + 45_000), 45_000, "black's clock runs from red's move");
    assert_eq!(g.time_left(Color::Red, T0 + 45_000), 50_000, "red's clock stands");
    assert!(!g.out_of_time(T0 + 89_999));
    assert!(g.out_of_time(T0 + 90_000));
    assert_eq!(s.games.flag_games(T0 + 89_000).await.unwrap(), 0);
    let e = s.games.claim("red", &id, T0 + 89_000).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "black still has time");
    assert_eq!(s.games.flag_games(T0 + 90_001).await.unwrap(), 1);
    let over = s.games.load_game(&id).await.unwrap();
    let o = over.row.outcome.unwrap();
    assert_eq!((o.winner, o.reason), (Some(Color::Red), Reason::TimeForfeit));
    assert_eq!(over.row.black_ms, 0);
}

#[tokio::test]
async fn live_clocks_start_after_both_first_moves_and_an_unstarted_game_is_aborted() {
    let site = site().await;
    let s = &site.services;
    let wait = super::limits::Limits::default().first_move_ms;
    // Red thinks over its first move for most of the wait: no time is charged.
    let id = game(s, LIVE_1_0).await.row.id;
    let g = s.games.load_game(&id).await.unwrap();
    assert_eq!(
        g.time_left(Color::Red, T0 + wait - 1),
        60_000,
        "red's clock does not run before its first move"
    );
    assert_eq!(s.games.flag_games(T0 + wait - 1).await.unwrap(), 0);
    let g = s.games.submit_move("red", &id, 0, "h2e2", T0 + wait - 1).await.unwrap();
    assert_eq!(g.row.red_ms, 60_000);
    assert_eq!(g.time_left(Color::Black, T0 + 2 * wait - 2), 60_000, "nor black's before its first");
    // Black does not answer in time: the game is aborted, not lost.
    assert_eq!(s.games.flag_games(T0 + 2 * wait - 1).await.unwrap(), 1);
    let over = s.games.load_game(&id).await.unwrap();
    assert_eq!((over.row.status, over.row.outcome), (GameStatus::Aborted, None));
    for name in ["red", "black"] {
        let u = s.accounts.user(name).await.unwrap();
        assert_eq!((u.rating, u.wins, u.losses), (1500, 0, 0), "{name} is not rated");
    }
    // Red never moves: aborted too, and a late first move is refused.
    let id = game(s, LIVE_1_0).await.row.id;
    let e = s.games.submit_move("red", &id, 0, "h2e2", T0 + wait).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict);
    assert_eq!(s.games.load_game(&id).await.unwrap().row.status, GameStatus::Aborted);
    // Correspondence games have no such wait.
    let id = game(s, DAYS_3).await.row.id;
    assert_eq!(s.games.flag_games(T0 + 10 * wait).await.unwrap(), 0);
    assert_eq!(s.games.load_game(&id).await.unwrap().row.status, GameStatus::Active);
}

#[tokio::test]
async fn a_game_aborted_before_both_sides_moved_has_no_result_and_is_not_rated() {
    let site = site().await;
    let s = &site.services;
    let id = game(s, DAYS_3).await.row.id;
    let e = s.games.abort("third", &id, T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Forbidden);
    s.games.submit_move("red", &id, 0, "h2e2", T0).await.unwrap();
    let aborted = s.games.abort("black", &id, T0).await.unwrap();
    assert_eq!((aborted.row.status, aborted.row.outcome), (GameStatus::Aborted, None));
    let e = s.games.submit_move("black", &id, 1, "h9g7", T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "an aborted game is over");
    for name in ["red", "black"] {
        let u = s.accounts.user(name).await.unwrap();
        assert_eq!((u.rating, u.wins, u.losses, u.draws), (1500, 0, 0, 0), "{name} is not rated");
    }
    // Once both sides have moved, it is too late.
    let id = game(s, DAYS_3).await.row.id;
    s.games.submit_move("red", &id, 0, "h2e2", T0).await.unwrap();
    s.games.submit_move("black", &id, 1, "h9g7", T0).await.unwrap();
    let e = s.games.abort("red", &id, T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict);
}

#[tokio::test]
async fn a_rematch_swaps_colours_and_starts_when_both_ask() {
    let site = site().await;
    let s = &site.services;
    let id = game(s, LIVE_1_0).await.row.id;
    let e = s.lobby.rematch("red", &id, T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "not while it is played");
    s.games.resign("black", &id, T0).await.unwrap();
    let e = s.lobby.rematch("third", &id, T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Forbidden);
    let Err(offer) = s.lobby.rematch("red", &id, T0).await.unwrap() else { panic!("the offer waits") };
    assert_eq!(
        (offer.opponent.as_deref(), offer.color, offer.rematch_of.as_deref()),
        (Some("black"), SideChoice::Black, Some(id.as_str()))
    );
    assert_eq!(offer.clock, LIVE_1_0);
    let Err(again) = s.lobby.rematch("red", &id, T0).await.unwrap() else { panic!("still waiting") };
    assert_eq!(again.id, offer.id, "asking twice makes one offer");
    let Ok(next) = s.lobby.rematch("black", &id, T0 + 1).await.unwrap() else {
        panic!("both asked: it starts")
    };
    assert_eq!((next.row.red.as_str(), next.row.black.as_str()), ("black", "red"));
}

#[tokio::test]
async fn a_correspondence_deadline_can_be_claimed_once_passed() {
    let site = site().await;
    let s = &site.services;
    let g = game(s, DAYS_3).await;
    assert_eq!(g.deadline(), Some(T0 + 3 * DAY_MS));
    let e = s.games.claim("black", &g.row.id, T0 + 3 * DAY_MS).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict);
    let won = s.games.claim("black", &g.row.id, T0 + 3 * DAY_MS + 1).await.unwrap();
    assert_eq!(won.row.outcome.unwrap().winner, Some(Color::Black));
    assert_eq!(
        s.games.flag_games(T0 + 10 * DAY_MS).await.unwrap(),
        0,
        "correspondence games are not flagged by the clock watcher"
    );
}

#[tokio::test]
async fn auto_match_pairs_equal_requests_and_queues_the_rest_once() {
    let site = site().await;
    let s = &site.services;
    let first = s
        .lobby
        .automatch("red", (Variant::Standard, RuleSet::Asian), LIVE_1_0, Some(true), T0)
        .await
        .unwrap();
    let waiting = first.err().expect("nobody to pair with yet");
    let again = s
        .lobby
        .automatch("red", (Variant::Standard, RuleSet::Asian), LIVE_1_0, Some(true), T0)
        .await
        .unwrap();
    assert_eq!(again.err().map(|c| c.id), Some(waiting.id.clone()), "asking twice queues once");
    // Other settings do not pair.
    let other = s
        .lobby
        .automatch("black", (Variant::Standard, RuleSet::Casual), LIVE_1_0, Some(true), T0)
        .await
        .unwrap();
    assert!(other.is_err());
    let paired = s
        .lobby
        .automatch("third", (Variant::Standard, RuleSet::Asian), LIVE_1_0, Some(true), T0)
        .await
        .unwrap();
    let Ok(game) = paired else { panic!("paired with the waiting request") };
    let mut players = [game.row.red.as_str(), game.row.black.as_str()];
    players.sort();
    assert_eq!(players, ["red", "third"]);
    let e = s
        .lobby
        .automatch("red", (Variant::Hex, RuleSet::Asian), LIVE_1_0, Some(true), T0)
        .await
        .err()
        .unwrap();
    assert_eq!(e.code(), ErrorCode::BadRequest, "the hex board is played under the hex rules");
    assert!(
        s.lobby
            .automatch("red", (Variant::Hex, RuleSet::Hex), LIVE_1_0, Some(true), T0)
            .await
            .unwrap()
            .is_err()
    );
    let Ok(hex) =
        s.lobby.automatch("black", (Variant::Hex, RuleSet::Hex), LIVE_1_0, Some(true), T0).await.unwrap()
    else {
        panic!("a hex request pairs with the waiting hex request only")
    };
    assert_eq!((hex.row.variant, hex.game.variant()), (Variant::Hex, Variant::Hex));
    assert_eq!(hex.row.fen, xiangqi::Position::<xiangqi::Hex>::startpos().to_fen());
}

#[tokio::test]
async fn the_same_challenge_is_open_only_once() {
    let site = site().await;
    let s = &site.services;
    s.lobby.create_challenge("red", terms("black", DAYS_3), false, T0).await.unwrap();
    let e = s.lobby.create_challenge("red", terms("black", DAYS_3), false, T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict);
    s.lobby.create_challenge("red", terms("third", DAYS_3), false, T0).await.unwrap();
    s.lobby.create_challenge("red", terms("black", LIVE_1_0), false, T0).await.unwrap();
}

#[tokio::test]
async fn a_lapsed_ladder_challenge_moves_the_challenger_up_exactly_once() {
    use crate::model::ratings::Category;
    let site = site().await;
    let s = &site.services;
    // A second instance on the same database.
    let other = Setup::default().services(site.store.clone(), Arc::new(Nobody));
    let cat = Category::StandardCorrespondence;
    for name in ["red", "black", "third"] {
        s.ladders.join_ladder(name, cat, T0).await.unwrap();
    }
    let c = s.ladders.ladder_challenge("third", cat, "red", T0).await.unwrap();
    assert_eq!(c.expires_ms, Some(T0 + crate::domain::ladders::ANSWER_MS));
    assert_eq!(s.ladders.lapse_ladder_challenges(T0 + 1000).await.unwrap(), 0, "not yet");
    let late = T0 + crate::domain::ladders::ANSWER_MS + 1;
    let e = s.lobby.accept_challenge("red", &c.id, late).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "too late to accept");
    let (a, b) =
        tokio::join!(s.ladders.lapse_ladder_challenges(late), other.ladders.lapse_ladder_challenges(late));
    assert_eq!(a.unwrap() + b.unwrap(), 1, "applied once");
    let order: Vec<String> = site
        .store
        .ladder(cat, &crate::model::page::Page::first(10))
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|r| r.user)
        .collect();
    assert_eq!(order, ["third", "red", "black"]);
    let results = site.store.ladder_results(cat, 5).await.unwrap();
    assert_eq!((results.len(), results[0].game.as_deref()), (1, None));
}

/// A round-robin of three players, 48 hours a move, that starts at `T0 + 1000`.
fn round_robin_of_three(name: &str) -> crate::domain::tournaments::Plan {
    use crate::model::{TournamentFormat, ratings::Category};
    crate::domain::tournaments::Plan {
        name: name.into(),
        category: Category::StandardCorrespondence,
        rules: RuleSet::Asian,
        clock: ClockSpec::Correspondence { hours: 48 },
        format: TournamentFormat::RoundRobin,
        rounds: None,
        min_players: 3,
        max_players: 3,
        starts_ms: Some(T0 + 1000),
    }
}

#[tokio::test]
async fn two_instances_start_and_advance_a_tournament_exactly_once_and_enforce_its_deadlines() {
    use crate::model::{PairingResult, TournamentStatus};
    let site = site().await;
    let s = &site.services;
    let other = Setup::default().services(site.store.clone(), Arc::new(Nobody));
    let plan = round_robin_of_three("Main");
    let t = s.tournaments.create_tournament("red", plan, T0).await.unwrap().tournament;
    for name in ["red", "black", "third"] {
        s.tournaments.join_tournament(name, &t.id, T0).await.unwrap();
    }
    let e = s.tournaments.join_tournament("red", &t.id, T0).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "signed up once");
    assert_eq!(
        s.tournaments.tournament_table(&t.id).await.unwrap().tournament.status,
        TournamentStatus::Signup,
        "not yet"
    );
    // Both instances find it due at its start time: one starts it.
    let start = T0 + 1000;
    let (a, b) =
        tokio::join!(s.tournaments.advance_tournaments(start), other.tournaments.advance_tournaments(start));
    assert_eq!(a.unwrap() + b.unwrap(), 1, "started once");
    let table = s.tournaments.tournament_table(&t.id).await.unwrap();
    assert_eq!(
        (table.tournament.status, table.tournament.round, table.tournament.rounds),
        (TournamentStatus::Running, 1, 3)
    );
    assert_eq!(table.pairings.len(), 3, "three players: one game a round, one rests");
    let game = table.pairings[0].game_id.clone().expect("round 1's game");
    // Nobody moves: the deadline passes and the background task ends the game
    // (once, though both instances look), and round 2 begins once.
    let late = start + 48 * 3600 * 1000 + 1;
    assert_eq!(s.tournaments.advance_tournaments(late - 2).await.unwrap(), 0, "not yet late");
    let (a, b) =
        tokio::join!(s.tournaments.advance_tournaments(late), other.tournaments.advance_tournaments(late));
    let (a, b) = (a.unwrap(), b.unwrap());
    let over = s.games.load_game(&game).await.unwrap();
    assert_eq!(over.row.outcome.map(|o| o.reason), Some(Reason::TimeForfeit));
    let table = s.tournaments.tournament_table(&t.id).await.unwrap();
    assert_eq!(table.tournament.round, 2, "advanced once ({a} + {b} steps)");
    assert_eq!(table.pairings[0].result, Some(PairingResult::Black), "red let the deadline pass");
    let round2: Vec<_> = table.pairings.iter().filter(|p| p.round == 2).collect();
    assert_eq!(round2.len(), 1);
    assert!(round2[0].game_id.is_some());
    let e = s.games.abort(&round2[0].red, round2[0].game_id.as_deref().unwrap(), late).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "a tournament game is not aborted");
}

/// The game that completes a round and the round that follows commit together:
/// a fault in writing the next round refuses the end too, and nothing of
/// either is kept; once the fault is gone, both are written at once.
#[tokio::test]
async fn a_rounds_last_game_and_the_next_round_commit_together() {
    use crate::model::TournamentStatus;
    let site = site().await;
    let s = &site.services;
    let plan = round_robin_of_three("Together");
    let t = s.tournaments.create_tournament("red", plan, T0).await.unwrap().tournament;
    for name in ["red", "black", "third"] {
        s.tournaments.join_tournament(name, &t.id, T0).await.unwrap();
    }
    assert_eq!(s.tournaments.advance_tournaments(T0 + 1000).await.unwrap(), 1, "started");
    let table = s.tournaments.tournament_table(&t.id).await.unwrap();
    let first = table.pairings.iter().find(|p| p.round == 1 && p.game_id.is_some()).unwrap().clone();
    let game = first.game_id.clone().unwrap();

    // Writing round 2 fails: the resignation that ends round 1 is refused with it.
    let fault = "CREATE TRIGGER no_round_two BEFORE INSERT ON tournament_pairings WHEN NEW.round = 2 \
                 BEGIN SELECT RAISE(ABORT, 'injected fault'); END";
    sqlx::raw_sql(fault).execute(site.store.pool()).await.unwrap();
    assert!(s.games.resign(&first.red, &game, T0 + 2000).await.is_err());
    let table = s.tournaments.tournament_table(&t.id).await.unwrap();
    assert_eq!(table.tournament.round, 1);
    assert!(table.pairings.iter().all(|p| p.round != 1 || p.result.is_none()), "nothing of the end was kept");
    assert!(s.games.load_game(&game).await.unwrap().is_active());

    // Without the fault, the end and round 2 are written together.
    sqlx::raw_sql("DROP TRIGGER no_round_two").execute(site.store.pool()).await.unwrap();
    s.games.resign(&first.red, &game, T0 + 2000).await.unwrap();
    let table = s.tournaments.tournament_table(&t.id).await.unwrap();
    assert_eq!((table.tournament.status, table.tournament.round), (TournamentStatus::Running, 2));
    assert!(table.pairings.iter().any(|p| p.round == 2 && p.game_id.is_some()), "round 2's game began");
}

#[tokio::test]
async fn a_review_whose_worker_stopped_is_resumed_from_what_it_stored() {
    use crate::{
        domain::{now_ms, review::STALE_MS},
        model::{ReviewStatus, eval::Eval},
        store::{Claim, ClaimRequest},
    };
    let Site { services, store, _dir } = site().await;
    let s = Arc::new(services);
    let id = game(&s, DAYS_3).await.row.id;
    s.games.submit_move("red", &id, 0, "h2e2", T0).await.unwrap();
    s.games.submit_move("black", &id, 1, "h9g7", T0).await.unwrap();
    let e = s.review.request_review("third", &id, now_ms()).await.err().unwrap();
    assert_eq!(e.code(), ErrorCode::Conflict, "not while it is played");
    s.games.resign("black", &id, T0).await.unwrap();

    // A worker claimed it, evaluated the start, and its server stopped.
    let long_ago = now_ms() - STALE_MS - 1;
    let claim = ClaimRequest {
        game_id: &id,
        user: "third",
        token: "stopped",
        total: 3,
        nodes: 1,
        now: long_ago,
        stale_before: long_ago - STALE_MS,
    };
    assert_eq!(store.claim_review(&claim).await.unwrap(), Claim::New);
    let start = ReviewPositionRecord {
        ply: 0,
        eval: Eval::Cp(77),
        best: Some("h2e2".into()),
        depth: 1,
        played: None,
    };
    store.save_review_position(&id, "stopped", &start, long_ago).await.unwrap();
    assert_eq!(store.claim_review(&claim).await.unwrap(), Claim::Exists, "a fresh claim is not taken over");

    // The next request takes the quiet claim over; one after it finds it under way.
    let now = now_ms();
    assert!(s.review.request_review("red", &id, now).await.unwrap());
    assert!(!s.review.request_review("black", &id, now).await.unwrap());
    let mut done = None;
    for _ in 0..1200 {
        let (_, found) = s.review.review(&id).await.unwrap();
        let (row, positions) = found.unwrap();
        if row.status == ReviewStatus::Done {
            done = Some(positions);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let positions = done.expect("the review finishes");
    assert_eq!(positions.len(), 3);
    assert_eq!(positions[0].eval, Eval::Cp(77), "what was stored is kept, not searched again");
    assert!(positions[1].best.is_some() && positions[2].best.is_some());
    // The stopped worker, had it come back, could store nothing more.
    let late = ReviewPositionRecord { ply: 1, eval: Eval::Cp(1), best: None, depth: 1, played: None };
    assert_eq!(
        store.save_review_position(&id, "stopped", &late, now_ms()).await.unwrap(),
        crate::store::Written::Stale
    );
}

#[tokio::test]
async fn closing_an_analysis_stops_its_search() {
    use crate::domain::{
        analysis::{Progress, analysis_limits, play_line},
        now_ms,
    };
    let site = site().await;
    let s = &site.services;
    let (board, _) =
        play_line(&crate::model::board::BoardSpec::start_of(Variant::Standard), &[], false).unwrap();
    let mut analysis =
        s.analysis.analyse("red", board, analysis_limits(None, None, None).unwrap(), now_ms()).unwrap();
    let first = loop {
        match analysis.events.recv().await.unwrap() {
            Progress::Queued { .. } => continue,
            other => break other,
        }
    };
    assert!(matches!(first, Progress::Depth(_)));
    assert_eq!(s.analysis.running(), 1);
    drop(analysis);
    for _ in 0..100 {
        if s.analysis.running() == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the search still runs 2 s after its stream closed");
}

#[tokio::test]
async fn an_analysis_asked_for_three_lines_sends_three_distinct_first_moves_at_each_depth_best_first() {
    use crate::domain::analysis::{Progress, analysis_limits, play_line};
    let site = site().await;
    let s = &site.services;
    let (board, _) =
        play_line(&crate::model::board::BoardSpec::start_of(Variant::Standard), &[], false).unwrap();
    let limits = analysis_limits(Some(4), None, Some(3)).unwrap();
    let mut analysis = s.analysis.analyse("red", board, limits, T0).unwrap();
    let mut depths: Vec<Vec<(u32, String, i32)>> = Vec::new();
    loop {
        match analysis.events.recv().await.unwrap() {
            Progress::Queued { .. } => {}
            Progress::Depth(r) => {
                if r.line == 1 {
                    depths.push(Vec::new());
                }
                let value = match r.score {
                    crate::model::eval::Eval::Cp(v) => v,
                    other => panic!("a mate score at the start: {other:?}"),
                };
                depths.last_mut().expect("line 1 comes first").push((r.line, r.pv[0].iccs.clone(), value));
            }
            Progress::Done { depth, .. } => {
                assert_eq!(depth, 4);
                break;
            }
            Progress::Failed { message } => panic!("{message}"),
        }
    }
    assert_eq!(depths.len(), 4, "one round of lines per depth");
    for round in &depths {
        let lines: Vec<u32> = round.iter().map(|l| l.0).collect();
        assert_eq!(lines, [1, 2, 3]);
        let firsts: std::collections::HashSet<&str> = round.iter().map(|l| l.1.as_str()).collect();
        assert_eq!(firsts.len(), 3, "distinct first moves: {round:?}");
        assert!(round.windows(2).all(|w| w[0].2 >= w[1].2), "best first: {round:?}");
    }
    let too_few = analysis_limits(None, None, Some(0));
    assert!(matches!(too_few, Err(super::refusal::Refusal::AnalysisLines { min: 1, max: 5 })));
    assert!(analysis_limits(None, None, Some(6)).is_err());
}

#[tokio::test]
async fn the_search_of_finished_games_stores_each_puzzle_once() {
    use super::puzzles::find::Budget;
    let site = site().await;
    let s = &site.services;
    let g = game(s, DAYS_3).await;
    let id = g.row.id.as_str();
    // Both sides bring out their horses and a chariot; black's chariot then
    // steps in front of red's, which takes it for nothing.
    let moves = ["b0c2", "b9c7", "h0g2", "h9g7", "a0a1", "a9a8", "a1d1", "a8d8"];
    for (ply, m) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { "red" } else { "black" };
        s.games.submit_move(mover, id, ply as i64, m, T0).await.unwrap();
    }
    let budget = Budget { scan_nodes: 20_000, verify_nodes: 60_000 };
    let first = s.puzzles.scan_for_puzzles(budget).await.unwrap();
    assert_eq!((first.games, first.puzzles), (0, 0), "a game being played is not searched");
    s.games.resign("black", id, T0 + 1000).await.unwrap();
    let found = s.puzzles.scan_for_puzzles(budget).await.unwrap();
    assert_eq!((found.games, found.puzzles), (1, 1));
    let p = s.puzzles.next_puzzle(None, Variant::Standard, None).await.unwrap();
    assert_eq!(p.moves, ["a8d8", "d1d8"]);
    assert_eq!(p.origin, crate::model::puzzles::Origin::Site { game: id.to_string() });
    assert!(p.themes.contains(&crate::model::puzzles::PuzzleTheme::Capture), "{:?}", p.themes);
    // The search has moved past the game, and the same position is never stored twice.
    assert_eq!(s.puzzles.scan_for_puzzles(budget).await.unwrap().games, 0);
    let again = super::puzzles::find::find_in(
        &g_board(s, id).await,
        &mut engine(),
        budget,
        &xiangqi_engine::Control::new(),
    )
    .unwrap();
    assert_eq!(s.puzzles.add_puzzles(Variant::Standard, Some(id), &again).await.unwrap(), 0);
}

async fn g_board(s: &Services, id: &str) -> super::board::Board {
    (*s.games.load_game(id).await.unwrap().game).clone()
}

fn engine() -> xiangqi_engine::Engine {
    xiangqi_engine::Engine::new(
        xiangqi_engine::Options { hash_mb: 4, ..Default::default() }.with_embedded_net(),
    )
}

#[tokio::test]
async fn visitors_puzzle_moves_are_purged_only_once_their_time_is_past() {
    let site = site().await;
    let s = &site.services;
    let kept = super::puzzles::PROBES_KEPT_MS;
    let mut turn = site.store.counting(Tally::PuzzleProbes("10.0.0.1")).await.unwrap();
    site.store.insert_probe(&mut turn, "10.0.0.1", "p1", T0).await.unwrap();
    turn.done().await.unwrap();
    let latest = || site.store.nth_latest(Tally::PuzzleProbes("10.0.0.1"), 0, 1);
    assert_eq!(latest().await.unwrap(), Some(T0));
    s.sweeps.purge(T0 + kept - 1).await.unwrap();
    assert_eq!(latest().await.unwrap(), Some(T0), "kept while it still makes an attempt unrated");
    assert!(s.sweeps.purge(T0 + kept).await.unwrap() >= 1);
    assert_eq!(latest().await.unwrap(), None);
}

#[tokio::test]
async fn the_background_pass_names_each_finished_game_once_and_the_search_finds_it_by_opening() {
    use crate::domain::{explorer::PositionAsk, openings::code_of};
    use crate::model::explorer::GameSearch;
    use crate::model::page::Page;
    let site = site().await;
    let s = &site.services;
    // A game of 中炮对屏风马, Black's horses out in the other order (a transposition).
    let g = game(s, DAYS_3).await;
    let id = g.row.id.clone();
    for (ply, (who, mv)) in
        [("red", "h2e2"), ("black", "b9c7"), ("red", "h0g2"), ("black", "h9g7")].into_iter().enumerate()
    {
        s.games.submit_move(who, &id, ply as i64, mv, T0 + ply as i64).await.unwrap();
    }
    let start = g.row.start_fen.clone();
    let book = code_of(Variant::Standard, &start, "h2e2 h9g7 h0g2 b9c7");
    assert!(!book.is_empty());
    assert_eq!(
        code_of(Variant::Standard, &start, "h2e2 b9c7 h0g2 h9g7"),
        book,
        "a transposition, the same name"
    );
    let search = |codes: Vec<String>| GameSearch { openings: Some(codes), ..GameSearch::default() };
    let found = |codes| async move {
        s.explorer
            .search_games(search(codes), &PositionAsk::default(), &Page::first(10))
            .await
            .unwrap()
            .items
            .len()
    };
    assert_eq!(s.openings.name_openings().await.unwrap(), 0, "a game being played is not named yet");
    s.games.resign("black", &id, T0 + 10).await.unwrap();
    assert_eq!(found(vec![book.clone()]).await, 0, "not named yet: the pass has not run");
    assert_eq!(s.openings.name_openings().await.unwrap(), 1);
    assert_eq!(s.openings.name_openings().await.unwrap(), 0, "named once; the next round has nothing left");
    assert_eq!(found(vec![book.clone()]).await, 1);
    assert_eq!(found(crate::domain::openings::codes_matching(&book[..2])).await, 1, "by code prefix");
    assert_eq!(found(vec![]).await, 0, "a search no code answers finds nothing");
    let counts = s.openings.player_openings("red").await.unwrap();
    assert_eq!(counts.len(), 1);
    assert_eq!(
        (counts[0].ecco.as_str(), counts[0].color, counts[0].games, counts[0].wins),
        (book.as_str(), Color::Red, 1, 1)
    );
}
