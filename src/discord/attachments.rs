//! Files people attach to a command (a PDN for `/review`), fetched for the app, which gets
//! their bytes ([`Upload`]).
//!
//! The URL comes in the interaction, so it is checked before anything is fetched: only
//! Discord's attachment hosts over HTTPS, or the attachment path of the configured API base
//! (`DISCORD_API_PROXY`, which the operator chose, and where the tests' stand-in serves its
//! files). Nothing else is ever asked for — no other host, no redirect — so a forged
//! interaction cannot make the bot reach into its own network. A file is read up to
//! [`MAX_UPLOAD_BYTES`] (the size Discord declares is checked first, then the bytes as they
//! come) and within the configured time.

use crate::app::commands::{Upload, UploadError, MAX_UPLOAD_BYTES};
use std::time::Duration;
use url::Url;

/// Discord's hosts for message attachments.
const DISCORD_CDN_HOSTS: [&str; 2] = ["cdn.discordapp.com", "media.discordapp.net"];

/// Fetches attachments from the hosts allowed, within limits.
pub struct Fetcher {
    client: reqwest::Client,
    /// The configured API base, whose `/attachments/` path is allowed too.
    api_base: Option<Url>,
    timeout: Duration,
}

impl Fetcher {
    pub fn new(api_proxy: Option<&str>, timeout: Duration) -> Fetcher {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .build()
            .unwrap_or_else(|e| {
                tracing::error!("attachment client: {e}; using the default one");
                reqwest::Client::new()
            });
        Fetcher {
            client,
            api_base: api_proxy.and_then(|p| Url::parse(p).ok()),
            timeout,
        }
    }

    /// Whether `url` is where attachments are kept: a Discord attachment host over HTTPS,
    /// or the attachment path of the configured API base.
    pub fn allowed(&self, url: &str) -> bool {
        let Ok(url) = Url::parse(url) else {
            return false;
        };
        let discord = url.scheme() == "https"
            && url.port().is_none()
            && url.username().is_empty()
            && url
                .host_str()
                .is_some_and(|h| DISCORD_CDN_HOSTS.contains(&h));
        let configured = self.api_base.as_ref().is_some_and(|base| {
            url.scheme() == base.scheme()
                && url.host_str() == base.host_str()
                && url.port_or_known_default() == base.port_or_known_default()
                && url.username().is_empty()
                && url.path().starts_with("/attachments/")
        });
        discord || configured
    }

    /// The file of an attachment: `declared_size` is the size Discord gives.
    pub async fn fetch(&self, filename: &str, url: &str, declared_size: u64) -> Upload {
        let content = if !self.allowed(url) {
            tracing::warn!("an attachment at a host that is not Discord's was not fetched");
            Err(UploadError::NotAllowed)
        } else if declared_size > MAX_UPLOAD_BYTES as u64 {
            Err(UploadError::TooBig)
        } else {
            match tokio::time::timeout(self.timeout, self.read(url)).await {
                Ok(result) => result,
                Err(_) => Err(UploadError::TimedOut),
            }
        };
        Upload {
            filename: filename.to_string(),
            content,
        }
    }

    async fn read(&self, url: &str) -> Result<Vec<u8>, UploadError> {
        let failed = |e: reqwest::Error| {
            if e.is_timeout() {
                UploadError::TimedOut
            } else {
                // Without the URL: it carries the attachment's signature.
                tracing::warn!("an attachment could not be fetched: {}", e.without_url());
                UploadError::Failed
            }
        };
        let mut response = self.client.get(url).send().await.map_err(failed)?;
        if !response.status().is_success() {
            tracing::warn!("an attachment answered {}", response.status());
            return Err(UploadError::Failed);
        }
        if response
            .content_length()
            .is_some_and(|n| n > MAX_UPLOAD_BYTES as u64)
        {
            return Err(UploadError::TooBig);
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(failed)? {
            if bytes.len() + chunk.len() > MAX_UPLOAD_BYTES {
                return Err(UploadError::TooBig);
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_discords_attachment_hosts_and_the_configured_base_are_fetched() {
        let plain = Fetcher::new(None, Duration::from_secs(1));
        let proxied = Fetcher::new(Some("http://127.0.0.1:3000"), Duration::from_secs(1));
        let discord = "https://cdn.discordapp.com/attachments/1/2/game.pdn?ex=1&hm=2";
        for f in [&plain, &proxied] {
            assert!(f.allowed(discord));
            assert!(f.allowed("https://media.discordapp.net/attachments/1/2/g.pdn"));
            for refused in [
                "http://cdn.discordapp.com/attachments/1/2/g.pdn",
                "https://cdn.discordapp.com:8443/attachments/1/2/g.pdn",
                "https://cdn.discordapp.com.evil.example/attachments/1/2/g.pdn",
                "https://user@cdn.discordapp.com/attachments/1/2/g.pdn",
                "https://169.254.169.254/latest/meta-data/",
                "http://127.0.0.1:3000/api/v10/users/@me",
                "http://localhost:3000/attachments/1/2/g.pdn",
                "file:///etc/passwd",
                "not a url",
            ] {
                assert!(!f.allowed(refused), "{refused}");
            }
        }
        assert!(proxied.allowed("http://127.0.0.1:3000/attachments/1/2/g.pdn"));
        assert!(!plain.allowed("http://127.0.0.1:3000/attachments/1/2/g.pdn"));
        assert!(!proxied.allowed("http://127.0.0.1:3001/attachments/1/2/g.pdn"));
    }
}
