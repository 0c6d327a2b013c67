//! [`Kind::validate`] of `myopic-list`: a shard's result checked without re-running it.

use super::*;

impl MyopicListSweep {
    /// [`Kind::validate`]: the shard fixes its lists, so its positions are
    /// known exactly without solving (three lemma claims per length; 3^n
    /// colourings per tuple of lists on n nodes); the other checks are
    /// empty; exceptions and non-cold positions are within the positions,
    /// their record lists complete up to the cap, and every record a
    /// position of one of the shard's lists.
    pub(super) fn validate_output(
        &self,
        p: &ListParams,
        shard: &ListShard,
        out: &ListOutput,
    ) -> Result<(), ValidateError> {
        self.check(p).map_err(|e| e.to_string())?;
        let (name, check, codes, positions): (&str, &ClaimCheck, Vec<(String, usize)>, u64) =
            match *shard {
                ListShard::Lemma => ("lemma", &out.lemma, Vec::new(), 3 * p.max_len as u64),
                ListShard::List { nodes } => {
                    if nodes == 0 || nodes > p.max_single {
                        return Err(ValidateError::from(format!(
                            "shard: list of {nodes} nodes outside 1..={}",
                            p.max_single
                        )));
                    }
                    let n = lists_board(&[nodes]).n();
                    (
                        "single",
                        &out.single,
                        vec![(lists_code(&[nodes]), n)],
                        3u64.pow(n as u32),
                    )
                }
                ListShard::Forest { lists, first } => {
                    if !(2..=4).contains(&lists) || first == 0 || first > p.max_forest {
                        return Err(ValidateError::from(format!(
                        "shard: forest of {lists} lists, first of {first} nodes, outside the plan for max_forest {}",
                        p.max_forest
                    )));
                    }
                    let mut codes = Vec::new();
                    let mut positions = 0u64;
                    for total in lists..=p.max_forest {
                        for lens in compositions(lists, total, first) {
                            if lens.iter().sum::<usize>() == total {
                                let n = lists_board(&lens).n();
                                positions += 3u64.pow(n as u32);
                                codes.push((lists_code(&lens), n));
                            }
                        }
                    }
                    ("forest", &out.forest, codes, positions)
                }
            };
        for (other, c) in [
            ("lemma", &out.lemma),
            ("single", &out.single),
            ("forest", &out.forest),
        ] {
            if other != name && (c.positions != 0 || c.exceptions.total() != 0) {
                return Err(ValidateError::from(format!(
                    "{other}: {} positions, but this is a {name} shard",
                    c.positions
                )));
            }
        }
        if check.positions != positions {
            return Err(ValidateError::from(format!(
                "{name}.positions is {}, but the shard has {positions}",
                check.positions
            )));
        }
        if out.work != positions {
            return Err(ValidateError::from(format!(
                "work is {}, not the shard's {positions} positions",
                out.work
            )));
        }
        let non_cold_limit = if name == "lemma" { 0 } else { positions };
        for (what, rs, limit) in [
            (format!("{name}.exceptions"), &check.exceptions.0, positions),
            ("non_cold".to_string(), &out.non_cold.0, non_cold_limit),
        ] {
            let cap = crate::families::col::RECORD_CAP;
            if rs.cap != cap || rs.total > limit || rs.kept.len() as u64 != rs.total.min(cap) {
                return Err(ValidateError::from(format!(
                    "{what}: total {} with {} kept (cap {}), of {limit} positions (cap {cap})",
                    rs.total,
                    rs.kept.len(),
                    rs.cap
                )));
            }
            for r in &rs.kept {
                let ok = if name == "lemma" {
                    (1..=p.max_len as u32).contains(&r.vertices)
                } else {
                    codes
                        .iter()
                        .any(|(c, n)| *c == r.code && *n == r.vertices as usize)
                };
                if !ok {
                    return Err(ValidateError::from(format!(
                        "{what}: `{:.40}` on {} nodes is not one of the shard's lists",
                        r.code, r.vertices
                    )));
                }
            }
        }
        Ok(())
    }
}
