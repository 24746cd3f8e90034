//! What the PostgreSQL tests of the tools share.

use sqlx::{Connection, Executor, PgConnection, Row};

/// A fresh database named `name` next to the one `XIANGQI_TEST_POSTGRES_URL`
/// names: its URL and a connection to the server's own (to drop it after), or
/// `None` where no PostgreSQL is given (never on CI).
pub async fn fresh_database(name: &str) -> Option<(String, PgConnection)> {
    let url = match std::env::var("XIANGQI_TEST_POSTGRES_URL") {
        Ok(url) => url,
        Err(_) if std::env::var_os("CI").is_some() => panic!("CI must set XIANGQI_TEST_POSTGRES_URL"),
        Err(_) => {
            eprintln!("XIANGQI_TEST_POSTGRES_URL is not set: {name} is not tested");
            return None;
        }
    };
    let mut admin = PgConnection::connect(&url).await.expect("the test database");
    admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await.unwrap();
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await.unwrap();
    let (base, _) = url.rsplit_once('/').expect("a database in the URL");
    Some((format!("{base}/{name}"), admin))
}

pub async fn count(db: &mut PgConnection, sql: &str) -> i64 {
    sqlx::query(sql).fetch_one(db).await.unwrap().try_get(0).unwrap()
}
