//! The platform's signature on a delivery: HMAC-SHA256 under the bot's secret of
//! `"<timestamp>.<raw body>"`, in lower-case hex, with the timestamp (Unix seconds) in its own
//! header. A delivery is taken only if the signature holds (compared in constant time, by the
//! `hmac` crate) and its timestamp is within five minutes of our clock, so that a delivery
//! recorded on the way cannot be played again later.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How far a delivery's timestamp may be from our clock, either way.
pub const MAX_SKEW_SECONDS: u64 = 300;

/// Why a delivery's signature is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("no X-DiceChess-Timestamp or X-DiceChess-Signature header")]
    Missing,
    #[error("X-DiceChess-Timestamp is not Unix seconds")]
    BadTimestamp,
    #[error("the timestamp is {0} s from our clock (more than {MAX_SKEW_SECONDS} s: a replay or a wrong clock)")]
    Stale(u64),
    #[error("the signature does not match the secret")]
    Wrong,
}

/// Checks a delivery's signature at `now` (Unix seconds).
pub fn check(
    secret: &[u8],
    timestamp: Option<&str>,
    signature: Option<&str>,
    body: &[u8],
    now: u64,
) -> Result<(), Refused> {
    let (Some(timestamp), Some(signature)) = (timestamp, signature) else { return Err(Refused::Missing) };
    let seconds: u64 = timestamp.trim().parse().map_err(|_| Refused::BadTimestamp)?;
    let skew = seconds.abs_diff(now);
    if skew > MAX_SKEW_SECONDS {
        return Err(Refused::Stale(skew));
    }
    let given = hex::decode(signature.trim()).map_err(|_| Refused::Wrong)?;
    let mut mac = keyed(secret);
    mac.update(timestamp.trim().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac.verify_slice(&given).map_err(|_| Refused::Wrong)
}

fn keyed(secret: &[u8]) -> Hmac<Sha256> {
    // HMAC takes a key of any length.
    Hmac::<Sha256>::new_from_slice(secret).expect("HMAC accepts any key length")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(secret: &[u8], timestamp: &str, body: &[u8]) -> String {
        let mut mac = keyed(secret);
        mac.update(format!("{timestamp}.").as_bytes());
        mac.update(body);
        hex::encode(mac.finalize().into_bytes())
    }

    #[test]
    fn the_mac_is_hmac_sha256_as_published() {
        // RFC 4231, test case 2.
        let mut mac = keyed(b"Jefe");
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_signature_holds_only_for_its_secret_body_and_time() {
        let body = br#"{"type":"yourTurn"}"#;
        let good = sign(b"s3cret", "1752750000", body);
        assert_eq!(check(b"s3cret", Some("1752750000"), Some(&good), body, 1752750100), Ok(()));
        assert_eq!(check(b"s3cret", Some("1752750000"), Some(&good.to_uppercase()), body, 1752750000), Ok(()));
        assert_eq!(check(b"other", Some("1752750000"), Some(&good), body, 1752750000), Err(Refused::Wrong));
        assert_eq!(check(b"s3cret", Some("1752750000"), Some(&good), b"{}", 1752750000), Err(Refused::Wrong));
        assert_eq!(check(b"s3cret", Some("1752750001"), Some(&good), body, 1752750000), Err(Refused::Wrong));
        assert_eq!(check(b"s3cret", Some("1752750000"), Some("zz"), body, 1752750000), Err(Refused::Wrong));
        assert_eq!(check(b"s3cret", Some("1752750000"), Some(&good), body, 1752750301), Err(Refused::Stale(301)));
        assert_eq!(check(b"s3cret", Some("1752750000"), Some(&good), body, 1752749699), Err(Refused::Stale(301)));
        assert_eq!(check(b"s3cret", None, Some(&good), body, 1752750000), Err(Refused::Missing));
        assert_eq!(check(b"s3cret", Some("soon"), Some(&good), body, 1752750000), Err(Refused::BadTimestamp));
    }
}
