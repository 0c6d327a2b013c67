//! The shard work of `uvg-reduction`.

use super::*;

struct Ctx<'a> {
    part: Part,
    number: u64,
    d: &'a Digraph,
    code: String,
    u: &'a Reduced,
}

impl Ctx<'_> {
    fn record(&self, index: u64, detail: String, note: String) -> Record {
        Record {
            vertices: self.d.n() as u32,
            edges: self.d.arc_count() as u32,
            code: self.code.clone(),
            index,
            detail: format!("{} digraph #{}: {detail}", self.part.key(), self.number),
            note,
        }
    }

    fn deleted(&self, pos: &Position) -> String {
        pos.deleted
            .iter()
            .map(|&v| self.u.label(v))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

pub(super) fn check_digraph(out: &mut ReductionOutput, part: Part, number: u64, d: &Digraph) {
    let u = Reduced::new(d);
    let c = Ctx {
        part,
        number,
        d,
        code: d.to_digraph6(),
        u: &u,
    };
    let ReductionOutput {
        exhaustive,
        random,
        wrong_way_examples,
        exceptions,
    } = out;
    let st = match part {
        Part::Exhaustive => exhaustive,
        Part::Random => random,
    };
    st.digraphs += 1;
    st.positions += d.n() as u64;
    st.gadgets += d.arc_count() as u64;
    st.reduced_vertices_max.offer(u.vertices() as u64);
    st.prefixed_vertices_max.offer(u.vertices() as u64 + 4);
    for (s, wins) in d.first_player_wins_all().into_iter().enumerate() {
        let value = st.solved(&u.start(s));
        let class = if wins { "N" } else { "P" };
        if wins {
            st.main_n.add(value);
        } else {
            st.main_p.add(value);
        }
        let ok = if wins {
            value != 0 && value != 1
        } else {
            value == 1
        };
        if !ok {
            exceptions.main.add(c.record(
                s as u64,
                format!("start {s}, reduced graph on {} vertices", u.vertices()),
                format!(
                    "geography={class} uvg_value={} (claim: P ⇒ *, N ⇒ not 0 and not *)",
                    nim(value as u64)
                ),
            ));
        }
        let pg = u.prefixed(s);
        let pv = st.solved(&pg.position);
        st.prefix.add(pv);
        let want = if value == 1 { 1 } else { 2 };
        if pv != want {
            exceptions.prefix.add(c.record(
                s as u64,
                format!(
                    "start {s}, prefix gadget start={} start0={} p={} p0={}",
                    pg.start, pg.start0, pg.p, pg.p0
                ),
                format!(
                    "value(s)={} value(start)={} expected {}",
                    nim(value as u64),
                    nim(pv as u64),
                    nim(want as u64)
                ),
            ));
        }
    }
    check_contexts(st, exceptions, &c);
    for (i, g) in u.gadgets().iter().enumerate() {
        let what = format!("arc {}→{} (gadget {i})", g.x, g.y);
        let ww = u.wrong_way(g);
        let w = st.solved(&ww);
        st.wrong_way.add(w);
        let rec = c.record(
            i as u64,
            format!("{what}: token on d, deleted {}", c.deleted(&ww)),
            format!("wrong_way_value={}", nim(w as u64)),
        );
        if w == 2 || w == 3 {
            match wrong_way_examples.get_mut(&w) {
                Some(old) if *old <= rec => {}
                Some(old) => *old = rec,
                None => {
                    wrong_way_examples.insert(w, rec);
                }
            }
        } else {
            exceptions.wrong_way.add(rec);
        }
        let entry = st.solved(&u.correct_way_entry(g));
        let via_c = st.solved(&u.correct_way_exit_via_c(g));
        let via_f = st.solved(&u.correct_way_exit_via_f(g));
        st.correct_way_entry.add(entry);
        st.correct_way_exit_via_c.add(via_c);
        st.correct_way_exit_via_f.add(via_f);
        for (route, exit) in [("c", via_c), ("f", via_f)] {
            if (entry == 1) != (exit == 1) {
                exceptions.correct_way.add(c.record(
                    i as u64,
                    format!("{what}: exit via {route}"),
                    format!(
                        "after x→a: {}; after d→y via {route}: {}",
                        nim(entry as u64),
                        nim(exit as u64)
                    ),
                ));
            }
        }
    }
}

/// The lemmas in every play context: for each position reachable from any
/// start with the token on a digraph vertex (see
/// [`Reduced::digraph_vertex_contexts`]) and each gadget that can be entered
/// from there with its interior untouched — forwards from x (a remaining):
/// Correct Way, with both exits when y remains; backwards from y (d
/// remaining): Wrong Way.
fn check_contexts(st: &mut PartStats, exceptions: &mut Checks<Exceptions>, c: &Ctx<'_>) {
    let u = c.u;
    let Some(contexts) = u.digraph_vertex_contexts() else {
        st.context_skipped_digraphs += 1;
        return;
    };
    let has = |set: u128, v: usize| set >> v & 1 == 1;
    for (tok, comp) in contexts {
        st.context_states += 1;
        for (i, g) in u.gadgets().iter().enumerate() {
            let what = || {
                format!(
                    "arc {}→{} (gadget {i}) in context token {} with remaining component {}",
                    g.x,
                    g.y,
                    u.label(tok),
                    u.label_set(comp)
                )
            };
            if g.x == tok && has(comp, g.a) {
                let entry = st.solved(&u.context_position(g.a, comp, &[g.x]));
                st.context_correct_way_entries += 1;
                if has(comp, g.y) {
                    st.context_correct_way_with_exit += 1;
                    let via_c =
                        st.solved(&u.context_position(g.y, comp, &[g.x, g.a, g.b, g.c, g.d]));
                    let via_f =
                        st.solved(&u.context_position(g.y, comp, &[g.x, g.a, g.b, g.f, g.d]));
                    for (route, exit) in [("c", via_c), ("f", via_f)] {
                        if (entry == 1) != (exit == 1) {
                            exceptions.context_correct_way.add(c.record(
                                i as u64,
                                format!("{}: exit via {route}", what()),
                                format!(
                                    "after x→a: {}; after d→y via {route}: {}",
                                    nim(entry as u64),
                                    nim(exit as u64)
                                ),
                            ));
                        }
                    }
                }
            }
            if g.y == tok && has(comp, g.d) {
                let w = st.solved(&u.context_position(g.d, comp, &[g.y]));
                st.context_wrong_way.add(w);
                if w != 2 && w != 3 {
                    exceptions.context_wrong_way.add(c.record(
                        i as u64,
                        what(),
                        format!("wrong_way_value={}", nim(w as u64)),
                    ));
                }
            }
        }
    }
}
