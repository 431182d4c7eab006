//! How values and keys are laid out in sled: a format version byte, then postcard.

use super::error::StoreError;
use super::records::{
    Challenge, ChallengeV1, ChallengeV2, GameRecord, GameRecordV1, GameRecordV2, PlayerRecord,
};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The format of every value written now. Older formats a record type lists in
/// [`Record::decode_old`] are converted on read; any other first byte was written by a
/// different version of the bot and is reported, never rewritten.
///
/// Version 2: game records lost the board's message id (now the posts tree) and the unused
/// rematch link, and gained the time per move and the reminded ply; seats can be deleted.
/// Version 3: game records and challenges gained their ballot opening (last field).
pub const FORMAT_VERSION: u8 = 3;

/// A type stored as a value.
pub(crate) trait Record: DeserializeOwned {
    /// Decodes the postcard body of an older format `version`, returning the value and the
    /// bytes left; `None` for a version this type was never written in. Versions 1 and 2
    /// laid out every type but games and challenges as version 3 does.
    fn decode_old(version: u8, body: &[u8]) -> Option<postcard::Result<(Self, &[u8])>> {
        (version == 1 || version == 2).then(|| postcard::take_from_bytes(body))
    }
}

pub(crate) fn encode<T: Serialize>(what: &'static str, value: &T) -> Result<Vec<u8>, StoreError> {
    postcard::to_extend(value, vec![FORMAT_VERSION]).map_err(|e| StoreError::Encode {
        what,
        reason: e.to_string(),
    })
}

pub(crate) fn decode<T: Record>(
    tree: &'static str,
    key: &[u8],
    bytes: &[u8],
) -> Result<T, StoreError> {
    let Some((&version, body)) = bytes.split_first() else {
        return Err(StoreError::Corrupt {
            tree,
            key: key_text(key),
            reason: "empty value".to_string(),
        });
    };
    let decoded = if version == FORMAT_VERSION {
        postcard::take_from_bytes::<T>(body)
    } else {
        match T::decode_old(version, body) {
            Some(decoded) => decoded,
            None => {
                return Err(StoreError::UnknownVersion {
                    tree,
                    key: key_text(key),
                    version,
                })
            }
        }
    };
    match decoded {
        Ok((value, [])) => Ok(value),
        Ok((_, rest)) => Err(StoreError::Corrupt {
            tree,
            key: key_text(key),
            reason: format!("{} bytes left after the record", rest.len()),
        }),
        Err(e) => Err(StoreError::Corrupt {
            tree,
            key: key_text(key),
            reason: decode_error_text(&e),
        }),
    }
}

/// Why postcard could not decode a value. postcard drops the message of a refusal a type's
/// own `Deserialize` makes, so it is named here: in stored records only
/// [`crate::level::Level`] refuses (an id it does not know; see its `Deserialize`).
fn decode_error_text(e: &postcard::Error) -> String {
    match e {
        postcard::Error::SerdeDeCustom => {
            "a value this version refuses: a computer level id it does not know".to_string()
        }
        e => e.to_string(),
    }
}

impl Record for Challenge {
    fn decode_old(version: u8, body: &[u8]) -> Option<postcard::Result<(Self, &[u8])>> {
        match version {
            1 => Some(
                postcard::take_from_bytes::<ChallengeV1>(body).map(|(v1, rest)| (v1.into(), rest)),
            ),
            2 => Some(
                postcard::take_from_bytes::<ChallengeV2>(body).map(|(v2, rest)| (v2.into(), rest)),
            ),
            _ => None,
        }
    }
}
impl Record for PlayerRecord {}

impl Record for GameRecord {
    fn decode_old(version: u8, body: &[u8]) -> Option<postcard::Result<(Self, &[u8])>> {
        match version {
            1 => Some(
                postcard::take_from_bytes::<GameRecordV1>(body).map(|(v1, rest)| (v1.into(), rest)),
            ),
            2 => Some(
                postcard::take_from_bytes::<GameRecordV2>(body).map(|(v2, rest)| (v2.into(), rest)),
            ),
            _ => None,
        }
    }
}

/// A key as people read it: 8-byte keys are the ids they hold, longer ones a run of ids.
pub(crate) fn key_text(key: &[u8]) -> String {
    if key.len() % 8 == 0 && !key.is_empty() {
        key.chunks(8)
            .map(|c| {
                let mut b = [0u8; 8];
                b.copy_from_slice(c);
                u64::from_be_bytes(b).to_string()
            })
            .collect::<Vec<_>>()
            .join(":")
    } else {
        key.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Big-endian, so that sled's byte order is the numbers' order.
pub(crate) fn id_key(id: u64) -> [u8; 8] {
    id.to_be_bytes()
}

/// Two ids one after the other (an index entry: owner, then game).
pub(crate) fn pair_key(a: u64, b: u64) -> [u8; 16] {
    let mut k = [0u8; 16];
    k[..8].copy_from_slice(&a.to_be_bytes());
    k[8..].copy_from_slice(&b.to_be_bytes());
    k
}

/// The second id of a [`pair_key`].
pub(crate) fn second_id(key: &[u8]) -> Option<u64> {
    key.get(8..16)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_be_bytes)
}

/// A u64 stored raw (index values).
pub(crate) fn decode_u64(tree: &'static str, key: &[u8], bytes: &[u8]) -> Result<u64, StoreError> {
    <[u8; 8]>::try_from(bytes)
        .map(u64::from_be_bytes)
        .map_err(|_| StoreError::Corrupt {
            tree,
            key: key_text(key),
            reason: format!("expected 8 bytes, found {}", bytes.len()),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
    struct Pair(u64, String);
    impl Record for Pair {}
    impl Record for u64 {}

    #[test]
    fn round_trip_and_version_check() {
        let bytes = encode("test", &Pair(7, "x".to_string())).unwrap();
        assert_eq!(bytes[0], FORMAT_VERSION);
        let back: Pair = decode("t", b"k", &bytes).unwrap();
        assert_eq!(back, Pair(7, "x".to_string()));
        for old in [1, 2] {
            let mut older = bytes.clone();
            older[0] = old;
            assert_eq!(
                decode::<Pair>("t", b"k", &older).unwrap(),
                back,
                "version {old} had the same layout"
            );
        }

        let mut newer = bytes.clone();
        newer[0] = FORMAT_VERSION + 1;
        assert!(matches!(
            decode::<Pair>("t", b"k", &newer),
            Err(StoreError::UnknownVersion { version, .. }) if version == FORMAT_VERSION + 1
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            decode::<Pair>("t", b"k", &longer),
            Err(StoreError::Corrupt { .. })
        ));
        assert!(matches!(
            decode::<Pair>("t", b"k", &bytes[..bytes.len() - 1]),
            Err(StoreError::Corrupt { .. })
        ));
        assert!(matches!(
            decode::<u64>("t", b"k", &[]),
            Err(StoreError::Corrupt { .. })
        ));
    }

    #[test]
    fn keys_sort_like_numbers() {
        assert!(id_key(255) < id_key(256));
        assert!(pair_key(1, u64::MAX) < pair_key(2, 0));
        assert_eq!(second_id(&pair_key(3, 99)), Some(99));
        assert_eq!(key_text(&pair_key(3, 99)), "3:99");
    }
}
