//! Whom outbound HTTPS trusts: the bundled Mozilla roots, the system's store
//! (where a company installs its own CA; reqwest's `rustls-tls-native-roots`)
//! and, when set, an extra PEM file named in the config. Self-hosted model
//! servers often sit behind a corporate CA that neither list knows.

use std::path::Path;

/// The certificates in `path`, for `ClientBuilder::add_root_certificate`.
/// Errors read as a sentence for start-up validation.
pub fn extra_roots(path: &Path) -> Result<Vec<reqwest::Certificate>, String> {
    let pem = std::fs::read(path).map_err(|e| format!("cannot read the file: {e}"))?;
    let certs = reqwest::Certificate::from_pem_bundle(&pem)
        .map_err(|e| format!("not a PEM certificate bundle: {e}"))?;
    if certs.is_empty() {
        return Err("no PEM certificate in the file".into());
    }
    Ok(certs)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_certificates_is_refused_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        assert!(
            extra_roots(&empty)
                .unwrap_err()
                .contains("no PEM certificate")
        );
        let missing = dir.path().join("missing.pem");
        assert!(extra_roots(&missing).unwrap_err().contains("cannot read"));
    }
}
