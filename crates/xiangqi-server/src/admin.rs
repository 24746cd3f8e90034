//! What the command line does to a site's database without a server
//! running: make an administrator, load Masters collections.

use crate::{StartError, domain, store::Store};

/// Makes a user an administrator of the site (or, with `admin` false, no longer
/// one), in the database directly: the server need not run. Whether the user exists.
///
/// # Errors
/// [`StartError::Database`] if the database cannot be opened.
pub async fn set_admin(database: &str, name: &str, admin: bool) -> Result<bool, StartError> {
    let failed = |source| StartError::Database { url: database.to_string(), source };
    let store = Store::open(database).await.map_err(failed)?;
    store.set_admin(name, admin).await.map_err(failed)
}

/// Loads record files of any size into the Masters collection of the
/// database at `database`, calling `refused` with each record left out
/// (`xiangqi admin import-masters`): what each file gave, in order.
///
/// # Errors
/// The database cannot be opened; a file cannot be read or written from is
/// named in its own entry.
pub async fn import_masters(
    database: &str,
    files: &[std::path::PathBuf],
    mut refused: impl FnMut(&std::path::Path, &domain::imports::Refused),
) -> Result<Vec<std::result::Result<domain::masters::Loaded, String>>, StartError> {
    let failed = |source| StartError::Database { url: database.to_string(), source };
    let store = Store::open(database).await.map_err(failed)?;
    let now = domain::now_ms();
    let mut loaded = Vec::with_capacity(files.len());
    for path in files {
        loaded.push(domain::masters::load_file(&store, path, now, |r| refused(path, r)).await);
    }
    Ok(loaded)
}
