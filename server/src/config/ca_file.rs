//! A CA file named in the config (`llm.ca_file`, `embedder.ca_file`): read and
//! checked at start-up, so a wrong path or a file without certificates is a
//! readable configuration error rather than a TLS failure at the first question.

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
