//! Whom outbound HTTPS trusts: the bundled Mozilla roots, the system's store
//! (where a company installs its own CA; reqwest's `rustls-tls-native-roots`)
//! and, when set, an extra PEM file named in the config. Self-hosted model
//! servers often sit behind a corporate CA that neither list knows.

use crate::config::extra_roots;
use std::path::Path;

/// A client builder trusting the bundled and system roots plus `ca_file`.
pub fn builder(ca_file: Option<&Path>) -> Result<reqwest::ClientBuilder, String> {
    let mut b = reqwest::Client::builder();
    if let Some(path) = ca_file {
        for cert in extra_roots(path)? {
            b = b.add_root_certificate(cert);
        }
    }
    Ok(b)
}
