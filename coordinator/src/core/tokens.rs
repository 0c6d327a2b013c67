//! Lease tokens: each lease the core grants carries a token, an HMAC-SHA256
//! over (sweep id, launch sequence number, shard index, attempt) under a key
//! kept in the store. Only the coordinator can make one, so a token proves
//! that its (sweep, shard, attempt) was leased; workers send it back with
//! every renewal, release, result and failure report. The sequence number
//! keeps a token of a deleted sweep from working for a new sweep launched
//! under the same name (`run --fresh`). The key survives restarts, so do
//! the tokens.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The key lease tokens are signed with.
pub(crate) struct LeaseKey([u8; 32]);

/// Hex digits of a token (32 bytes).
const TOKEN_HEX_LEN: usize = 64;

impl LeaseKey {
    /// A key from its 32 bytes (see [`crate::store::Store::lease_key`]).
    pub(crate) fn new(key: [u8; 32]) -> Self {
        LeaseKey(key)
    }

    /// The MAC of one lease, before finalization.
    fn mac(&self, sweep_id: &str, seq: u64, index: u32, attempt: u32) -> Hmac<Sha256> {
        let mut m = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        // The id's length first, so no two (id, numbers) share an input.
        m.update(&(sweep_id.len() as u64).to_be_bytes());
        m.update(sweep_id.as_bytes());
        m.update(&seq.to_be_bytes());
        m.update(&index.to_be_bytes());
        m.update(&attempt.to_be_bytes());
        m
    }

    /// The token of attempt `attempt` at shard `index` of the sweep
    /// `sweep_id` launched as `seq`: 64 lowercase hex digits.
    pub(crate) fn token(&self, sweep_id: &str, seq: u64, index: u32, attempt: u32) -> String {
        let tag = self
            .mac(sweep_id, seq, index, attempt)
            .finalize()
            .into_bytes();
        tag.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Whether `token` is that lease's token (compared in constant time).
    pub(crate) fn verify(
        &self,
        sweep_id: &str,
        seq: u64,
        index: u32,
        attempt: u32,
        token: &str,
    ) -> bool {
        let Some(tag) = unhex(token) else {
            return false;
        };
        self.mac(sweep_id, seq, index, attempt)
            .verify_slice(&tag)
            .is_ok()
    }
}

/// The 32 bytes of a token, or `None` if it is not 64 hex digits.
fn unhex(token: &str) -> Option<Vec<u8>> {
    if token.len() != TOKEN_HEX_LEN || !token.is_ascii() {
        return None;
    }
    (0..TOKEN_HEX_LEN)
        .step_by(2)
        .map(|i| u8::from_str_radix(&token[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_valid_for_its_own_lease_only() {
        let k = LeaseKey::new([7; 32]);
        let t = k.token("s", 1, 2, 3);
        assert_eq!(t.len(), 64);
        assert!(k.verify("s", 1, 2, 3, &t));
        assert!(k.verify("s", 1, 2, 3, &t.to_uppercase()), "hex in any case");
        for (id, seq, index, attempt) in [
            ("t", 1, 2, 3),
            ("s", 2, 2, 3),
            ("s", 1, 3, 3),
            ("s", 1, 2, 4),
        ] {
            assert!(
                !k.verify(id, seq, index, attempt, &t),
                "{id} {seq} {index} {attempt}"
            );
        }
        assert!(
            !LeaseKey::new([8; 32]).verify("s", 1, 2, 3, &t),
            "another key"
        );
        for bad in [
            "",
            "00",
            &t[..62],
            &format!("{t}00"),
            &format!("{}zz", &t[..62]),
        ] {
            assert!(!k.verify("s", 1, 2, 3, bad), "{bad:?}");
        }
        // Multi-byte characters of the right byte length are not hex.
        assert!(!k.verify("s", 1, 2, 3, &"é".repeat(32)));
    }
}
