//! Archives out: the games a search of the database finds, a player's
//! finished games, a study, or one game (the site's, an imported one, or one
//! of the Masters collection) as one file: PGN with its moves in the dialect
//! asked for, or XQF for one game of the standard board.
//!
//! A file of many games is written as it is read, a page of games at a time
//! ([`paged`]), so an export of any size holds one page in memory; it holds
//! at most [`ExportLimits::max_games`] games. While it is sent it holds a
//! place of its client's ([`Downloads`], the parsing pool's kind of bounded
//! places): a client that holds its share, or an instance that writes as
//! many as it takes, is refused at once ([`Refusal::ExportsBusy`], 429 with
//! `Retry-After`) rather than queued.

use std::{future::Future, net::IpAddr, pin::Pin, sync::Arc};

use xiangqi::{
    AnyGame,
    notation::{
        pgn::{self, Record},
        tree::MoveTree,
    },
};
use xiangqi_records::xqf;

use super::{
    accounts,
    board::Board,
    explorer::PositionAsk,
    games::{Games, game_tags},
    imports::{self, Imports},
    masters::Masters,
    refusal::{Refusal, Result},
    studies::Studies,
};
use crate::model::explorer::GameSearch;

use crate::model::explorer::ImportedRecord;
use crate::model::games::GameRecord;
use crate::model::named_enum;
use crate::model::page::{Page, Paged};
use crate::{parsing::ParsePool, store::Store};

named_enum! {
    /// What an export is written as: PGN with its moves in one of three
    /// dialects (comments and variations kept in each), or XQF, the binary
    /// file of XiangQi Wizard and its descendants, which holds one game of
    /// the standard board.
    "an export format" ExportFormat {
        /// PGN with ICCS moves (`h2e2`).
        Pgn = "pgn",
        /// PGN with WXF moves (`C2=5`).
        #[serde(rename = "pgn-wxf")]
        PgnWxf = "pgn-wxf",
        /// PGN with Chinese moves (`炮二平五`).
        #[serde(rename = "pgn-chinese")]
        PgnChinese = "pgn-chinese",
        /// XQF: one game of the standard board, with its variations and comments.
        Xqf = "xqf",
    }
}

impl ExportFormat {
    /// What an export is written as when its request does not say: WXF, as
    /// the site's downloads were written before there was a choice.
    pub const DEFAULT: ExportFormat = ExportFormat::PgnWxf;

    /// The move dialect of a PGN format; none for XQF.
    pub fn moves(self) -> Option<pgn::Format> {
        match self {
            ExportFormat::Pgn => Some(pgn::Format::Iccs),
            ExportFormat::PgnWxf => Some(pgn::Format::Wxf),
            ExportFormat::PgnChinese => Some(pgn::Format::Chinese),
            ExportFormat::Xqf => None,
        }
    }

    /// The move dialect of a file of several games, where XQF, which holds
    /// one, is refused.
    pub fn for_many(self) -> Result<pgn::Format> {
        self.moves().ok_or_else(|| Refusal::XqfOneGame {}.into())
    }

    /// The media type of the file.
    pub fn content_type(self) -> &'static str {
        match self {
            ExportFormat::Xqf => "application/octet-stream",
            _ => "application/x-chess-pgn; charset=utf-8",
        }
    }

    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Xqf => "xqf",
            _ => "pgn",
        }
    }
}

/// The most games one export holds: a search or an archive with more is cut
/// there (the newest of a search, the oldest of an archive).
pub const MAX_GAMES: u32 = 100_000;

/// How long a client refused a place is asked to wait: most exports are
/// written in less.
pub const RETRY_AFTER_S: u64 = 5;

/// How exports are bounded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportLimits {
    /// The most games one file holds.
    pub max_games: u32,
    /// Games read from the store at a time (at most the store's page, 100).
    pub page: u32,
    /// Exports sent at once over the instance.
    pub at_once: usize,
    /// Exports one client (a network address, an IPv6 /64) is sent at once.
    pub per_client: usize,
}

impl Default for ExportLimits {
    fn default() -> Self {
        ExportLimits { max_games: MAX_GAMES, page: Page::MAX, at_once: 16, per_client: 2 }
    }
}

/// The bounds on downloads of many games at an instance: their limits, and
/// the places the files being sent hold.
pub struct Downloads {
    pub limits: ExportLimits,
    places: Arc<ParsePool>,
}

impl Downloads {
    pub fn new(limits: ExportLimits) -> Self {
        let places = ParsePool::new(limits.at_once, limits.per_client)
            .refusing(Refusal::ExportsBusy { seconds: RETRY_AFTER_S });
        Downloads { limits, places: Arc::new(places) }
    }

    /// The places exports hold (a test may take a client's share).
    pub fn places(&self) -> &Arc<ParsePool> {
        &self.places
    }
}

impl Default for Downloads {
    fn default() -> Self {
        Downloads::new(ExportLimits::default())
    }
}

/// A file's text as it is written, a piece per page of games.
pub type TextStream =
    Pin<Box<dyn futures_util::Stream<Item = std::result::Result<String, std::io::Error>> + Send>>;

/// What an export's file holds.
pub enum Contents {
    /// A file written whole: one game, or a study (bounded by the study's limits).
    Whole(Vec<u8>),
    /// A file written as it is sent.
    Pages(TextStream),
}

/// An export: the file's name, its format and what it holds.
pub struct Export {
    pub name: String,
    pub format: ExportFormat,
    pub contents: Contents,
}

impl Export {
    fn new(stem: &str, format: ExportFormat, contents: Contents) -> Export {
        Export { name: file_name(stem, format), format, contents }
    }
}

/// A file name of letters, digits, `-` and `_` (anything else becomes `_`),
/// so that it needs no quoting in a header, with the format's extension.
fn file_name(stem: &str, format: ExportFormat) -> String {
    let safe: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    format!("{safe}.{}", format.extension())
}

/// Where a walk of pages stands: what reads the next page and writes it,
/// the page read before the file started (sent first), the key after which
/// the next page starts, how many games the file may still take, and the
/// place the export holds until the walk is dropped.
struct Walk<F, W, T, P> {
    fetch: F,
    write: Arc<W>,
    ready: Option<Paged<T>>,
    after: Option<String>,
    left: u64,
    page: u32,
    _place: P,
}

/// How many rows the next page asks for.
fn page_of(after: Option<String>, left: u64, page: u32) -> Page {
    Page { after, limit: Some(u32::try_from(left.min(u64::from(page))).unwrap_or(page).max(1)) }
}

/// A file written as it is sent: pages of at most `page` rows read by
/// `fetch` from the key `after` on, each written by `write` (on a blocking
/// thread) and handed to the connection before the next is read, until the
/// rows or `most` of them run out. The first page is read before this
/// answers, so a store that fails says so before the file starts (a later
/// failure cuts the file short). `place` is held until the stream ends or is
/// dropped (its client went away).
///
/// # Errors
/// What reading the first page failed with.
pub async fn paged<T, F, Fut, W, P>(
    mut fetch: F,
    write: W,
    after: Option<String>,
    (page, most): (u32, u32),
    place: P,
) -> Result<TextStream>
where
    T: Send + 'static,
    F: FnMut(Page) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Paged<T>>> + Send + 'static,
    W: Fn(Vec<T>) -> String + Send + Sync + 'static,
    P: Send + 'static,
{
    let left = u64::from(most);
    let page = page.clamp(1, Page::MAX);
    let first = fetch(page_of(after, left, page)).await?;
    let walk =
        Walk { fetch, write: Arc::new(write), ready: Some(first), after: None, left, page, _place: place };
    let pieces = futures_util::stream::unfold(walk, |mut walk| async move {
        let found = match walk.ready.take() {
            Some(found) => found,
            None => {
                let after = walk.after.take().filter(|_| walk.left > 0)?;
                match (walk.fetch)(page_of(Some(after), walk.left, walk.page)).await {
                    Ok(found) => found,
                    Err(e) => {
                        tracing::warn!("an export was cut short: {e}");
                        return Some((Err(std::io::Error::other(e.to_string())), walk));
                    }
                }
            }
        };
        let mut rows = found.items;
        rows.truncate(usize::try_from(walk.left).unwrap_or(usize::MAX));
        walk.left -= rows.len() as u64;
        walk.after = found.next;
        let write = walk.write.clone();
        match tokio::task::spawn_blocking(move || write(rows)).await {
            Ok(text) => Some((Ok(text), walk)),
            Err(e) => {
                walk.after = None;
                tracing::error!("writing a page of an export failed: {e}");
                Some((Err(std::io::Error::other("writing the export failed")), walk))
            }
        }
    });
    Ok(Box::pin(pieces))
}

/// A page of site games as PGN, moves in `format`: each game replayed from
/// its stored moves and written whole, a blank line after each. A game whose
/// moves cannot be replayed is left out (and logged), not the file.
fn games_text(games: Vec<(GameRecord, Vec<String>)>, format: pgn::Format) -> String {
    let mut text = String::new();
    for (row, moves) in &games {
        let Ok(mut board) = Board::record_from_fen(row.variant, &row.start_fen, row.rules) else {
            tracing::warn!("game {} has a start that cannot be read: left out of an export", row.id);
            continue;
        };
        if moves.iter().any(|m| board.play_name(m).is_err()) {
            tracing::warn!(
                "game {} has a stored move that cannot be replayed: left out of an export",
                row.id
            );
            continue;
        }
        text.push_str(&super::games::game_pgn(row, &board, format));
        text.push('\n');
    }
    text
}

/// A game of the standard board as an XQF file: its record with `tags` set
/// and its moves as a line; the hex board has no XQF.
fn board_xqf(board: &Board, tags: &[(&str, String)]) -> Result<Vec<u8>> {
    let AnyGame::Standard(game) = &**board else {
        return Err(Refusal::XqfOneGame {}.into());
    };
    let mut record = Record::from_game(game);
    for (name, value) in tags {
        record.set_tag(name, value);
    }
    let tree = MoveTree::line(&record.moves);
    Ok(xqf::write(&xiangqi_records::Game::new(record, tree)))
}

/// An imported game's file: its whole tree (variations and comments) as PGN
/// in the dialect asked for, or as XQF.
fn kept_file(row: &ImportedRecord, format: ExportFormat) -> Result<Vec<u8>> {
    let game = imports::kept_game(row)?;
    Ok(match format.moves() {
        Some(moves) => pgn::write_tree(&game.record, &game.tree, moves).into_bytes(),
        None => xqf::write(&game),
    })
}

/// Game records for download: one game of any collection, a study, a
/// search's games or a user's archive, within the downloads' bounds.
pub struct Exports {
    store: Store,
    parsing: Arc<ParsePool>,
    downloads: Downloads,
    games: Arc<Games>,
    imports: Arc<Imports>,
    masters: Arc<Masters>,
    studies: Arc<Studies>,
}

impl Exports {
    pub fn new(
        store: Store,
        parsing: Arc<ParsePool>,
        downloads: Downloads,
        games: Arc<Games>,
        imports: Arc<Imports>,
        masters: Arc<Masters>,
        studies: Arc<Studies>,
    ) -> Self {
        Exports { store, parsing, downloads, games, imports, masters, studies }
    }

    /// The bounds on downloads at this instance.
    pub fn downloads(&self) -> &Downloads {
        &self.downloads
    }

    /// Every finished game a search finds, the most recently ended first
    /// (from the key `after` on, when given), as one PGN file written a page
    /// at a time as it is sent; at most the limits' `max_games` games.
    pub async fn export_search(
        &self,
        client: IpAddr,
        search: GameSearch,
        at: &PositionAsk,
        after: Option<String>,
        format: ExportFormat,
    ) -> Result<Export> {
        let moves = format.for_many()?;
        let search = search.at(at)?;
        let stem = match &search.player {
            Some(p) => format!("xiangqi-database-{p}"),
            None => "xiangqi-database".to_string(),
        };
        let place = self.downloads.places.admit(client)?;
        let store = self.store.clone();
        let fetch = move |page: Page| {
            let (store, search) = (store.clone(), search.clone());
            async move {
                let found = store.search_games(&search, &page).await?;
                let ids: Vec<String> = found.items.iter().map(|g| g.id.clone()).collect();
                let mut played = store.moves_of_games(&ids).await?;
                let items = found
                    .items
                    .into_iter()
                    .map(|g| {
                        let moves = played.remove(&g.id).unwrap_or_default();
                        (g, moves)
                    })
                    .collect();
                Ok(Paged { items, next: found.next })
            }
        };
        let limits = &self.downloads.limits;
        let text =
            paged(fetch, move |page| games_text(page, moves), after, (limits.page, limits.max_games), place)
                .await?;
        Ok(Export::new(&stem, format, Contents::Pages(text)))
    }

    /// A player's finished games, oldest first, as one PGN file written a
    /// page at a time as it is sent; at most the limits' `max_games` games.
    pub async fn archive(&self, client: IpAddr, name: &str, format: ExportFormat) -> Result<Export> {
        let moves = format.for_many()?;
        let user = accounts::user(&self.store, name).await?;
        let place = self.downloads.places.admit(client)?;
        let (store, who) = (self.store.clone(), user.name.clone());
        let fetch = move |page: Page| {
            let (store, who) = (store.clone(), who.clone());
            async move { Ok(store.archive_page(&who, &page).await?) }
        };
        let limits = &self.downloads.limits;
        let text =
            paged(fetch, move |page| games_text(page, moves), None, (limits.page, limits.max_games), place)
                .await?;
        Ok(Export::new(&format!("xiangqi-{}", user.name), format, Contents::Pages(text)))
    }

    /// A game of the site's record as a file: PGN in the dialect asked for,
    /// or XQF (the standard board only), with its date and time control.
    pub async fn game_record(&self, id: &str, format: ExportFormat) -> Result<Export> {
        let loaded = self.games.load_game(id).await?;
        let tags = game_tags(&loaded.row);
        let bytes = match format.moves() {
            Some(moves) => loaded.game.pgn_as(&tags, moves).into_bytes(),
            None => board_xqf(&loaded.game, &tags)?,
        };
        Ok(Export::new(&format!("xiangqi-{}", loaded.row.id), format, Contents::Whole(bytes)))
    }

    /// One of `user`'s imported games as a file, with its whole tree; read
    /// and written in `client`'s share of the parsing pool, since a record
    /// may hold as many moves as a file.
    pub async fn imported_record(
        &self,
        client: IpAddr,
        user: &str,
        id: &str,
        format: ExportFormat,
    ) -> Result<Export> {
        let row = self.imports.imported_game(user, id).await?;
        let stem = format!("xiangqi-import-{}", row.id);
        let bytes = self.parsing.run(client, move || kept_file(&row, format)).await??;
        Ok(Export::new(&stem, format, Contents::Whole(bytes)))
    }

    /// A game of the Masters collection as a file, as [`Self::imported_record`].
    pub async fn masters_record(&self, client: IpAddr, id: &str, format: ExportFormat) -> Result<Export> {
        let row = self.masters.masters_game(id).await?;
        let stem = format!("xiangqi-masters-{}", row.id);
        let bytes = self.parsing.run(client, move || kept_file(&row, format)).await??;
        Ok(Export::new(&stem, format, Contents::Whole(bytes)))
    }

    /// A study as one PGN file in the dialect asked for, if `viewer` may see it.
    pub async fn study_export(&self, viewer: Option<&str>, id: &str, format: ExportFormat) -> Result<Export> {
        let text = self.studies.study_pgn(viewer, id, format).await?;
        Ok(Export::new(&format!("study-{id}"), format, Contents::Whole(text.into_bytes())))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use futures_util::StreamExt;

    use super::*;
    use crate::domain::refusal::Error;
    use crate::model::Named;
    use xiangqi::{RuleSet, Variant};

    #[test]
    fn each_format_s_name_is_its_wire_name_and_only_pgn_holds_many_games() {
        for f in ExportFormat::all() {
            assert_eq!(serde_json::to_value(f).unwrap(), f.name());
            assert_eq!(ExportFormat::parse(f.name()), Ok(*f));
        }
        assert_eq!(ExportFormat::PgnChinese.moves(), Some(pgn::Format::Chinese));
        assert!(matches!(ExportFormat::Xqf.for_many(), Err(Error::Refused(Refusal::XqfOneGame {}))));
        assert_eq!(ExportFormat::Xqf.content_type(), "application/octet-stream");
        assert_eq!(file_name("xiangqi-a b\"c", ExportFormat::Pgn), "xiangqi-a_b_c.pgn");
        assert_eq!(file_name("x", ExportFormat::Xqf), "x.xqf");
    }

    /// Rows 0..`count` of a list, read by key a page at a time, counting the reads.
    fn source(
        count: u32,
        reads: Arc<AtomicUsize>,
    ) -> impl FnMut(Page) -> std::future::Ready<Result<Paged<u32>>> {
        move |page: Page| {
            reads.fetch_add(1, Ordering::SeqCst);
            let from = page.after.as_deref().map_or(0, |k| k.parse::<u32>().unwrap() + 1);
            let limit = page.limit.unwrap();
            let items: Vec<u32> = (from..count.min(from + limit)).collect();
            let next = (from + limit < count).then(|| items.last().unwrap().to_string());
            std::future::ready(Ok(Paged { items, next }))
        }
    }

    fn numbers(rows: Vec<u32>) -> String {
        rows.iter().map(|n| format!("{n}\n")).collect()
    }

    #[tokio::test]
    async fn a_page_is_read_only_once_the_one_before_is_sent() {
        let reads = Arc::new(AtomicUsize::new(0));
        let place = Arc::new(());
        let mut text =
            paged(source(1_000, reads.clone()), numbers, None, (10, 100_000), place.clone()).await.unwrap();
        assert_eq!(reads.load(Ordering::SeqCst), 1, "the first page is read before the file starts");
        let first = text.next().await.unwrap().unwrap();
        assert_eq!(first.lines().count(), 10);
        assert_eq!(reads.load(Ordering::SeqCst), 1, "nothing more is read while the first page is sent");
        let second = text.next().await.unwrap().unwrap();
        assert_eq!(second.lines().next(), Some("10"));
        assert_eq!(reads.load(Ordering::SeqCst), 2);
        assert_eq!(Arc::strong_count(&place), 2, "the place is held while the file is sent");
        let mut whole = first + &second;
        while let Some(piece) = text.next().await {
            whole.push_str(&piece.unwrap());
        }
        assert_eq!(whole.lines().count(), 1_000);
        assert_eq!(reads.load(Ordering::SeqCst), 100);
        drop(text);
        assert_eq!(Arc::strong_count(&place), 1, "and given back when it ends");
    }

    #[tokio::test]
    async fn a_file_stops_at_its_most_games_and_starts_after_its_key() {
        let reads = Arc::new(AtomicUsize::new(0));
        let text =
            paged(source(1_000, reads.clone()), numbers, Some("99".into()), (10, 25), ()).await.unwrap();
        let pieces: Vec<String> = text.map(|p| p.unwrap()).collect().await;
        let rows: Vec<&str> = pieces.iter().flat_map(|p| p.lines()).collect();
        assert_eq!(rows.len(), 25);
        assert_eq!((rows[0], rows[24]), ("100", "124"));
        assert_eq!(reads.load(Ordering::SeqCst), 3, "pages of 10, 10 and the last 5");
    }

    #[tokio::test]
    async fn a_client_that_goes_away_gives_its_place_back() {
        let exports = Downloads::new(ExportLimits { per_client: 1, ..ExportLimits::default() });
        let client: IpAddr = "10.1.2.3".parse().unwrap();
        let place = exports.places().admit(client).unwrap();
        let refused = exports.places().admit(client).err().unwrap();
        assert_eq!(refused, Refusal::ExportsBusy { seconds: RETRY_AFTER_S });
        assert_eq!(refused.retry_after_s(), Some(RETRY_AFTER_S));
        let reads = Arc::new(AtomicUsize::new(0));
        let text = paged(source(100, reads), numbers, None, (10, 100), place).await.unwrap();
        drop(text);
        assert!(exports.places().admit(client).is_ok(), "dropping the file mid-way frees the place");
    }

    #[test]
    fn a_site_game_reads_back_in_every_dialect_and_as_xqf() {
        let mut board = Board::startpos(Variant::Standard, RuleSet::Asian).unwrap();
        for m in ["h2e2", "h9g7", "h0g2"] {
            board.play_name(m).unwrap();
        }
        let tags = [("Red", "alice".to_string()), ("Black", "bob".to_string())];
        for f in [pgn::Format::Iccs, pgn::Format::Wxf, pgn::Format::Chinese] {
            let back = pgn::read(&board.pgn_as(&tags, f)).unwrap();
            assert_eq!(back.moves, board.moves(), "{f:?}");
            assert_eq!(back.tag("Red"), Some("alice"));
        }
        let xqf = board_xqf(&board, &tags).unwrap();
        let back = xqf::read(&xqf, &xiangqi::notation::limits::Limits::SITE).unwrap();
        assert_eq!(back.record.moves, board.moves());
        assert_eq!(back.record.tag("Black"), Some("bob"));
        let hex = Board::startpos(Variant::Hex, RuleSet::Hex).unwrap();
        assert!(matches!(board_xqf(&hex, &tags), Err(Error::Refused(Refusal::XqfOneGame {}))));
    }
}
