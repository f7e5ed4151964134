//! The app's URL scheme: which paths are the admin console, and which tab (and
//! trace) a console path opens. Plain functions, compiled for the server too, so
//! their tests run in `cargo test` rather than only in a browser build.

/// Whether a path belongs to the console rather than the chat.
pub fn is_admin_path(path: &str) -> bool {
    path == "/admin" || path.starts_with("/admin/")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Quality,
    Traces,
    Test,
    Index,
    Requests,
}

impl Tab {
    pub const ALL: [Tab; 5] = [
        Tab::Quality,
        Tab::Traces,
        Tab::Test,
        Tab::Index,
        Tab::Requests,
    ];

    pub fn slug(self) -> &'static str {
        match self {
            Tab::Quality => "quality",
            Tab::Traces => "traces",
            Tab::Test => "test",
            Tab::Index => "index",
            Tab::Requests => "requests",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Tab::Quality => "Quality",
            Tab::Traces => "Traces",
            Tab::Test => "Test query",
            Tab::Index => "Index",
            Tab::Requests => "Requests",
        }
    }
}

/// `/admin[/<tab>[/<turn>]]` → the tab and, on Traces, the turn whose detail is open.
pub fn route(path: &str) -> (Tab, Option<String>) {
    let rest = path
        .strip_prefix("/admin")
        .unwrap_or_default()
        .trim_matches('/');
    let (first, more) = rest.split_once('/').unwrap_or((rest, ""));
    let tab = Tab::ALL
        .into_iter()
        .find(|t| t.slug() == first)
        .unwrap_or(Tab::Quality);
    let turn = (tab == Tab::Traces)
        .then(|| more.trim_matches('/').to_string())
        .filter(|t| !t.is_empty() && !t.contains('/'));
    (tab, turn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert_eq!(route("/admin"), (Tab::Quality, None));
        assert_eq!(route("/admin/"), (Tab::Quality, None));
        assert_eq!(route("/admin/index"), (Tab::Index, None));
        assert_eq!(
            route("/admin/traces/abc"),
            (Tab::Traces, Some("abc".into()))
        );
        assert_eq!(route("/admin/test/abc"), (Tab::Test, None));
        assert!(is_admin_path("/admin/requests"));
        assert!(!is_admin_path("/administrator"));
    }
}
