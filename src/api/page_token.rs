//! Page tokens: opaque to clients, one canonical form per position.
//!
//! A token is the unpadded base64url of 18 bytes: a version byte (1), the
//! `seq` to continue below as a big-endian `i64` (positive), the game
//! filter it was issued for (0 = all games, else the game's number in the
//! API), and the first 8 bytes of the SHA-256 of its canonical-hash filter
//! (zeros for none). Decoding is strict: the exact length, alphabet and
//! version, a known filter byte, a positive position, and the token must
//! re-encode to itself, so no two spellings name the same page.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest as _, Sha256};

use super::decode::game_from_proto;
use super::encode::game_to_proto;
use crate::app::catalog::ListFilter;
use crate::app::{AppError, Reason};
use crate::puzzle::Game;

const VERSION: u8 = 1;
const LEN: usize = 18;

fn game_byte(game: Option<Game>) -> u8 {
    game.map_or(0, |g| game_to_proto(g) as i32 as u8)
}

fn hash_bytes(hash: Option<&str>) -> [u8; 8] {
    hash.map_or([0; 8], |h| {
        Sha256::digest(h.as_bytes())[..8]
            .try_into()
            .expect("8 bytes")
    })
}

pub fn encode(before: i64, filter: ListFilter<'_>) -> String {
    let mut bytes = [0u8; LEN];
    bytes[0] = VERSION;
    bytes[1..9].copy_from_slice(&before.to_be_bytes());
    bytes[9] = game_byte(filter.game);
    bytes[10..18].copy_from_slice(&hash_bytes(filter.canonical_hash));
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The position in `token`, checked against the request's filter.
pub fn decode(token: &str, filter: ListFilter<'_>) -> Result<Option<i64>, AppError> {
    if token.is_empty() {
        return Ok(None);
    }
    let malformed = || {
        AppError::invalid(
            "page_token",
            Reason::MalformedPageToken,
            "page_token: not a token this server issued (pass next_page_token unchanged)",
        )
    };
    // 18 bytes are 24 base64 characters; a longer token is never read.
    if token.len() != LEN.div_ceil(3) * 4 {
        return Err(malformed());
    }
    let bytes = URL_SAFE_NO_PAD.decode(token).map_err(|_| malformed())?;
    let bytes: [u8; LEN] = bytes.try_into().map_err(|_| malformed())?;
    let before = i64::from_be_bytes(bytes[1..9].try_into().expect("8 bytes"));
    let game = match bytes[9] {
        0 => None,
        n => Some(game_from_proto(i32::from(n), "page_token").map_err(|_| malformed())?),
    };
    if bytes[0] != VERSION || before <= 0 {
        return Err(malformed());
    }
    let same_filter = game == filter.game && bytes[10..18] == hash_bytes(filter.canonical_hash);
    if !same_filter {
        return Err(AppError::invalid(
            "page_token",
            Reason::PageTokenFilterMismatch,
            "page_token: it was issued for another filter than this request's",
        ));
    }
    if encode(before, filter) != token {
        return Err(malformed());
    }
    Ok(Some(before))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str =
        "sorted-edges-v1:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    fn games(game: Option<Game>) -> ListFilter<'static> {
        ListFilter {
            game,
            canonical_hash: None,
        }
    }

    #[test]
    fn page_tokens_round_trip_and_remember_their_filter() {
        let tree_paint = games(Some(Game::TreePaint));
        let token = encode(42, tree_paint);
        assert_eq!(decode(&token, tree_paint), Ok(Some(42)));
        assert!(decode(&token, games(None)).is_err());
        assert!(decode(&token, games(Some(Game::Geography))).is_err());
        assert_eq!(decode("", games(None)), Ok(None));
        let all = encode(7, games(None));
        assert_eq!(decode(&all, games(None)), Ok(Some(7)));
        let by_hash = crate::store::ListFilter {
            game: None,
            canonical_hash: Some(HASH),
        };
        let token = encode(9, by_hash);
        assert_eq!(decode(&token, by_hash), Ok(Some(9)));
        let mismatch = decode(&token, games(None)).unwrap_err();
        assert!(matches!(
            mismatch,
            AppError::InvalidArgument {
                reason: Reason::PageTokenFilterMismatch,
                ..
            }
        ));
        for bad in ["x", "7031", "é", &"ab".repeat(200)] {
            assert!(decode(bad, games(None)).is_err(), "{bad}");
        }
        // Strict: padding, the other base64 alphabet, a changed version.
        let good = encode(1234, games(None));
        let padded = format!("{good}=");
        let last_padded = format!("{}=", &good[..good.len() - 1]);
        let standard = good.replace('-', "+").replace('_', "/");
        let mut raw = {
            use base64::Engine as _;
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(&good)
                .unwrap()
        };
        raw[0] = 2;
        let other_version = {
            use base64::Engine as _;
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&raw)
        };
        for bad in [&padded, &last_padded, &other_version] {
            assert!(decode(bad, games(None)).is_err(), "{bad}");
        }
        if standard != good {
            assert!(decode(&standard, games(None)).is_err());
        }
    }

    /// One spelling per position: tokens with another version, a position
    /// that is not positive, an unknown filter or padding are all
    /// MALFORMED_PAGE_TOKEN.
    #[test]
    fn page_tokens_are_strict() {
        use base64::Engine as _;
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let token = encode(29, games(None));
        assert_eq!(token.len(), 24);
        let forged = |head: [u8; 10]| {
            let mut bytes = [0u8; 18];
            bytes[..10].copy_from_slice(&head);
            URL_SAFE_NO_PAD.encode(bytes)
        };
        assert_eq!(forged([1, 0, 0, 0, 0, 0, 0, 0, 29, 0]), token);
        let other_version = [2, 0, 0, 0, 0, 0, 0, 0, 29, 0];
        let negative = [1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb, 0];
        let zero = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let unknown_game = [1, 0, 0, 0, 0, 0, 0, 0, 29, 9];
        for bad in [
            forged(other_version),
            forged(negative),
            forged(zero),
            forged(unknown_game),
            format!("{token}="),
            format!("+{token}"),
            token[..23].to_owned(),
        ] {
            let err = decode(&bad, games(None)).unwrap_err();
            assert!(
                matches!(
                    err,
                    AppError::InvalidArgument {
                        reason: Reason::MalformedPageToken,
                        ..
                    }
                ),
                "{bad}: {err:?}"
            );
        }
    }
}
