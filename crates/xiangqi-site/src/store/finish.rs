//! A game's end, written in the transaction of the change that ended it: both
//! players' records, both ratings (read and written under the players' locks,
//! so that two games of one player ending at once both count), the ladder and
//! the tournament pairing. A crash can leave a game either still being played
//! or finished with all of this counted, never in between.

use xiangqi::Color;

use super::{
    Backend, FromRow, LadderResultRow, TournamentStep, Written,
    explorer::{CountChange, Counted, Explored, count_games, write_positions},
    ladders::apply_ladder_result,
    locks,
    ratings::{count_result, write_rating},
    tournaments::take_step_in,
};
use crate::model::ratings::RatingRecord;
use crate::model::{
    ratings::{Category, Rating, rate},
    {Named, PairingResult},
};

type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

/// What a finished game writes beside its own row.
#[derive(Clone, Debug, PartialEq)]
pub struct Finish {
    pub game: String,
    pub red: String,
    pub black: String,
    pub winner: Option<Color>,
    pub at_ms: i64,
    /// The category whose ratings a rated game moves.
    pub rated: Option<Category>,
    /// A ladder game's result.
    pub ladder: Option<(Category, LadderResultRow)>,
    /// Whether the game is a tournament's: its pairing is settled.
    pub tournament: bool,
    /// The tournament's step when this game completes its round.
    pub step: Option<TournamentStep>,
    /// What the game gives the games database and the opening explorer, and
    /// the category whose ratings place it in the explorer's rating bands.
    pub explored: Option<(Category, Explored)>,
}

/// A finish's explorer counts, written after everything else of its
/// transaction (see [`count_explored`]): the players' average rating before it.
pub(super) struct ToCount<'a> {
    finish: &'a Finish,
    rating: i64,
}

/// Takes the rating locks of every player whose rating the finishes move,
/// in one order, before anything else is written: transactions that take them
/// this way cannot wait on each other in a cycle. SQLite writes one
/// transaction at a time, so there they are already held.
pub(super) async fn lock_players<'a>(
    tx: &mut Tx<'_>,
    backend: Backend,
    finishes: impl IntoIterator<Item = &'a Finish>,
) -> Result<(), sqlx::Error> {
    if backend != Backend::Postgres {
        return Ok(());
    }
    let mut players: Vec<&str> =
        finishes.into_iter().filter(|f| f.rated.is_some()).flat_map(|f| [&*f.red, &*f.black]).collect();
    players.sort_unstable();
    players.dedup();
    for p in players {
        sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) l")
            .bind(locks::key(&format!("rating:{p}")))
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Writes a finish in a transaction that has taken its players' locks
/// ([`lock_players`]) and ended the game; what it adds to the explorer comes
/// back, to be written last with the transaction's others ([`count_explored`]).
pub(super) async fn write_finish<'f>(
    tx: &mut Tx<'_>,
    f: &'f Finish,
) -> Result<Option<ToCount<'f>>, sqlx::Error> {
    let mut to_count = None;
    if let Some((category, explored)) = &f.explored {
        let red = rating_in(tx, &f.red, *category).await?;
        let black = rating_in(tx, &f.black, *category).await?;
        let rating = ((red.rating + black.rating) / 2.0).round() as i64;
        write_positions(tx, &f.game, f.at_ms, &explored.reached).await?;
        to_count = Some(ToCount { finish: f, rating });
    }
    count_result(tx, &f.red, &f.black, f.winner).await?;
    if let Some(category) = f.rated {
        let red = rating_in(tx, &f.red, category).await?;
        let black = rating_in(tx, &f.black, category).await?;
        let (red, black) = rate(&red, &black, f.winner);
        write_rating(tx, &f.red, category, &red, &f.game, f.at_ms).await?;
        write_rating(tx, &f.black, category, &black, &f.game, f.at_ms).await?;
    }
    if let Some((category, result)) = &f.ladder {
        apply_ladder_result(tx, *category, result, false).await?;
    }
    if f.tournament {
        sqlx::query("UPDATE tournament_pairings SET result = $1 WHERE game_id = $2 AND result IS NULL")
            .bind(PairingResult::of_game(f.winner).name())
            .bind(&f.game)
            .execute(&mut **tx)
            .await?;
    }
    // Worked out under the tournament's lock, which its finishing games and its
    // steps take: nothing else can have moved it on.
    if let Some(step) = &f.step
        && take_step_in(tx, step).await? == Written::Stale
    {
        return Err(sqlx::Error::Protocol("a tournament moved on while its round ended".into()));
    }
    Ok(to_count)
}

/// Adds the finishes of a transaction to the explorer's counts, after all
/// else it writes: its hot rows are held for the shortest time, and taken in
/// one order of keys by every transaction.
pub(super) async fn count_explored(tx: &mut Tx<'_>, finishes: &[ToCount<'_>]) -> Result<(), sqlx::Error> {
    let counted: Vec<Counted<'_>> = finishes
        .iter()
        .filter_map(|t| {
            let (_, explored) = t.finish.explored.as_ref()?;
            Some(Counted { owner: "", explored, winner: t.finish.winner, rating: Some(t.rating) })
        })
        .collect();
    if counted.is_empty() {
        return Ok(());
    }
    count_games(tx, &counted, CountChange::Add).await
}

/// A player's rating as this transaction sees it (a newcomer's if none).
async fn rating_in(tx: &mut Tx<'_>, user: &str, category: Category) -> Result<Rating, sqlx::Error> {
    let row = sqlx::query("SELECT * FROM ratings WHERE user_name = $1 AND category = $2")
        .bind(user)
        .bind(category.name())
        .fetch_optional(&mut **tx)
        .await?;
    Ok(match row {
        Some(r) => RatingRecord::from_row(&r)?.rating,
        None => Rating::default(),
    })
}
