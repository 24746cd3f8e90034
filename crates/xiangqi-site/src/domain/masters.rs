//! The site's Masters collection: real games an administrator loads from
//! record files (on the import page, or any number of files of any size with
//! `xiangqi admin import-masters`), kept apart from the site's own games and
//! from users' imports, searched on their own and counted in their own tab of
//! the explorer. The filler's made-up games never go there: only an
//! administrator's files do. Records are read and replayed as every import
//! is (see `imports`), and one loaded twice is kept once.

use std::{net::IpAddr, path::Path};

use std::sync::Arc;

use xiangqi_records::{Encoding, Format, Game, Limits, ReadOptions, RecordError, ccbridge};

use super::{
    accounts,
    imports::{self, ImportReport, MAX_BYTES, Refused},
    refusal::{Refusal, Result},
};
use crate::model::explorer::ImportedRecord;
use crate::model::page::{Page, Paged};
use crate::parsing::ParsePool;
use crate::store::{Explored, MASTERS, Store};

/// How many games one transaction of a load writes.
const BATCH: usize = 500;

/// What came of loading one file into the collection.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    pub kept: u64,
    pub duplicates: u64,
    pub refused: u64,
}

/// The Masters collection: its games, and loading record files into it.
pub struct Masters {
    store: Store,
    parsing: Arc<ParsePool>,
}

impl Masters {
    pub fn new(store: Store, parsing: Arc<ParsePool>) -> Self {
        Masters { store, parsing }
    }

    /// Loads a file into the Masters collection: administrators only.
    pub async fn import_masters(
        &self,
        admin: &str,
        client: IpAddr,
        bytes: Vec<u8>,
        encoding: Option<Encoding>,
        now: i64,
    ) -> Result<ImportReport> {
        accounts::admin(&self.store, admin).await?;
        if bytes.len() > MAX_BYTES {
            return Err(imports::too_large().into());
        }
        let read = self
            .parsing
            .run(client, move || {
                imports::read_file(MASTERS, &bytes, encoding, now, &imports::Progress::default())
            })
            .await??;
        let mut fresh = Vec::with_capacity(read.kept.len());
        for batch in read.kept.chunks(BATCH) {
            fresh.extend(self.store.import_masters(batch).await?);
        }
        let duplicates = (read.kept.len() - fresh.len()) as u32;
        Ok(ImportReport {
            format: read.format,
            encoding: read.encoding,
            kept: fresh,
            duplicates,
            refused: read.refused,
        })
    }

    /// A page of the Masters collection, newest first; of one player's games when named.
    pub async fn masters_games(&self, player: Option<&str>, page: &Page) -> Result<Paged<ImportedRecord>> {
        Ok(self.store.masters_games(player.map(str::trim).filter(|p| !p.is_empty()), page).await?)
    }

    /// One game of the Masters collection.
    pub async fn masters_game(&self, id: &str) -> Result<ImportedRecord> {
        self.store.masters_game(id).await?.ok_or_else(|| Refusal::NoGame { id: id.to_string() }.into())
    }
}

/// Loads a record file of any size into the Masters collection of `store`,
/// a batch of games per transaction (a CCBridge library is read a record at
/// a time): what was kept, already there, and refused, each refusal passed
/// to `refused` as it is found.
///
/// # Errors
/// The file cannot be read, or the database refuses a write.
pub async fn load_file(
    store: &Store,
    path: &Path,
    now: i64,
    mut refused: impl FnMut(&Refused),
) -> std::result::Result<Loaded, String> {
    let shown = path.display().to_string();
    let mut loaded = Loaded::default();
    let mut batch: Vec<(ImportedRecord, Option<Explored>)> = Vec::with_capacity(BATCH);
    let open = || std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"));
    let mut head = Vec::with_capacity(4096);
    std::io::Read::read_to_end(&mut std::io::Read::take(open()?, 4096), &mut head)
        .map_err(|e| format!("{shown}: {e}"))?;
    // A library may be far larger than memory should hold: it is read a record at a time.
    let mut games: Box<dyn Iterator<Item = std::result::Result<Game, RecordError>> + Send> =
        if Format::of(&head, None) == Format::Cbl {
            Box::new(ccbridge::cbl_games(std::io::BufReader::new(open()?), Limits::ARCHIVE))
        } else {
            let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
            let options = ReadOptions { encoding: None, limits: Limits::ARCHIVE };
            let read = xiangqi_records::read_file(&bytes, &options).map_err(|e| format!("{shown}: {e}"))?;
            Box::new(read.games.into_iter())
        };
    for (i, read) in games.by_ref().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let whole = match &read {
            Ok(game) => Some(game),
            Err(e) => {
                let names = e.kept().map(|g| imports::players(&g.record)).unwrap_or(("?".into(), "?".into()));
                refused(&imports::refused_record(number, names, e));
                loaded.refused += 1;
                e.kept().filter(|g| !g.record.moves.is_empty())
            }
        };
        match whole.map(|g| imports::check(MASTERS, number, g, now)) {
            Some(Ok(row)) => batch.push(row),
            Some(Err(r)) => {
                refused(&r);
                loaded.refused += 1;
            }
            None => {}
        }
        if batch.len() >= BATCH {
            write(store, &mut batch, &mut loaded).await?;
        }
    }
    write(store, &mut batch, &mut loaded).await?;
    Ok(loaded)
}

/// Writes a batch of games into the collection, counting what was new.
async fn write(
    store: &Store,
    batch: &mut Vec<(ImportedRecord, Option<Explored>)>,
    loaded: &mut Loaded,
) -> std::result::Result<(), String> {
    if batch.is_empty() {
        return Ok(());
    }
    let fresh = store.import_masters(batch).await.map_err(|e| e.to_string())?.len() as u64;
    loaded.kept += fresh;
    loaded.duplicates += batch.len() as u64 - fresh;
    batch.clear();
    Ok(())
}
