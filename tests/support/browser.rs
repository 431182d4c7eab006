//! A real browser for the board page's tests: Chromium from the distribution's packages,
//! driven through chromedriver (WebDriver, [`super::webdriver`]). Missing, the test is skipped with
//! one line ([`super::store::optional::skip`]); under `CI=true` that is a failure (CI installs
//! both: `apt-get install chromium chromium-driver`).
#![allow(dead_code)]

use super::webdriver::Client;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Where Debian's packages put them.
const CHROMIUM: &[&str] = &["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const CHROMEDRIVER: &[&str] = &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"];

fn found(candidates: &[&str]) -> Option<PathBuf> {
    candidates.iter().map(PathBuf::from).find(|p| p.exists())
}

/// chromedriver running on a free port, killed when dropped; each [`Browser::session`] is a
/// Chromium of its own, with its own empty profile.
pub struct Browser {
    driver: Child,
    url: String,
    chromium: PathBuf,
    profiles: Vec<tempfile::TempDir>,
}

impl Browser {
    /// chromedriver, started and answering; `None` (the test skipped, said on one line) when
    /// Chromium or chromedriver is not installed.
    pub async fn start() -> Option<Browser> {
        let (Some(chromium), Some(driver)) = (found(CHROMIUM), found(CHROMEDRIVER)) else {
            super::store::optional::skip(
                "Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)",
            );
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let url = format!("http://127.0.0.1:{port}");
        let browser = Browser {
            driver,
            url,
            chromium,
            profiles: Vec::new(),
        };
        let status = format!("{}/status", browser.url);
        for _ in 0..100 {
            if let Ok(r) = reqwest::get(&status).await {
                if r.status().is_success() {
                    return Some(browser);
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("chromedriver did not answer on {status} within 10 s");
    }

    /// A new headless Chromium, its window `width` × `height` CSS pixels.
    pub async fn session(&mut self, width: u32, height: u32) -> Client {
        let profile = tempfile::tempdir().expect("a profile folder");
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--force-device-scale-factor=1".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        self.profiles.push(profile);
        let capabilities = serde_json::json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": self.chromium.display().to_string(),
                "args": args,
            },
        });
        Client::connect(&self.url, capabilities)
            .await
            .expect("a Chromium session")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
