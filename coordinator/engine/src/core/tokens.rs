//! Lease tokens: each lease the core grants carries an opaque token,
//! `nonce ‖ HMAC-SHA256(sweep id, launch sequence number, shard index,
//! holder, nonce)` under a key kept in the store. Only the coordinator can
//! make one, so a token proves that its shard was leased to that holder (the
//! identity the access layer derived from the caller's credential, see
//! [`super::model::Identity`]): a token is useless to anyone else, whatever
//! worker id they send. The nonce is random and stored with the lease, so a
//! token names exactly one lease: once that lease is released, reported
//! failed, or its shard re-issued, the token matches nothing and is refused.
//! The token says nothing readable: not the attempt, not whether the lease
//! is a first run or a verification copy. The sequence number keeps a token
//! of a deleted sweep from working for a new sweep launched under the same
//! name (`run --fresh`). The key survives restarts, so do the tokens.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The key lease tokens are signed with.
pub(crate) struct LeaseKey([u8; 32]);

/// Hex digits of the nonce (8 bytes) at the start of a token.
const NONCE_HEX_LEN: usize = 16;
/// Hex digits of a token: the nonce and the 32-byte tag.
pub(crate) const TOKEN_HEX_LEN: usize = NONCE_HEX_LEN + 64;

/// What a lease token is about.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeaseClaim<'a> {
    /// The sweep's id.
    pub(crate) sweep_id: &'a str,
    /// Its launch sequence number.
    pub(crate) seq: u64,
    /// The shard.
    pub(crate) index: u32,
    /// The holder's identity key ([`super::model::Identity::key`]).
    pub(crate) holder: &'a str,
}

impl LeaseKey {
    /// A key from its 32 bytes (see [`crate::store::Store::lease_key`]).
    pub(crate) fn new(key: [u8; 32]) -> Self {
        LeaseKey(key)
    }

    /// The MAC of one lease, before finalization.
    fn mac(&self, c: &LeaseClaim<'_>, nonce: u64) -> Hmac<Sha256> {
        let mut m = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        // Lengths first, so no two claims share an input.
        m.update(b"gamesweep-lease-v2");
        m.update(&(c.sweep_id.len() as u64).to_be_bytes());
        m.update(c.sweep_id.as_bytes());
        m.update(&c.seq.to_be_bytes());
        m.update(&c.index.to_be_bytes());
        m.update(&(c.holder.len() as u64).to_be_bytes());
        m.update(c.holder.as_bytes());
        m.update(&nonce.to_be_bytes());
        m
    }

    /// The salt of the position digest of shard `index` of sweep
    /// `sweep_id` (launch `seq`): the first 8 bytes of an HMAC under this
    /// key, so only the coordinator can know it before it leases the shard;
    /// the same for every lease of the shard (two runs must compute the
    /// same digest), stored nowhere, and different for every launch.
    pub(crate) fn salt(&self, sweep_id: &str, seq: u64, index: u32) -> u64 {
        let mut m = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        m.update(b"gamesweep-position-salt");
        m.update(&(sweep_id.len() as u64).to_be_bytes());
        m.update(sweep_id.as_bytes());
        m.update(&seq.to_be_bytes());
        m.update(&index.to_be_bytes());
        let tag = m.finalize().into_bytes();
        u64::from_le_bytes(tag[..8].try_into().expect("8 bytes"))
    }

    /// The token of the lease `nonce` of `claim`: 80 lowercase hex digits.
    pub(crate) fn token(&self, claim: &LeaseClaim<'_>, nonce: u64) -> String {
        let tag = self.mac(claim, nonce).finalize().into_bytes();
        let mut s = format!("{nonce:016x}");
        for b in tag.iter() {
            s.push_str(&format!("{b:02x}"));
        }
        s
    }

    /// The nonce of `token` if it was made for `claim` (compared in
    /// constant time), else `None`.
    pub(crate) fn open(&self, claim: &LeaseClaim<'_>, token: &str) -> Option<u64> {
        if token.len() != TOKEN_HEX_LEN || !token.is_ascii() {
            return None;
        }
        let nonce = u64::from_str_radix(&token[..NONCE_HEX_LEN], 16).ok()?;
        let tag = unhex(&token[NONCE_HEX_LEN..])?;
        self.mac(claim, nonce)
            .verify_slice(&tag)
            .is_ok()
            .then_some(nonce)
    }
}

/// A fresh lease nonce (never 0: 0 marks leases stored before nonces).
pub(crate) fn fresh_nonce() -> u64 {
    loop {
        let n: u64 = rand::random();
        if n != 0 {
            return n;
        }
    }
}

/// The bytes of a hex string, or `None`.
fn unhex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim<'a>(id: &'a str, seq: u64, index: u32, holder: &'a str) -> LeaseClaim<'a> {
        LeaseClaim {
            sweep_id: id,
            seq,
            index,
            holder,
        }
    }

    #[test]
    fn a_token_is_valid_for_its_own_lease_and_holder_only() {
        let k = LeaseKey::new([7; 32]);
        let t = k.token(&claim("s", 1, 2, "@alice"), 99);
        assert_eq!(t.len(), TOKEN_HEX_LEN);
        assert_eq!(k.open(&claim("s", 1, 2, "@alice"), &t), Some(99));
        assert_eq!(
            k.open(&claim("s", 1, 2, "@alice"), &t.to_uppercase()),
            Some(99),
            "hex in any case"
        );
        for (id, seq, index, holder) in [
            ("t", 1, 2, "@alice"),
            ("s", 2, 2, "@alice"),
            ("s", 1, 3, "@alice"),
            ("s", 1, 2, "@alice2"),
            ("s", 1, 2, "alice"),
        ] {
            assert_eq!(
                k.open(&claim(id, seq, index, holder), &t),
                None,
                "{id} {seq} {index} {holder}"
            );
        }
        assert_eq!(
            LeaseKey::new([8; 32]).open(&claim("s", 1, 2, "@alice"), &t),
            None,
            "another key"
        );
        // Another nonce with the same tag is no token.
        let forged = format!("{:016x}{}", 100, &t[NONCE_HEX_LEN..]);
        assert_eq!(k.open(&claim("s", 1, 2, "@alice"), &forged), None);
        for bad in [
            "",
            "00",
            &t[..78],
            &format!("{t}00"),
            &format!("{}zz", &t[..78]),
        ] {
            assert_eq!(k.open(&claim("s", 1, 2, "@alice"), bad), None, "{bad:?}");
        }
        // Multi-byte characters of the right byte length are not hex.
        assert_eq!(k.open(&claim("s", 1, 2, "@alice"), &"é".repeat(40)), None);
    }

    #[test]
    fn nonces_are_never_zero_and_differ() {
        let a = fresh_nonce();
        let b = fresh_nonce();
        assert!(a != 0 && b != 0 && a != b);
    }
}
