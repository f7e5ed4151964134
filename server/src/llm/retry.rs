//! Retries for calls to model servers: 429, 5xx and connection failures are retried
//! with exponential backoff and jitter; a `Retry-After` header (seconds or an HTTP
//! date) is honoured up to a cap. Everything else fails at once.

use std::time::{Duration, SystemTime};

#[derive(Clone, Debug)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub base: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            base: Duration::from_millis(500),
            max_delay: Duration::from_secs(20),
        }
    }
}

impl RetryPolicy {
    /// Delay before retry number `attempt` (0-based): base·2^attempt with ±25 % jitter,
    /// unless the server said how long to wait.
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(d) = retry_after {
            return d.min(self.max_delay);
        }
        let exp = self
            .base
            .saturating_mul(1u32 << attempt.min(16))
            .min(self.max_delay);
        let jitter = 0.75 + 0.5 * unit_random();
        exp.mul_f64(jitter).min(self.max_delay)
    }
}

/// Should this status be retried?
pub fn retryable_status(status: u16) -> bool {
    status == 429 || status == 408 || (500..600).contains(&status)
}

/// Connection-level failures are retried; a bad request never is.
pub fn retryable_error(e: &reqwest::Error) -> bool {
    e.is_connect()
        || e.is_timeout()
        || e.is_request() && !e.is_builder() && !e.is_body() && !e.is_decode()
}

/// Longest `Retry-After` taken at its word (a day); `RetryPolicy::max_delay` caps
/// the actual wait far below it.
const RETRY_AFTER_MAX_SECS: f64 = 86_400.0;

/// `Retry-After: 3` or `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT`.
pub fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(secs) = v.parse::<f64>() {
        // `inf`, `NaN` and `1e20` are numbers too: only a finite, non-negative wait
        // is one, and it is capped (the policy caps it again).
        return (secs.is_finite() && secs >= 0.0)
            .then(|| Duration::from_secs_f64(secs.min(RETRY_AFTER_MAX_SECS)));
    }
    let when = httpdate_parse(v)?;
    Some(
        when.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// IMF-fixdate only (`Sun, 06 Nov 1994 08:49:37 GMT`), the form servers send.
fn httpdate_parse(s: &str) -> Option<SystemTime> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    if parts.len() != 6 || parts[5] != "GMT" {
        return None;
    }
    let day: u64 = parts[1].parse().ok()?;
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .iter()
    .position(|m| *m == parts[2])? as u64
        + 1;
    let year: i64 = parts[3]
        .parse()
        .ok()
        .filter(|y| (1970..=9999).contains(y))?;
    let hms: Vec<u64> = parts[4].split(':').filter_map(|x| x.parse().ok()).collect();
    if hms.len() != 3 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y, m) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y.div_euclid(400);
    let yoe = (y - era * 400) as u64;
    let doy = (153 * m + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe as i64 - 719_468;
    let secs = days * 86_400 + (hms[0] * 3600 + hms[1] * 60 + hms[2]) as i64;
    (secs >= 0).then(|| SystemTime::UNIX_EPOCH + Duration::from_secs(secs as u64))
}

/// A number in [0, 1) for jitter; quality does not matter, only spread.
fn unit_random() -> f64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static STATE: AtomicU64 = AtomicU64::new(0);
    let seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut x = STATE.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed) ^ seed;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    (x >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_with_jitter_and_caps() {
        let p = RetryPolicy::default();
        for attempt in 0..4 {
            let d = p.delay(attempt, None).as_secs_f64();
            let nominal = 0.5 * 2f64.powi(attempt as i32);
            assert!(
                d >= nominal * 0.74 && d <= nominal * 1.26,
                "attempt {attempt}: {d}"
            );
        }
        for _ in 0..50 {
            assert!(p.delay(30, None) <= p.max_delay, "capped");
        }
        assert_eq!(
            p.delay(0, Some(Duration::from_secs(2))),
            Duration::from_secs(2)
        );
        assert_eq!(p.delay(0, Some(Duration::from_secs(999))), p.max_delay);
    }

    #[test]
    fn retry_after_forms() {
        let mut h = reqwest::header::HeaderMap::new();
        h.insert("retry-after", "3".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        h.insert(
            "retry-after",
            "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap(),
        );
        assert_eq!(
            retry_after(&h),
            Some(Duration::ZERO),
            "a date in the past means now"
        );
        assert_eq!(
            httpdate_parse("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777))
        );
        h.insert("retry-after", "soon".parse().unwrap());
        assert_eq!(retry_after(&h), None);
        // Numbers a hostile server may send: never a panic, never an endless wait.
        for odd in [
            "inf",
            "-inf",
            "NaN",
            "1e20",
            "-3",
            "Sun, 06 Nov 999999999999 08:49:37 GMT",
        ] {
            h.insert("retry-after", odd.parse().unwrap());
            let d = retry_after(&h);
            assert!(
                d.is_none_or(|d| d.as_secs_f64() <= RETRY_AFTER_MAX_SECS),
                "{odd}"
            );
            assert!(RetryPolicy::default().delay(0, d) <= RetryPolicy::default().max_delay);
        }
        assert!(
            retryable_status(429)
                && retryable_status(503)
                && !retryable_status(400)
                && !retryable_status(401)
        );
    }
}
