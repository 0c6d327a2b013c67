//! [`Kind::validate`] of `cgt-check`.

use super::*;

/// Col positions of the connected graphs on ≤ 6 vertices: the `col` shard
/// of `cgt-check` checks exactly these.
const CGT_CHECK_COL_POSITIONS: u64 = 18_037;

/// [`Kind::validate`] for `cgt-check`: the shard's positions are known
/// exactly (18,037 Col positions; (hi − lo) digraphs × 3^n colourings), the
/// other set is empty, the disagreements are within the positions and their
/// records are positions of the shard; up to [`RESOLVE_BUDGET`] Col
/// disagreements are re-checked (solver and naive search must differ).
pub(super) fn validate_cgt_check(
    shard: &CgtCheckShard,
    out: &CgtCheckOutput,
) -> Result<(), ValidateError> {
    let (name, set, other, other_name, positions) = match shard {
        CgtCheckShard::Col => (
            "col",
            &out.col,
            &out.myopic,
            "myopic",
            CGT_CHECK_COL_POSITIONS,
        ),
        CgtCheckShard::Myopic(r) => {
            r.check("cgt-check").map_err(|e| e.to_string())?;
            let n = 3u64.pow(r.n as u32);
            ("myopic", &out.myopic, &out.col, "col", (r.hi - r.lo) * n)
        }
    };
    if *other != CheckCounts::default() {
        return Err(ValidateError::from(format!(
            "{other_name}: {} positions, but this is a {name} shard",
            other.positions
        )));
    }
    if set.positions != positions {
        return Err(ValidateError::from(format!(
            "{name}.positions is {}, but the shard has {positions} positions",
            set.positions
        )));
    }
    let rs = &set.disagreements.0;
    let cap = super::RECORD_CAP;
    if rs.cap != cap || rs.total > positions || rs.kept.len() as u64 != rs.total.min(cap) {
        return Err(ValidateError::from(format!(
            "{name}.disagreements: total {} with {} kept (cap {}), of {positions} positions (cap {cap})",
            rs.total,
            rs.kept.len(),
            rs.cap
        )));
    }
    let mut solver: Option<Solver> = None;
    for (i, r) in rs.kept.iter().enumerate() {
        let what = format!("{name}.disagreements[`{:.40}` {}]", r.code, r.detail);
        match shard {
            CgtCheckShard::Col => {
                let top = graphplan::Walk::Top { depth: 7 };
                let (g, blue, red) = col_record(&what, r, (1, 6), &top, &[])?;
                if i < RESOLVE_BUDGET {
                    let solver =
                        solver.get_or_insert_with(|| Solver::new(SolverOptions::default()));
                    let b = col_board(&g);
                    let v = solver.value(&b, b.position_masks(blue, red));
                    let (o, want) = (solver.arena.outcome(v), naive::outcome(&b, blue, red));
                    if o == want {
                        return Err(ValidateError::from(format!(
                            "{what}: solver and naive search agree ({o}): not a disagreement"
                        )));
                    }
                }
            }
            CgtCheckShard::Myopic(range) => {
                let n = range.n;
                if r.vertices as usize != n {
                    return Err(ValidateError::from(format!(
                        "{what}: {} vertices, but the shard's digraphs have {n}",
                        r.vertices
                    )));
                }
                record_colouring(&what, r, n)?;
            }
        }
    }
    Ok(())
}
