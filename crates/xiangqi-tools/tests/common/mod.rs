//! What the PostgreSQL tests of the tools share.

use sqlx::{Connection, Executor, PgConnection, Row};

/// A fresh database named `name` next to the one `XIANGQI_TEST_POSTGRES_URL`
/// names: its URL and a connection to the server's own (to drop it after), or
/// `None` where no PostgreSQL is given (never on CI).
pub async fn fresh_database(name: &str) -> (String, PgConnection) {
    let url = std::env::var("XIANGQI_TEST_POSTGRES_URL").unwrap_or_else(|_| {
        panic!("XIANGQI_TEST_POSTGRES_URL is not set: {name} needs PostgreSQL (.ci/run sets it)")
    });
    let mut admin = PgConnection::connect(&url).await.expect("the test database");
    admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await.unwrap();
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await.unwrap();
    let (base, _) = url.rsplit_once('/').expect("a database in the URL");
    (format!("{base}/{name}"), admin)
}

pub async fn count(db: &mut PgConnection, sql: &str) -> i64 {
    sqlx::query(sql).fetch_one(db).await.unwrap().try_get(0).unwrap()
}
