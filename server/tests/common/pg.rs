//! A fresh database per test in the throw-away Postgres cluster `scripts/test`
//! starts (`scripts/pg`), whose admin URL is in `TEST_POSTGRES_URL`. Without
//! it the Postgres tests say so and pass, unless `TEST_POSTGRES_REQUIRED`
//! is set (CI sets it, so there they always run).

/// The URL of a new, empty database, or `None` when no cluster is configured.
pub async fn database() -> Option<String> {
    let Ok(admin) = std::env::var("TEST_POSTGRES_URL") else {
        assert!(
            std::env::var_os("TEST_POSTGRES_REQUIRED").is_none(),
            "TEST_POSTGRES_URL is not set; scripts/pg start DIR prints the URL"
        );
        eprintln!("skipped: no Postgres (set TEST_POSTGRES_URL, see scripts/pg)");
        return None;
    };
    let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
        .await
        .expect("connect to the test cluster");
    tokio::spawn(conn);
    let name = format!("rc_{}", uuid::Uuid::new_v4().simple());
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("create database");
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    Some(format!("{base}/{name}"))
}

/// Runs one statement against `url` (a test reaching under the server).
pub async fn execute(url: &str, sql: &str) -> u64 {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client.execute(sql, &[]).await.expect(sql)
}
