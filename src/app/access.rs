//! Who may write, and how fast: writer tokens, and token-bucket rate limits
//! on writes. (What a caller may spend of the solve workers is
//! `work_budget`'s.)
//!
//! A call is charged to its [`Caller`]: the writer whose token it carries,
//! or else the IP address it came from. Reads are never charged. Tokens are
//! kept as SHA-256 digests and compared in constant time against every
//! writer's, so neither timing nor a memory dump gives a token away.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

use super::AppError;
use crate::app::Reason;

/// Who a call is charged to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Caller {
    /// The operator (the admin token): never rate-limited.
    Admin,
    /// A writer, by the name its token has in the tokens file.
    Writer(Arc<str>),
    /// A call without a token, by the address it came from.
    Address(IpAddr),
    /// A call without a token whose address the transport did not give.
    Anonymous,
}

/// Why the writer tokens could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TokensError {
    #[error("reading the writer tokens file {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{origin}, entry {entry}: {problem} (write NAME=TOKEN, the token at least {MIN_TOKEN_CHARS} characters)"
    )]
    Entry {
        origin: String,
        entry: usize,
        problem: &'static str,
    },
}

/// The shortest token accepted: long enough that guessing is hopeless.
pub const MIN_TOKEN_CHARS: usize = 16;

/// The writers and their tokens' digests.
#[derive(Debug, Default)]
pub struct WriterTokens {
    writers: Vec<(Arc<str>, [u8; 32])>,
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl WriterTokens {
    /// Reads `NAME=TOKEN` entries, one a line (`#` comments and blank lines
    /// skipped), or comma-separated when `separator` is `,`. `origin` names
    /// the source in errors; a token is never repeated in one.
    pub fn parse(text: &str, separator: char, origin: &str) -> Result<WriterTokens, TokensError> {
        let mut writers: Vec<(Arc<str>, [u8; 32])> = Vec::new();
        let entries = text
            .split(separator)
            .map(str::trim)
            .enumerate()
            .filter(|(_, entry)| !entry.is_empty() && !entry.starts_with('#'));
        for (index, entry) in entries {
            let problem = |problem| TokensError::Entry {
                origin: origin.to_owned(),
                entry: index + 1,
                problem,
            };
            let (name, token) = entry.split_once('=').ok_or_else(|| problem("no `=`"))?;
            let (name, token) = (name.trim(), token.trim());
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            {
                return Err(problem("a name is letters, digits, `-`, `_` and `.`"));
            }
            if token.chars().count() < MIN_TOKEN_CHARS || token.contains(char::is_whitespace) {
                return Err(problem("the token is too short or holds a space"));
            }
            if writers.iter().any(|(known, _)| **known == *name) {
                return Err(problem("a name given twice"));
            }
            writers.push((name.into(), digest(token)));
        }
        Ok(WriterTokens { writers })
    }

    pub fn writer_count(&self) -> usize {
        self.writers.len()
    }

    /// The writer whose token `token` is. Every writer's digest is
    /// compared, whichever matches, so the time taken says nothing.
    pub fn writer(&self, token: &str) -> Option<Arc<str>> {
        let given = digest(token);
        let mut found = None;
        for (name, expected) in &self.writers {
            if bool::from(given.ct_eq(expected)) {
                found = Some(name.clone());
            }
        }
        found
    }
}

/// Where the writer tokens come from, so that they can be read again.
#[derive(Debug, Clone, Default)]
pub struct TokenSources {
    /// A file of `NAME=TOKEN` lines.
    pub file: Option<PathBuf>,
    /// `NAME=TOKEN,NAME=TOKEN`, from the environment.
    pub list: Option<String>,
}

impl TokenSources {
    fn read(&self) -> Result<WriterTokens, TokensError> {
        let mut all = match &self.list {
            Some(list) => WriterTokens::parse(list, ',', "PUZZLED_WRITER_TOKENS")?,
            None => WriterTokens::default(),
        };
        if let Some(path) = &self.file {
            let text = std::fs::read_to_string(path).map_err(|source| TokensError::Read {
                path: path.clone(),
                source,
            })?;
            let from_file = WriterTokens::parse(&text, '\n', &path.display().to_string())?;
            for (name, token) in from_file.writers {
                if all.writers.iter().any(|(known, _)| *known == name) {
                    return Err(TokensError::Entry {
                        origin: path.display().to_string(),
                        entry: 0,
                        problem: "a name PUZZLED_WRITER_TOKENS gives too",
                    });
                }
                all.writers.push((name, token));
            }
        }
        Ok(all)
    }

    fn is_set(&self) -> bool {
        self.file.is_some() || self.list.is_some()
    }
}

/// A token bucket per caller: `burst` calls at once, refilled at
/// `per_minute`. Callers idle long enough to have a full bucket again are
/// forgotten now and then, so the table stays as large as the set of
/// recent callers.
pub struct RateLimit<C: Clock = DefaultClock> {
    limiter: RateLimiter<Caller, HashMapStateStore<Caller>, C, NoOpMiddleware<C::Instant>>,
    clock: C,
    checks: AtomicU64,
    reason: Reason,
    what: &'static str,
}

/// How often (in checks) callers with a full bucket are forgotten.
const FORGET_EVERY: u64 = 4096;

impl<C: Clock + Clone> RateLimit<C> {
    /// `None` when `per_minute` is 0 (no limit). `reason` is the error's
    /// reason, `what` names what is limited in its message.
    pub fn new(
        per_minute: u32,
        burst: u32,
        clock: C,
        reason: Reason,
        what: &'static str,
    ) -> Option<RateLimit<C>> {
        let rate = NonZeroU32::new(per_minute)?;
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::per_minute(rate).allow_burst(burst);
        Some(RateLimit {
            limiter: RateLimiter::new(quota, HashMapStateStore::default(), clock.clone()),
            clock,
            checks: AtomicU64::new(0),
            reason,
            what,
        })
    }

    /// Takes one call from `caller`'s bucket, or says how long until one
    /// is there. The admin is never limited.
    pub fn charge(&self, caller: &Caller) -> Result<(), AppError> {
        if *caller == Caller::Admin {
            return Ok(());
        }
        if self.checks.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1 {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        self.limiter.check_key(caller).map_err(|not_until| {
            let retry_after = not_until.wait_time_from(self.clock.now());
            AppError::RateLimited {
                reason: self.reason,
                retry_after,
                message: format!(
                    "too many {} from {}; try again in {} s",
                    self.what,
                    describe(caller),
                    whole_seconds(retry_after)
                ),
            }
        })
    }
}

/// `retry-after` is whole seconds; rounding up never invites a call back
/// before its bucket has one.
pub fn whole_seconds(duration: Duration) -> u64 {
    duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
}

/// A caller as an error message names it.
pub fn describe(caller: &Caller) -> String {
    match caller {
        Caller::Admin => "the admin".to_owned(),
        Caller::Writer(name) => format!("writer {name}"),
        Caller::Address(ip) => format!("address {ip}"),
        Caller::Anonymous => "this client".to_owned(),
    }
}

/// The settings of [`Access`].
#[derive(Debug, Clone, Default)]
pub struct AccessSettings {
    /// The token DeletePuzzle needs; none, no check.
    pub admin_token: Option<String>,
    pub tokens: TokenSources,
    pub writes_per_minute: u32,
    pub write_burst: u32,
}

/// Writer tokens and the write rate, as the server applies them.
pub struct Access {
    admin_token: Option<String>,
    sources: TokenSources,
    writers: RwLock<Arc<WriterTokens>>,
    writes: Option<RateLimit>,
}

impl Access {
    pub fn new(settings: AccessSettings) -> Result<Access, TokensError> {
        let writers = settings.tokens.read()?;
        Ok(Access {
            admin_token: settings.admin_token.filter(|token| !token.is_empty()),
            writers: RwLock::new(Arc::new(writers)),
            writes: RateLimit::new(
                settings.writes_per_minute,
                settings.write_burst,
                DefaultClock::default(),
                Reason::WriteRateExceeded,
                "writes",
            ),
            sources: settings.tokens,
        })
    }

    /// The admin token, when one is set.
    pub fn admin_token(&self) -> Option<&str> {
        self.admin_token.as_deref()
    }

    /// Whether `token` is the admin token. The comparison takes as long
    /// whichever byte differs; only the token's length can be learnt from
    /// timing.
    pub fn is_admin(&self, token: &str) -> bool {
        self.admin_token
            .as_ref()
            .is_some_and(|admin| bool::from(token.as_bytes().ct_eq(admin.as_bytes())))
    }

    /// Whether writes need a writer token.
    pub fn writes_need_a_token(&self) -> bool {
        self.sources.is_set()
    }

    /// The writer whose token this is.
    pub fn writer(&self, token: &str) -> Option<Arc<str>> {
        self.writers
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .writer(token)
    }

    /// Reads the tokens again (on SIGHUP): a writer taken out of the file
    /// is refused from the next call on. On an error the old tokens stay.
    pub fn reload(&self) -> Result<usize, TokensError> {
        let writers = Arc::new(self.sources.read()?);
        let count = writers.writer_count();
        *self
            .writers
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = writers;
        Ok(count)
    }

    /// Charges a write (a create) to `caller`.
    pub fn charge_write(&self, caller: &Caller) -> Result<(), AppError> {
        self.writes.as_ref().map_or(Ok(()), |l| l.charge(caller))
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    #[test]
    fn tokens_name_their_writer_and_bad_entries_are_named() {
        let tokens = WriterTokens::parse(
            "# site writers\nalice=0123456789abcdef0\n\nbob = fedcba9876543210x\n",
            '\n',
            "tokens.txt",
        )
        .unwrap();
        assert_eq!(tokens.writer_count(), 2);
        assert_eq!(tokens.writer("0123456789abcdef0").as_deref(), Some("alice"));
        assert_eq!(tokens.writer("fedcba9876543210x").as_deref(), Some("bob"));
        assert_eq!(tokens.writer("0123456789abcdef"), None);
        assert_eq!(tokens.writer(""), None);
        for (text, problem) in [
            ("alice", "entry 1: no `=`"),
            (
                "ok=0123456789abcdef0\nal ice=0123456789abcdef1",
                "entry 2: a name is",
            ),
            ("alice=short", "entry 1: the token is too short"),
            (
                "alice=0123456789abcdef0\nalice=0123456789abcdef1",
                "entry 2: a name given twice",
            ),
        ] {
            let err = WriterTokens::parse(text, '\n', "tokens.txt")
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("tokens.txt, "), "{err}");
            assert!(err.contains(problem), "{text:?}: {err}");
            assert!(
                !err.contains("0123456789abcdef"),
                "a token in an error: {err}"
            );
        }
    }

    #[test]
    fn a_bucket_lets_its_burst_through_then_says_when_to_come_back() {
        let clock = FakeRelativeClock::default();
        let limit =
            RateLimit::new(6, 2, clock.clone(), Reason::WriteRateExceeded, "writes").unwrap();
        let alice = Caller::Writer("alice".into());
        let address = Caller::Address("192.0.2.7".parse().unwrap());
        limit.charge(&alice).unwrap();
        limit.charge(&alice).unwrap();
        let refused = limit.charge(&alice).unwrap_err();
        let AppError::RateLimited {
            reason,
            retry_after,
            message,
        } = refused
        else {
            panic!("{refused:?}")
        };
        assert_eq!(reason, Reason::WriteRateExceeded);
        // Six a minute: one every 10 s.
        assert_eq!(retry_after, Duration::from_secs(10));
        assert_eq!(
            message,
            "too many writes from writer alice; try again in 10 s"
        );
        // Another caller has a bucket of its own; the admin none at all.
        limit.charge(&address).unwrap();
        for _ in 0..10 {
            limit.charge(&Caller::Admin).unwrap();
        }
        clock.advance(Duration::from_secs(4));
        let AppError::RateLimited { retry_after, .. } = limit.charge(&alice).unwrap_err() else {
            panic!()
        };
        assert_eq!(retry_after, Duration::from_secs(6));
        clock.advance(Duration::from_secs(6));
        limit.charge(&alice).unwrap();
        assert!(limit.charge(&alice).is_err());
    }

    #[test]
    fn no_rate_no_limit() {
        assert!(
            RateLimit::new(
                0,
                5,
                FakeRelativeClock::default(),
                Reason::WriteRateExceeded,
                "writes"
            )
            .is_none()
        );
    }

    #[test]
    fn retry_after_rounds_up() {
        assert_eq!(whole_seconds(Duration::from_millis(1)), 1);
        assert_eq!(whole_seconds(Duration::from_secs(10)), 10);
        assert_eq!(whole_seconds(Duration::from_millis(10_001)), 11);
    }
}
