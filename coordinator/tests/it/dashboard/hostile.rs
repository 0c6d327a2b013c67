//! Slow and hostile clients: slow login bodies and slow bodies from many
//! addresses leave room for reading the pages; sessions expire, logging out
//! is same-origin, and loopback checks the Host.

use super::*;

/// Regression: 140 slow POST bodies (a byte every few seconds, no token) to
/// `/login` made the dashboard and `/metrics` unreachable while they
/// lasted. Now one peer's connections past its cap close its oldest, and a
/// body must arrive whole within the body timeout.
#[test]
fn slow_login_bodies_do_not_lock_out_the_dashboard() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let read = write_token(d, "read", "read-secret-slow");
    let (_c, _url, base) = serve_http(d, &["--token-file", read.to_str().unwrap(), "--http-login"]);
    let host = base
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let slow_login = || {
        let mut s = TcpStream::connect(&host).unwrap();
        let head = format!(
            "POST /login HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nt"
        );
        // A connection the server already closed may refuse the write.
        let _ = s.write_all(head.as_bytes());
        s
    };
    let slow: Vec<TcpStream> = (0..139).map(|_| slow_login()).collect();
    std::thread::sleep(Duration::from_millis(300));
    for path in ["/login", "/metrics"] {
        let t0 = Instant::now();
        let r = request(
            &base,
            "GET",
            path,
            &[("Authorization", "Bearer read-secret-slow")],
            "",
        );
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert!(
            t0.elapsed() < Duration::from_secs(3),
            "{path}: {:?}",
            t0.elapsed()
        );
    }
    // A slow body is answered 408 once the body timeout (5 s) has passed,
    // and its connection closed. It is sent once the connections the cap
    // closed are gone: a connection aborted a moment ago may still hold its
    // body reader, and the 33rd reader is (rightly) answered 503 at once.
    drop(slow);
    std::thread::sleep(Duration::from_millis(300));
    let mut last = slow_login();
    last.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let t0 = Instant::now();
    let mut raw = Vec::new();
    let _ = last.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(t0.elapsed() < Duration::from_secs(12), "{:?}", t0.elapsed());
}

/// Regression: 150 slow POST bodies from 10 loopback addresses (15
/// each, under the per-peer cap) kept all 128 connection slots full and
/// the dashboard answered in 7.5-10 s. Now at most `BODY_READERS` (32)
/// bodies are read at once, the next is answered 503 at once (and its
/// connection closed), so the pages stay readable.
#[test]
fn slow_bodies_from_many_addresses_leave_room_for_reading_the_pages() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, _url, base) = serve_http(dir.path(), &[]);
    let host = base
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let addr: std::net::SocketAddr = host.parse().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut slow = Vec::new();
    for i in 0..150u8 {
        let from: std::net::SocketAddr = format!("127.0.0.{}:0", 2 + i % 10).parse().unwrap();
        let s = rt.block_on(async {
            let sock = tokio::net::TcpSocket::new_v4().unwrap();
            sock.bind(from).unwrap();
            sock.connect(addr).await.unwrap().into_std().unwrap()
        });
        s.set_nonblocking(false).unwrap();
        let mut s = s;
        let head = format!(
            "POST /explore/api/gamegraph HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\ngame"
        );
        // A connection the server already answered may refuse the write.
        let _ = s.write_all(head.as_bytes());
        slow.push(s);
    }
    std::thread::sleep(Duration::from_millis(300));
    for path in ["/", "/api/status", "/metrics"] {
        let t0 = Instant::now();
        let r = request(&base, "GET", path, &[], "");
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        let took = t0.elapsed();
        assert!(took < Duration::from_secs(2), "{path}: {took:?}");
    }
    // Of the slow senders, those past the readers were answered 503 at once
    // and closed; the others time out with a 408.
    let (mut busy, mut late) = (0, 0);
    for mut s in slow {
        s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw);
        if text.starts_with("HTTP/1.1 503") {
            busy += 1;
            assert!(text.contains("try again"), "{text}");
        } else if text.starts_with("HTTP/1.1 408") {
            late += 1;
        }
    }
    assert_eq!(busy + late, 150, "{busy} busy, {late} late");
    assert!((1..=32).contains(&late), "{late} read at once");
}

/// Regression: the cookie never expired, there was no logout, login accepted
/// a cross-origin POST, and a loopback dashboard did not check `Host`.
#[test]
fn sessions_expire_and_log_out_posts_are_same_origin_and_loopback_checks_host() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let read = write_token(d, "read", "read-secret-4");
    let (_c, _url, base) = serve_http(d, &["--token-file", read.to_str().unwrap(), "--http-login"]);
    let host = base
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    // A page of another site posting the login form is refused.
    for bad in [
        vec![("Origin", "http://evil.example")],
        vec![("Origin", "null")],
        vec![("Sec-Fetch-Site", "cross-site")],
    ] {
        let h: Vec<(&str, &str)> = form.iter().copied().chain(bad.clone()).collect();
        let r = request(&base, "POST", "/login", &h, "token=read-secret-4");
        assert_eq!(r.status, 403, "{bad:?}: {}", r.body);
        assert!(r.header("set-cookie").is_none());
    }
    // Its own page's post logs in; the cookie has a lifetime.
    let origin = format!("http://{host}");
    let h: Vec<(&str, &str)> = form
        .iter()
        .copied()
        .chain([("Origin", origin.as_str())])
        .collect();
    let r = request(&base, "POST", "/login", &h, "token=read-secret-4");
    assert_eq!(r.status, 303, "{}", r.body);
    let cookie = r.header("set-cookie").unwrap().to_string();
    assert!(cookie.split("; ").any(|a| a == "Max-Age=43200"), "{cookie}");
    let session = cookie.split(';').next().unwrap().to_string();
    let st = request(&base, "GET", "/api/status", &[("Cookie", &session)], "");
    assert_eq!(st.status, 200);
    // Logout ends the session: the same cookie is refused afterwards.
    let out = request(&base, "POST", "/logout", &[("Cookie", &session)], "");
    assert_eq!((out.status, out.header("location")), (303, Some("/login")));
    assert!(out
        .header("set-cookie")
        .is_some_and(|c| c.contains("Max-Age=0")));
    let st = request(&base, "GET", "/api/status", &[("Cookie", &session)], "");
    assert_eq!(st.status, 401);
    // DNS rebinding: a loopback dashboard asked under another name refuses.
    let s = TcpStream::connect(&host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let r = exchange(s, "rebind.evil.example", "GET", "/metrics", &[], "");
    assert_eq!(r.status, 421, "{}", r.body);
    let s = TcpStream::connect(&host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let port = host.rsplit(':').next().unwrap();
    let r = exchange(s, &format!("localhost:{port}"), "GET", "/login", &[], "");
    assert_eq!(r.status, 200, "{}", r.body);
}
