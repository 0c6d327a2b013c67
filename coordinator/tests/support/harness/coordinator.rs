//! `gamesweep serve`: how to start it ([`Serve`]) and the running process
//! ([`Coordinator`]).

use super::*;

/// How to start `gamesweep serve`: [`Serve::start`] waits (20 s at most)
/// until it has written its URL to its address file.
pub struct Serve {
    bin: OsString,
    store: PathBuf,
    host: String,
    port: u16,
    extra: Vec<OsString>,
    log: Option<PathBuf>,
    address_file: Option<PathBuf>,
    home: Option<PathBuf>,
    env: Vec<(OsString, OsString)>,
    env_remove: Vec<OsString>,
    sh_prefix: Option<String>,
    wrap: Vec<OsString>,
    term_on_drop: bool,
    http_face: bool,
    limit: Duration,
}

impl Serve {
    /// `gamesweep serve --store STORE --listen 127.0.0.1:0`.
    pub fn new(store: &Path) -> Serve {
        Serve {
            bin: BIN.into(),
            store: store.to_owned(),
            host: "127.0.0.1".into(),
            port: 0,
            extra: Vec::new(),
            log: None,
            address_file: None,
            home: None,
            env: Vec::new(),
            env_remove: Vec::new(),
            sh_prefix: None,
            wrap: Vec::new(),
            term_on_drop: false,
            http_face: false,
            limit: secs(20),
        }
    }

    /// Listen on 127.0.0.1:`port` (0: a free port the coordinator chooses,
    /// so no other process can take it in between).
    pub fn port(mut self, port: u16) -> Serve {
        self.port = port;
        self
    }

    /// Listen on `host` (an address: `0.0.0.0` for every one) instead of
    /// 127.0.0.1.
    pub fn listen_on(mut self, host: &str) -> Serve {
        self.host = host.to_string();
        self
    }

    /// One more `serve` option or value.
    pub fn arg(mut self, a: impl AsRef<OsStr>) -> Serve {
        self.extra.push(a.as_ref().to_owned());
        self
    }

    /// More `serve` options.
    pub fn args<S: AsRef<OsStr>>(mut self, a: &[S]) -> Serve {
        self.extra.extend(a.iter().map(|s| s.as_ref().to_owned()));
        self
    }

    /// `--token-file FILE` (the admin token).
    pub fn token_file(self, file: &Path) -> Serve {
        self.arg("--token-file").arg(file)
    }

    /// The HTTP face (dashboard, metrics) on 127.0.0.1:0 too: `--http
    /// 127.0.0.1:0 --http-address-file LOG.http`; [`Serve::start`] also
    /// waits for its address ([`Coordinator::http`]).
    pub fn http_face(mut self) -> Serve {
        self.http_face = true;
        self
    }

    /// Its stderr goes to `log` (default: the store's path with `.log`).
    pub fn log(mut self, log: &Path) -> Serve {
        self.log = Some(log.to_owned());
        self
    }

    /// Its URL goes to `file` (default: the log's path with `.url`).
    pub fn address_file(mut self, file: &Path) -> Serve {
        self.address_file = Some(file.to_owned());
        self
    }

    /// HOME for the coordinator (by default one that does not exist).
    pub fn home(mut self, home: &Path) -> Serve {
        self.home = Some(home.to_owned());
        self
    }

    /// Set an environment variable.
    pub fn env(mut self, k: impl AsRef<OsStr>, v: impl AsRef<OsStr>) -> Serve {
        self.env
            .push((k.as_ref().to_owned(), v.as_ref().to_owned()));
        self
    }

    /// Remove an environment variable.
    pub fn env_remove(mut self, k: impl AsRef<OsStr>) -> Serve {
        self.env_remove.push(k.as_ref().to_owned());
        self
    }

    /// Run another build of `gamesweep`.
    pub fn bin(mut self, bin: impl AsRef<OsStr>) -> Serve {
        self.bin = bin.as_ref().to_owned();
        self
    }

    /// Start it through `sh -c 'PREFIX && exec gamesweep serve ...'`
    /// (limits set with `ulimit`, a tmpfs mounted, say); the shell's PID is
    /// the coordinator's.
    pub fn sh_prefix(mut self, prefix: &str) -> Serve {
        self.sh_prefix = Some(prefix.to_string());
        self
    }

    /// Start it through `program` (e.g. `unshare --mount --`, which execs
    /// what follows: the PID stays the coordinator's).
    pub fn wrap<S: AsRef<OsStr>>(mut self, program: &[S]) -> Serve {
        self.wrap = program.iter().map(|s| s.as_ref().to_owned()).collect();
        self
    }

    /// On drop, stop it as an operator does (SIGTERM, then SIGKILL after
    /// 20 s) rather than with SIGKILL.
    pub fn term_on_drop(mut self) -> Serve {
        self.term_on_drop = true;
        self
    }

    /// Wait at most `limit` for it to come up.
    pub fn limit(mut self, limit: Duration) -> Serve {
        self.limit = limit;
        self
    }

    /// Start it: the running coordinator. Fails the test if it exits or
    /// does not come up in time.
    pub fn start(self) -> Coordinator {
        self.try_start()
            .unwrap_or_else(|log| panic!("coordinator exited: {log}"))
    }

    /// Start it: the running coordinator, or its stderr if it exited
    /// first (it refused to start).
    pub fn try_start(self) -> Result<Coordinator, String> {
        let limit = self.limit;
        let (mut c, http_file) = self.launch();
        let address = c.address_file.clone();
        let deadline = Instant::now() + limit;
        let written = |f: &Path| {
            std::fs::read_to_string(f)
                .ok()
                .filter(|u| u.ends_with('\n'))
                .map(|u| u.trim().to_string())
        };
        loop {
            if let Some(url) = written(&address) {
                match &http_file {
                    None => {
                        c.url = url;
                        return Ok(c);
                    }
                    Some(f) => {
                        if let Some(http) = written(f) {
                            c.url = url;
                            c.http = Some(http);
                            return Ok(c);
                        }
                    }
                }
            }
            if c.proc_mut().0.try_wait().unwrap().is_some() {
                return Err(c.log_text());
            }
            assert!(
                Instant::now() < deadline,
                "coordinator did not come up: {}",
                c.log_text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Start it and return at once, without waiting for it to serve (to
    /// kill it while it starts): its process.
    pub fn spawn(self) -> Proc {
        self.launch().0.into_parts().0
    }

    /// Start the process; the coordinator (no URL yet) and the HTTP face's
    /// address file.
    fn launch(self) -> (Coordinator, Option<PathBuf>) {
        let log = self
            .log
            .clone()
            .unwrap_or_else(|| self.store.with_extension("log"));
        let address = self
            .address_file
            .clone()
            .unwrap_or_else(|| log.with_extension("url"));
        let _ = std::fs::remove_file(&address);
        let http_file = self.http_face.then(|| {
            let f = log.with_extension("http");
            let _ = std::fs::remove_file(&f);
            f
        });
        let mut args: Vec<OsString> = vec!["serve".into(), "--listen".into()];
        args.push(format!("{}:{}", self.host, self.port).into());
        args.push("--store".into());
        args.push(self.store.clone().into());
        args.push("--address-file".into());
        args.push(address.clone().into());
        if let Some(f) = &http_file {
            args.push("--http".into());
            args.push("127.0.0.1:0".into());
            args.push("--http-address-file".into());
            args.push(f.clone().into());
        }
        args.extend(self.extra.iter().cloned());
        let mut line: Vec<OsString> = self.wrap.clone();
        if let Some(p) = &self.sh_prefix {
            line.extend(["sh".into(), "-c".into()]);
            line.push(format!("{p} && exec \"$0\" \"$@\"").into());
        }
        line.push(self.bin.clone());
        line.extend(args);
        let mut cmd = isolated(Command::new(&line[0]));
        cmd.args(&line[1..]);
        if let Some(h) = &self.home {
            cmd.env("HOME", h);
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        for k in &self.env_remove {
            cmd.env_remove(k);
        }
        let child = cmd
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let c = Coordinator {
            proc: Some(Proc(child)),
            url: String::new(),
            http: None,
            log,
            address_file: address,
            term_on_drop: self.term_on_drop,
        };
        (c, http_file)
    }
}

/// A running `gamesweep serve`: killed on drop (SIGKILL, or SIGTERM with
/// [`Serve::term_on_drop`]).
pub struct Coordinator {
    proc: Option<Proc>,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The HTTP face's base URL, with [`Serve::http_face`].
    pub http: Option<String>,
    /// Its stderr.
    pub log: PathBuf,
    /// Where it wrote its URL.
    pub address_file: PathBuf,
    term_on_drop: bool,
}

impl Coordinator {
    /// Client commands to it, without a token.
    pub fn client(&self) -> Client {
        Client::new(&self.url)
    }

    /// `gamesweep args --coordinator URL`: its output.
    pub fn gs(&self, args: &[&str]) -> Output {
        self.client().gs(args)
    }

    /// `gamesweep args --coordinator URL`: its stdout (it must succeed).
    pub fn ok(&self, args: &[&str]) -> String {
        self.client().ok(args)
    }

    /// `gamesweep args --coordinator URL`: its stderr (it must fail).
    pub fn fails(&self, args: &[&str]) -> String {
        self.client().fails(args)
    }

    /// The sweep `id`'s status JSON (see [`Client::status`]).
    pub fn status(&self, id: &str) -> serde_json::Value {
        self.client().status(id)
    }

    /// Wait (at most `limit`) until sweep `id` is done; its status JSON.
    pub fn wait_done(&self, id: &str, limit: Duration) -> serde_json::Value {
        self.client().wait_done(id, limit)
    }

    /// A worker of this coordinator, to configure and start.
    pub fn worker(&self) -> Worker {
        Worker::new(&self.url)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        port_of(&self.url)
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.proc.as_ref().unwrap().0.id()
    }

    /// Its process.
    pub fn proc_mut(&mut self) -> &mut Proc {
        self.proc.as_mut().unwrap()
    }

    /// What it has written to stderr so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGKILL it now.
    pub fn kill9(&mut self) {
        self.proc_mut().kill9();
    }

    /// Stop it as an operator does (SIGTERM, SIGKILL after 20 s), wait for
    /// it; its log.
    pub fn stop(mut self) -> String {
        self.halt();
        self.log_text()
    }

    fn halt(&mut self) {
        let Some(proc) = self.proc.as_mut() else {
            return;
        };
        let child = &mut proc.0;
        if child.try_wait().unwrap().is_none() {
            // Only the process we started, by its PID.
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let t0 = Instant::now();
            while child.try_wait().unwrap().is_none() {
                if t0.elapsed() > secs(20) {
                    let _ = child.kill();
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

impl Drop for Coordinator {
    fn drop(&mut self) {
        if self.term_on_drop {
            self.halt();
        }
        // Otherwise `Proc` kills it.
    }
}

/// The port of a `http://127.0.0.1:PORT` URL.
pub fn port_of(url: &str) -> u16 {
    url.rsplit(':').next().unwrap().parse().unwrap()
}

impl Coordinator {
    /// Its process (killed on drop) and URL.
    pub fn into_parts(mut self) -> (Proc, String) {
        self.term_on_drop = false;
        (self.proc.take().unwrap(), std::mem::take(&mut self.url))
    }
}
