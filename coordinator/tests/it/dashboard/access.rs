//! Who may use the dashboard: open and read-only on loopback, a read token
//! logging in through a form off loopback, the address it must bind, the
//! run's dashboard, and https with a secure cookie.

use super::*;

#[test]
fn on_loopback_the_dashboard_is_open_and_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let (_c, _url, base) = serve_http(dir.path(), &[]);
    let page = request(&base, "GET", "/", &[], "");
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains("<script type=\"module\" src=\"/app.js\""),
        "{}",
        page.body
    );
    assert!(page
        .header("content-security-policy")
        .is_some_and(|v| v.contains("default-src 'self'")));
    for asset in ["/app.js", "/style.css"] {
        assert_eq!(request(&base, "GET", asset, &[], "").status, 200, "{asset}");
    }
    let st = request(&base, "GET", "/api/status", &[], "");
    assert_eq!(st.status, 200);
    assert!(st.header("strict-transport-security").is_none());
    let v: serde_json::Value = serde_json::from_str(&st.body).unwrap();
    assert!(v["sweeps"].as_array().unwrap().is_empty(), "{v}");
    // Prometheus text on the same port, parsed by a text-format parser.
    let m = request(&base, "GET", "/metrics", &[], "");
    assert_eq!(m.status, 200, "{}", m.body);
    assert!(m
        .header("content-type")
        .is_some_and(|v| v.starts_with("text/plain")));
    let lines = m.body.lines().map(|l| Ok(l.to_string()));
    let scrape = prometheus_parse::Scrape::parse(lines).unwrap();
    assert!(
        scrape
            .samples
            .iter()
            .any(|s| s.metric == "gamesweep_store_bytes"),
        "{}",
        m.body
    );
    // Read-only: nothing but GET (and the login form's POST).
    for (m, p) in [
        ("POST", "/api/status"),
        ("PUT", "/"),
        ("DELETE", "/api/history"),
    ] {
        assert_eq!(request(&base, m, p, &[], "").status, 405, "{m} {p}");
    }
    assert_eq!(
        request(&base, "GET", "/api/sweep/nope/witnesses", &[], "").status,
        404
    );
}

#[test]
fn off_loopback_the_read_token_logs_in_through_a_form_and_a_strict_cookie() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let admin = write_token(d, "admin", "admin-secret-1");
    let worker = write_token(d, "worker", "worker-secret-2");
    let read = write_token(d, "read", "read-secret-3");
    let (_c, _url, base) = serve_http(
        d,
        &[
            "--token-file",
            admin.to_str().unwrap(),
            "--worker-token-file",
            worker.to_str().unwrap(),
            "--read-token-file",
            read.to_str().unwrap(),
            "--http-login",
        ],
    );
    let secrets = ["admin-secret-1", "worker-secret-2", "read-secret-3"];
    let no_secret = |r: &Reply| {
        for s in secrets {
            for (k, v) in &r.headers {
                assert!(!v.contains(s), "{s} in header {k}: {v}");
            }
        }
    };
    // Without a session: the API says 401, the page sends to the form.
    let st = request(&base, "GET", "/api/status", &[], "");
    assert_eq!(st.status, 401, "{}", st.body);
    // /metrics: a scraper gives the read (or admin) token as a bearer
    // token; nothing, or the worker's token, is refused.
    for (auth, want) in [
        (None, 401),
        (Some("Bearer worker-secret-2"), 401),
        (Some("Bearer read-secret-"), 401),
        (Some("read-secret-3"), 401),
        (Some("Bearer read-secret-3"), 200),
        (Some("Bearer admin-secret-1"), 200),
    ] {
        let h: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", *a)).collect();
        let r = request(&base, "GET", "/metrics", &h, "");
        assert_eq!(r.status, want, "{auth:?}: {}", r.body);
        if want == 200 {
            assert!(r.body.contains("# TYPE gamesweep_"), "{}", r.body);
        }
        no_secret(&r);
    }
    let page = request(&base, "GET", "/", &[], "");
    assert_eq!(
        (page.status, page.header("location")),
        (303, Some("/login"))
    );
    // The boards behind the same login.
    let boards = request(&base, "GET", "/explore?g=Bw&s=0", &[], "");
    assert_eq!(
        (boards.status, boards.header("location")),
        (303, Some("/login"))
    );
    let api = request(&base, "GET", "/explore/api/uvg?g=Bw", &[], "");
    assert_eq!(api.status, 401, "{}", api.body);
    let form = request(&base, "GET", "/login", &[], "");
    assert_eq!(form.status, 200);
    assert!(form
        .body
        .contains("<form method=\"post\" action=\"/login\""));
    let post = |token: &str| {
        request(
            &base,
            "POST",
            "/login",
            &[("Content-Type", "application/x-www-form-urlencoded")],
            &format!("token={token}"),
        )
    };
    // A wrong token, or the worker's, is refused without a cookie.
    for wrong in ["nope", "worker-secret-2", "", "read-secret-"] {
        let r = post(wrong);
        assert_eq!(r.status, 401, "{wrong}");
        assert!(r.header("set-cookie").is_none(), "{wrong}");
        assert!(r.body.contains("Wrong token"), "{wrong}: {}", r.body);
        no_secret(&r);
    }
    // The read token (and the admin token) buy a session cookie.
    for (good, secret) in [
        ("read-secret-3", "read-secret-3"),
        ("admin-secret-1", "admin-secret-1"),
    ] {
        let r = post(good);
        assert_eq!((r.status, r.header("location")), (303, Some("/")), "{good}");
        no_secret(&r);
        let cookie = r.header("set-cookie").unwrap().to_string();
        assert!(cookie.starts_with("gamesweep_session="), "{cookie}");
        for attr in ["HttpOnly", "SameSite=Strict", "Path=/"] {
            assert!(
                cookie.split("; ").any(|a| a == attr),
                "{attr} not in {cookie}"
            );
        }
        assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
        assert!(!cookie.contains(secret), "{cookie}");
        let session = cookie.split(';').next().unwrap();
        let st = request(&base, "GET", "/api/status", &[("Cookie", session)], "");
        assert_eq!(st.status, 200, "{}", st.body);
        serde_json::from_str::<serde_json::Value>(&st.body).unwrap();
        assert_eq!(
            request(&base, "GET", "/", &[("Cookie", session)], "").status,
            200
        );
        let api = request(
            &base,
            "GET",
            "/explore/api/uvg?g=Bw",
            &[("Cookie", session)],
            "",
        );
        assert_eq!(api.status, 200, "{}", api.body);
        // A forged session is not one.
        // (Its last character changed: to `1` where it was `0`, else `0`.)
        let flipped = if session.ends_with('0') { '1' } else { '0' };
        let forged = format!("{}{flipped}", &session[..session.len() - 1]);
        let st = request(&base, "GET", "/api/history", &[("Cookie", &forged)], "");
        assert_eq!(st.status, 401);
    }
}

#[test]
fn a_dashboard_off_loopback_needs_a_token_and_the_address_must_bind() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let s = store.to_str().unwrap();
    refused(&["serve", "--store", s, "--http", "0.0.0.0:0"], "--http: ");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    refused(
        &[
            "serve",
            "--store",
            s,
            "--listen",
            "127.0.0.1:0",
            "--http",
            &format!("127.0.0.1:{port}"),
        ],
        "cannot listen for HTTP on 127.0.0.1:",
    );
}

#[test]
fn run_prints_its_dashboard_on_a_loopback_port_unless_no_http() {
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let mut args = vec![
            "run",
            "uvg",
            "--max-n",
            "6",
            "-q",
            "--threads",
            "1",
            "--out",
        ];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let o = gs(&args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        err
    };
    let err = run("a", &[]);
    let line = err
        .lines()
        .find(|l| l.starts_with("gamesweep: dashboard: "))
        .unwrap_or_else(|| panic!("no dashboard line: {err}"));
    let url = line.trim_start_matches("gamesweep: dashboard: ");
    let port: u16 = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|p| p.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("not a loopback URL: {url}"));
    assert_ne!(port, 0);
    // The first line is still the plan's.
    assert!(
        err.lines().next().unwrap().contains("shards planned"),
        "{err}"
    );
    let err = run("b", &["--no-http"]);
    assert!(!err.contains("dashboard"), "{err}");
}

#[test]
fn with_tls_the_dashboard_is_https_and_its_cookie_secure() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .self_signed(&key)
        .unwrap();
    let (c, k) = (d.join("dash.crt"), d.join("dash.key"));
    std::fs::write(&c, cert.pem()).unwrap();
    std::fs::write(&k, key.serialize_pem()).unwrap();
    let admin = write_token(d, "admin", "admin-secret-tls");
    let (_c, _url, base) = serve_http(
        d,
        &[
            "--tls-cert",
            c.to_str().unwrap(),
            "--tls-key",
            k.to_str().unwrap(),
            "--token-file",
            admin.to_str().unwrap(),
            "--http-login",
        ],
    );
    assert!(base.starts_with("https://127.0.0.1:"), "{base}");
    assert_eq!(
        tls_request(&base, &c, "GET", "/api/status", &[], "").status,
        401
    );
    let r = tls_request(
        &base,
        &c,
        "POST",
        "/login",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        "token=admin-secret-tls",
    );
    assert_eq!(r.status, 303);
    let cookie = r.header("set-cookie").unwrap();
    for attr in ["HttpOnly", "SameSite=Strict", "Path=/", "Secure"] {
        assert!(
            cookie.split("; ").any(|a| a == attr),
            "{attr} not in {cookie}"
        );
    }
    let session = cookie.split(';').next().unwrap();
    let st = tls_request(&base, &c, "GET", "/api/status", &[("Cookie", session)], "");
    assert_eq!(st.status, 200, "{}", st.body);
    // HSTS under TLS: the browser never asks in plain text again.
    assert_eq!(
        st.header("strict-transport-security"),
        Some("max-age=31536000")
    );
    // No plain-text fallback on the TLS port.
    let plain = base.replace("https://", "");
    let mut s = TcpStream::connect(plain.trim_end_matches('/')).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(b"GET /api/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    assert!(!String::from_utf8_lossy(&raw).contains("coordinator_version"));
}
