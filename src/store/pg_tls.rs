//! TLS to PostgreSQL, as the URL's `sslmode` asks, read the way libpq reads it:
//!
//! | `sslmode` | encrypted | the server's certificate |
//! |---|---|---|
//! | `disable` | never | — |
//! | `prefer` (the default) | if the server offers TLS, else plain | not checked |
//! | `require` | always | not checked |
//! | `verify-ca` | always | signed by a root of `sslrootcert` |
//! | `verify-full` | always | signed by a root of `sslrootcert` and naming the host |
//!
//! `sslrootcert` is a PEM file of root certificates, or `system` for the public authorities
//! (Mozilla's list, built in); `verify-ca` and `verify-full` need one. tokio-postgres itself
//! knows only `disable`, `prefer` and `require` and no `sslrootcert`: this module takes both
//! out of the URL before tokio-postgres reads it, and builds the rustls connector
//! (tokio-postgres-rustls, with ring, as serenity's HTTP client) that does the checking.

use super::StoreError;
use percent_encoding::percent_decode_str;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use std::path::PathBuf;
use std::sync::Arc;
use tokio_postgres_rustls::MakeRustlsConnect;

/// The URL's `sslmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SslMode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    fn parse(value: &str) -> Result<SslMode, StoreError> {
        Ok(match value {
            "disable" => SslMode::Disable,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            other => {
                return Err(bad(format!(
                "sslmode must be disable, prefer, require, verify-ca or verify-full, not {other:?}"
            )))
            }
        })
    }

    /// What tokio-postgres is told: whether to ask for TLS, and whether to insist.
    pub(crate) fn for_driver(self) -> tokio_postgres::config::SslMode {
        use tokio_postgres::config::SslMode as Driver;
        match self {
            SslMode::Disable => Driver::Disable,
            SslMode::Prefer => Driver::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => Driver::Require,
        }
    }
}

/// Where the roots that sign the server's certificate come from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RootCerts {
    File(PathBuf),
    /// The public authorities (`sslrootcert=system`).
    System,
}

/// The TLS part of a PostgreSQL URL, and the rest of the URL for tokio-postgres.
#[derive(Debug)]
pub(crate) struct TlsSettings {
    pub(crate) mode: SslMode,
    roots: Option<RootCerts>,
}

fn bad(reason: String) -> StoreError {
    StoreError::BadDatabaseUrl { reason }
}

/// Takes `sslmode` and `sslrootcert` out of `url`: returns the URL without them (for
/// tokio-postgres) and what they ask. The URL's other parameters, its hosts and its password
/// pass through untouched; nothing of the URL is quoted in an error.
pub(crate) fn split_url(url: &str) -> Result<(String, TlsSettings), StoreError> {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, query),
        None => (url, ""),
    };
    let mut kept = Vec::new();
    let mut mode = None;
    let mut roots = None;
    for param in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = param.split_once('=').unwrap_or((param, ""));
        let value = || {
            percent_decode_str(value)
                .decode_utf8()
                .map(|v| v.into_owned())
                .map_err(|_| bad(format!("the value of {key} is not UTF-8")))
        };
        match key {
            "sslmode" => mode = Some(SslMode::parse(&value()?)?),
            "sslrootcert" => {
                let v = value()?;
                roots = Some(if v == "system" {
                    RootCerts::System
                } else {
                    RootCerts::File(PathBuf::from(v))
                });
            }
            "sslcert" | "sslkey" | "sslpassword" => {
                return Err(bad(format!(
                    "{key}: client certificates are not supported; use a password"
                )))
            }
            _ => kept.push(param),
        }
    }
    let mode = mode.unwrap_or(SslMode::Prefer);
    if matches!(mode, SslMode::VerifyCa | SslMode::VerifyFull) && roots.is_none() {
        return Err(bad(
            "sslmode=verify-ca and verify-full need sslrootcert: a PEM file of the root certificates, or `system` for the public authorities"
                .to_owned(),
        ));
    }
    let rest = if kept.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((rest, TlsSettings { mode, roots }))
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

impl TlsSettings {
    /// The connector for these settings (tokio-postgres does not call it with `disable`).
    pub(crate) fn connector(&self) -> Result<MakeRustlsConnect, StoreError> {
        let provider = provider();
        let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
            .with_safe_default_protocol_versions()
            .map_err(|e| bad(format!("TLS: {e}")))?;
        let roots = match &self.roots {
            Some(roots) => Some(Arc::new(root_store(roots)?)),
            None => None,
        };
        let verifier: Arc<dyn ServerCertVerifier> = match (self.mode, roots) {
            (SslMode::VerifyFull, Some(roots)) => {
                WebPkiServerVerifier::builder_with_provider(roots, Arc::clone(&provider))
                    .build()
                    .map_err(|e| bad(format!("sslrootcert: {e}")))?
            }
            (SslMode::VerifyCa, Some(roots)) => Arc::new(AnyName(
                WebPkiServerVerifier::builder_with_provider(roots, Arc::clone(&provider))
                    .build()
                    .map_err(|e| bad(format!("sslrootcert: {e}")))?,
            )),
            // libpq's `prefer` and `require`: encrypted, the certificate taken as it is.
            _ => Arc::new(AnyCertificate(provider.signature_verification_algorithms)),
        };
        let config = builder
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(MakeRustlsConnect::new(config))
    }
}

fn root_store(roots: &RootCerts) -> Result<RootCertStore, StoreError> {
    match roots {
        RootCerts::System => Ok(RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        }),
        RootCerts::File(path) => {
            let shown = path.display();
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| bad(format!("cannot read sslrootcert {shown}: {e}")))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| bad(format!("sslrootcert {shown} is not PEM: {e}")))?;
            let mut store = RootCertStore::empty();
            let (added, _) = store.add_parsable_certificates(certs);
            if added == 0 {
                return Err(bad(format!(
                    "sslrootcert {shown} holds no usable certificate"
                )));
            }
            Ok(store)
        }
    }
}

/// `prefer` and `require`: any certificate, as libpq takes it without a root certificate; the
/// handshake's signatures are still checked against the certificate presented.
#[derive(Debug)]
struct AnyCertificate(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

/// `verify-ca`: the chain must lead to a root of `sslrootcert`; the name in the certificate
/// may differ from the host.
#[derive(Debug)]
struct AnyName(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(url: &str) -> Result<(String, SslMode), String> {
        split_url(url)
            .map(|(rest, tls)| (rest, tls.mode))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_tls_parameters_leave_the_url_and_the_rest_stays() {
        assert_eq!(
            split("postgres://u:p@h/db").unwrap(),
            ("postgres://u:p@h/db".into(), SslMode::Prefer)
        );
        assert_eq!(
            split("postgres://u:p@h/db?sslmode=disable").unwrap(),
            ("postgres://u:p@h/db".into(), SslMode::Disable)
        );
        assert_eq!(
            split("postgres://u:p@h1,h2/db?application_name=x&sslmode=require&connect_timeout=3")
                .unwrap(),
            (
                "postgres://u:p@h1,h2/db?application_name=x&connect_timeout=3".into(),
                SslMode::Require
            )
        );
        let (rest, tls) =
            split_url("postgresql://h/db?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem").unwrap();
        assert_eq!(rest, "postgresql://h/db");
        assert_eq!(tls.mode, SslMode::VerifyFull);
        assert_eq!(tls.roots, Some(RootCerts::File("/etc/ca.pem".into())));
        let (_, tls) = split_url("postgres://h/db?sslmode=verify-ca&sslrootcert=system").unwrap();
        assert_eq!(tls.roots, Some(RootCerts::System));
    }

    #[test]
    fn bad_tls_parameters_say_what_is_wrong_and_never_quote_the_url() {
        for (url, says) in [
            ("postgres://u:hunter2@h/db?sslmode=allow", "sslmode must be"),
            (
                "postgres://u:hunter2@h/db?sslmode=verify-full",
                "need sslrootcert",
            ),
            (
                "postgres://u:hunter2@h/db?sslmode=verify-ca",
                "need sslrootcert",
            ),
            (
                "postgres://u:hunter2@h/db?sslcert=/c.pem",
                "client certificates",
            ),
        ] {
            let e = split(url).unwrap_err();
            assert!(e.contains(says), "{url}: {e}");
            assert!(!e.contains("hunter2"), "{e}");
        }
        let missing = TlsSettings {
            mode: SslMode::VerifyFull,
            roots: Some(RootCerts::File("/nonexistent/ca.pem".into())),
        };
        let e = missing.connector().err().expect("no such file").to_string();
        assert!(
            e.contains("cannot read sslrootcert /nonexistent/ca.pem"),
            "{e}"
        );
    }

    #[test]
    fn every_mode_builds_a_connector() {
        for mode in [SslMode::Disable, SslMode::Prefer, SslMode::Require] {
            TlsSettings { mode, roots: None }.connector().unwrap();
        }
        for mode in [SslMode::VerifyCa, SslMode::VerifyFull] {
            let tls = TlsSettings {
                mode,
                roots: Some(RootCerts::System),
            };
            tls.connector().unwrap();
        }
    }
}
