//! [`Kind::validate`] of `octal`: a shard's result checked without re-running it.

use super::*;

/// [`Kind::validate`] of `octal`.
pub(super) fn validate(
    params: &OctalParams,
    shard: &CodeRange,
    out: &OctalOutput,
) -> Result<(), ValidateError> {
    params.check().map_err(|e| e.to_string())?;
    let CodeRange { lo, hi } = *shard;
    let want: Vec<u64> = (lo..hi.min(params.codes())).map(code_of_rank).collect();
    if out.per_code.len() != want.len() || !want.iter().all(|c| out.per_code.contains_key(c)) {
        return Err(ValidateError::from(format!(
            "per_code has {} codes, not the shard's {} codes (ranks {lo}..{hi})",
            out.per_code.len(),
            want.len()
        )));
    }
    let mut again = OctalOutput::default();
    for (&code, st) in &out.per_code {
        again.codes += 1;
        match st.proven {
            Some(p) => {
                again.proven += 1;
                *again.period_histogram.entry(p.period).or_insert(0) += 1;
                *again.preperiod_histogram.entry(p.preperiod).or_insert(0) += 1;
                again.largest_period.offer(p.period, code);
                again.largest_preperiod.offer(p.preperiod, code);
            }
            None => again.not_proven += 1,
        }
        *again.max_grundy_histogram.entry(st.max_grundy).or_insert(0) += 1;
        again.largest_max_grundy.offer(st.max_grundy, code);
    }
    let fields: [(&str, bool); 9] = [
        ("codes", again.codes == out.codes),
        ("proven", again.proven == out.proven),
        ("not_proven", again.not_proven == out.not_proven),
        (
            "period_histogram",
            again.period_histogram == out.period_histogram,
        ),
        (
            "preperiod_histogram",
            again.preperiod_histogram == out.preperiod_histogram,
        ),
        (
            "max_grundy_histogram",
            again.max_grundy_histogram == out.max_grundy_histogram,
        ),
        ("largest_period", again.largest_period == out.largest_period),
        (
            "largest_preperiod",
            again.largest_preperiod == out.largest_preperiod,
        ),
        (
            "largest_max_grundy",
            again.largest_max_grundy == out.largest_max_grundy,
        ),
    ];
    if let Some((f, _)) = fields.iter().find(|(_, ok)| !ok) {
        return Err(ValidateError::from(format!(
            "{f} does not agree with the per_code rows"
        )));
    }
    let k = params.digits;
    for l in [
        &out.largest_period,
        &out.largest_preperiod,
        &out.largest_max_grundy,
    ] {
        if l.codes == 0 {
            continue;
        }
        let code = l.smallest;
        let g = grundy_values(&digits_of(code, k), params.max_heap as usize);
        let row = CodeStats {
            proven: proven_periodicity(&g, k as usize),
            max_grundy: g.iter().copied().max().unwrap_or(0) as u64,
        };
        if out.per_code.get(&code) != Some(&row) {
            return Err(ValidateError::from(format!(
                "per_code[{code}] is {:?}, solved again: {row:?}",
                out.per_code.get(&code)
            )));
        }
    }
    Ok(())
}
