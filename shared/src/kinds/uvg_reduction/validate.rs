//! [`Kind::validate`] of `uvg-reduction`: a shard's result checked without re-running it.

use super::*;

/// [`Kind::validate`] for `uvg-reduction`: the digraphs, positions (one per
/// start) and gadgets (one per arc) of each part are recomputed from the
/// shard's instances (generating them is cheap; checking them is the work);
/// every position has one main-claim value (P or N) and one prefix value;
/// the main claim's exceptions are exactly the P-positions of a value other
/// than * and the N-positions of value 0 or *; every check keeps
/// min(count, cap) records.
pub(super) fn validate(
    params: &ReductionParams,
    shard: &RangeShard,
    out: &ReductionOutput,
) -> Result<(), ValidateError> {
    let range = shard
        .instances("uvg-reduction", total_instances(params))
        .map_err(|e| e.to_string())?;
    let mut want = [(0u64, 0u64, 0u64); 2];
    for idx in range {
        let (part, _, d) = instance(params.seed, idx);
        let w = &mut want[(part == Part::Random) as usize];
        w.0 += 1;
        w.1 += d.n() as u64;
        w.2 += d.arc_count() as u64;
    }
    let sum = |v: &ValueCounts| v.0.iter().try_fold(0u64, |a, &b| a.checked_add(b));
    let mut main_exceptions = 0u64;
    for ((name, st), (digraphs, positions, gadgets)) in
        [("exhaustive", &out.exhaustive), ("random", &out.random)]
            .into_iter()
            .zip(want)
    {
        for (field, got, want) in [
            ("digraphs", st.digraphs, digraphs),
            ("positions", st.positions, positions),
            ("gadgets", st.gadgets, gadgets),
        ] {
            if got != want {
                return Err(ValidateError::from(format!(
                    "{name}.{field} is {got}, but the shard's digraphs have {want}"
                )));
            }
        }
        let main = sum(&st.main_p)
            .zip(sum(&st.main_n))
            .and_then(|(p, n)| p.checked_add(n));
        if main != Some(positions) {
            return Err(ValidateError::from(format!(
                "{name}.main_p and {name}.main_n count {main:?} positions, not {positions}"
            )));
        }
        if sum(&st.prefix) != Some(positions) {
            return Err(ValidateError::from(format!(
                "{name}.prefix counts {:?} positions, not {positions}",
                sum(&st.prefix)
            )));
        }
        let p_off = st
            .main_p
            .0
            .iter()
            .enumerate()
            .filter(|&(v, _)| v != 1)
            .map(|(_, &c)| c)
            .sum::<u64>();
        let n_off = st.main_n.0.iter().take(2).sum::<u64>();
        main_exceptions = main_exceptions.saturating_add(p_off).saturating_add(n_off);
    }
    if out.exceptions.main.count() != main_exceptions {
        return Err(ValidateError::from(format!(
            "exceptions.main is {}, but the value histograms have {main_exceptions} positions against the claim",
            out.exceptions.main.count()
        )));
    }
    for (name, e) in out.exceptions.in_report_order() {
        let set = &e.0;
        if set.cap != crate::families::bft::EXCEPTION_CAP
            || set.kept.len() as u64 != set.total.min(set.cap)
        {
            return Err(ValidateError::from(format!(
                "exceptions.{name} keeps {} record(s) of {} (cap {})",
                set.kept.len(),
                set.total,
                set.cap
            )));
        }
    }
    Ok(())
}
