//! The admin token check. No token configured means the admin area is disabled,
//! never open. Tokens are compared as BLAKE3 digests, whose equality is constant
//! time, so neither the content nor the length of the real token leaks through
//! response timing.

use crate::config::Secret;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Granted,
    /// No `admin.token` is configured.
    Disabled,
    /// Missing or wrong token.
    Denied,
}

pub fn check(configured: Option<&Secret>, presented: Option<&str>) -> Access {
    let Some(token) = configured else {
        return Access::Disabled;
    };
    match presented {
        Some(p) if blake3::hash(p.as_bytes()) == blake3::hash(token.expose().as_bytes()) => {
            Access::Granted
        }
        _ => Access::Denied,
    }
}

/// The token of an `Authorization: Bearer <token>` header value.
pub fn bearer(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_without_a_token_and_denied_when_wrong() {
        let t = Secret::new("a-long-admin-token-123");
        assert_eq!(check(None, Some("anything")), Access::Disabled);
        assert_eq!(check(None, None), Access::Disabled);
        assert_eq!(check(Some(&t), None), Access::Denied);
        assert_eq!(
            check(Some(&t), Some("a-long-admin-token-12")),
            Access::Denied
        );
        assert_eq!(check(Some(&t), Some("")), Access::Denied);
        assert_eq!(
            check(Some(&t), Some("a-long-admin-token-123")),
            Access::Granted
        );
    }

    #[test]
    fn bearer_headers() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer   abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer "), None);
        assert_eq!(bearer("abc"), None);
    }
}
