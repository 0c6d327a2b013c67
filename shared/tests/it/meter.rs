//! Every exact search that a page or a notebook may start can be watched
//! and stopped through a [`Meter`]: UVG's general search (whole positions
//! and the boards' reply), the Col solver (values and replies), a sum of
//! boards, and the game graphs' kernel search. A stopped search ends with
//! its "stopped" error, and the meter counts the positions it evaluated.

use gamesweep::board::colplay::{self, ColPlayError, Side};
use gamesweep::board::play::{self, PlayError};
use gamesweep::col::{self, ColError, Rules};
use gamesweep::gamegraph::{self, Format, GameGraphError};
use gamesweep::graph::graph6;
use gamesweep::meter::Meter;
use gamesweep::sums::{self as sum, Limits, SumError};
use gamesweep::uvg::position::{self, PositionError};
use std::time::{Duration, Instant};

/// K40: no exact search finishes on it.
fn k40() -> String {
    graph6::encode_with(40, |_, _| true)
}

/// A Col board that takes the solver far longer than these tests wait
/// (more than 10 s unbudgeted): 26 vertices, i ~ j (i < j) when
/// ((31i + 17j) xor ij) mod 5 = 0.
fn hard_col() -> String {
    graph6::encode_with(26, |i, j| ((i * 31 + j * 17) ^ (i * j)) % 5 == 0)
}

/// Run `search` under a meter on a thread of its own, stop the meter once
/// it has counted `after` positions, and give the search's result back
/// with the positions counted and the time it took to end after the stop.
fn stopped_after<T: Send + 'static>(
    after: u64,
    search: impl FnOnce() -> T + Send + 'static,
) -> (T, u64, Duration) {
    let meter = Meter::new();
    let m = meter.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(m.run(search));
    });
    let t0 = Instant::now();
    while meter.nodes() < after {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the meter counted only {} positions in 60 s",
            meter.nodes()
        );
        assert!(
            matches!(rx.try_recv(), Err(std::sync::mpsc::TryRecvError::Empty)),
            "the search ended before it was stopped"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    meter.stop();
    let stopped = Instant::now();
    let r = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the search ended within 10 s of the stop");
    (r, meter.nodes(), stopped.elapsed())
}

#[test]
fn a_uvg_search_on_k40_stops_mid_way_and_reports_its_positions() {
    let (r, nodes, took) = stopped_after(200_000, || {
        position::solve_position_within(&k40(), Some(0), None)
    });
    match r {
        Err(PositionError::Stopped { nodes: n }) => assert!(n >= 200_000 && n <= nodes, "{n}"),
        other => panic!("expected a stopped search, got {other:?}"),
    }
    assert!(
        took < Duration::from_secs(2),
        "ended {took:?} after the stop"
    );
}

#[test]
fn a_col_value_stops_mid_way() {
    let (r, _, took) = stopped_after(50_000, || {
        col::solve_position_within(Rules::Col, &hard_col(), &".".repeat(26), None)
    });
    assert!(matches!(r, Err(ColError::Stopped)), "{r:?}");
    assert!(
        took < Duration::from_secs(2),
        "ended {took:?} after the stop"
    );
}

#[test]
fn the_boards_replies_stop_mid_way() {
    let (r, _, _) = stopped_after(50_000, || play::reply(&k40(), &[], 0, None));
    assert!(matches!(r, Err(PlayError::Stopped)), "{r:?}");
    let (r, _, _) = stopped_after(50_000, || {
        colplay::reply(Rules::Col, &hard_col(), "", Side::Left, None)
    });
    assert!(matches!(r, Err(ColPlayError::Stopped)), "{r:?}");
}

#[test]
fn a_sum_stops_mid_way_and_says_so() {
    let terms = [format!("col:{}", hard_col()), "uvg:Bw@0".to_string()];
    let limits = Limits {
        col_work: None,
        uvg_nodes: None,
        uvg_max_n: 64,
        col_max_n: 32,
    };
    let (r, _, _) = stopped_after(50_000, move || {
        let terms: Vec<&str> = terms.iter().map(String::as_str).collect();
        sum::sum(&terms, &limits, &|name| Err(format!("no file {name}")))
    });
    match r {
        Err(e @ SumError::Budget { .. }) => {
            assert!(e.to_string().contains("the search was stopped"), "{e}")
        }
        other => panic!("expected a stopped sum, got {other:?}"),
    }
}

#[test]
fn a_stopped_meter_stops_the_kernel_search_at_its_first_branch() {
    // The 4-cycle needs one branching decision; propagation alone does not
    // settle it.
    let file = gamegraph::parse(
        "game C4\nq0 -> q1\nq1 -> q2\nq2 -> q3\nq3 -> q0\nend\n",
        Format::Text,
    )
    .unwrap();
    let g = &file.games[0];
    assert!(gamegraph::find_kernel(g, 10).is_ok());
    let meter = Meter::new();
    meter.stop();
    let r = meter.run(|| gamegraph::find_kernel(g, 10));
    assert!(
        matches!(r, Err(GameGraphError::Stopped { branches: 1, .. })),
        "{r:?}"
    );
}

#[test]
fn a_finished_search_under_a_meter_gives_the_unwatched_answer() {
    // A 40-vertex path: above the dense limit, so the general search walks it.
    let p40 = graph6::encode_with(40, |i, j| j == i + 1);
    let plain = position::solve_position_within(&p40, None, None).unwrap();
    let meter = Meter::new();
    let watched = meter
        .run(|| position::solve_position_within(&p40, None, None))
        .unwrap();
    assert_eq!(plain, watched);
    let counted: u64 = plain.starts.iter().filter_map(|s| s.nodes).sum();
    assert_eq!(meter.nodes(), counted);
}
