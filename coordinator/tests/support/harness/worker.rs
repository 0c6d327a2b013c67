//! Workers: `gamesweep worker` or `gamesweep-worker`, spawned or run until
//! the coordinator has nothing left.

use super::*;

/// How to start a worker: `gamesweep worker` (or the `gamesweep-worker`
/// binary) for the coordinator at a URL or in an address file.
pub struct Worker {
    bin: OsString,
    wrap: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    env_remove: Vec<OsString>,
    idle_grace: u32,
    limit: Duration,
    separate: bool,
    coordinator: (&'static str, OsString),
    id: Option<String>,
    threads: u32,
    token: Option<PathBuf>,
    extra: Vec<OsString>,
    log: Option<PathBuf>,
}

impl Worker {
    /// Two threads, no id (the worker picks one), no token.
    pub fn new(url: &str) -> Worker {
        Worker {
            bin: BIN.into(),
            wrap: Vec::new(),
            env: Vec::new(),
            env_remove: Vec::new(),
            idle_grace: 5,
            limit: secs(120),
            separate: false,
            coordinator: ("--coordinator", url.into()),
            id: None,
            threads: 2,
            token: None,
            extra: Vec::new(),
            log: None,
        }
    }

    /// A worker that reads the coordinator's URL from `file`.
    pub fn from_file(file: &Path) -> Worker {
        let mut w = Worker::new("");
        w.coordinator = ("--coordinator-file", file.into());
        w
    }

    /// Run another build of `gamesweep`.
    pub fn bin(mut self, bin: impl AsRef<OsStr>) -> Worker {
        self.bin = bin.as_ref().to_owned();
        self
    }

    /// Run it through `program` (see [`Gs::wrap`]).
    pub fn wrap<S: AsRef<OsStr>>(mut self, program: &[S]) -> Worker {
        self.wrap = program.iter().map(|s| s.as_ref().to_owned()).collect();
        self
    }

    /// Set an environment variable.
    pub fn env(mut self, k: impl AsRef<OsStr>, v: impl AsRef<OsStr>) -> Worker {
        self.env
            .push((k.as_ref().to_owned(), v.as_ref().to_owned()));
        self
    }

    /// Remove an environment variable.
    pub fn env_remove(mut self, k: impl AsRef<OsStr>) -> Worker {
        self.env_remove.push(k.as_ref().to_owned());
        self
    }

    /// [`Worker::until_idle`]'s `--idle-grace` (default 5 s).
    pub fn idle_grace(mut self, secs: u32) -> Worker {
        self.idle_grace = secs;
        self
    }

    /// [`Worker::until_idle`] fails after `limit` (default 120 s).
    pub fn limit(mut self, limit: Duration) -> Worker {
        self.limit = limit;
        self
    }

    /// Run the separate `gamesweep-worker` binary.
    pub fn separate_binary(mut self) -> Worker {
        self.separate = true;
        self
    }

    pub fn id(mut self, id: &str) -> Worker {
        self.id = Some(id.to_string());
        self
    }

    pub fn threads(mut self, n: u32) -> Worker {
        self.threads = n;
        self
    }

    /// `--token-file FILE`.
    pub fn token(mut self, file: &Path) -> Worker {
        self.token = Some(file.to_owned());
        self
    }

    pub fn arg(mut self, a: impl AsRef<OsStr>) -> Worker {
        self.extra.push(a.as_ref().to_owned());
        self
    }

    pub fn args<S: AsRef<OsStr>>(mut self, a: &[S]) -> Worker {
        self.extra.extend(a.iter().map(|s| s.as_ref().to_owned()));
        self
    }

    /// Its stderr goes to `log` (default: discarded).
    pub fn log(mut self, log: &Path) -> Worker {
        self.log = Some(log.to_owned());
        self
    }

    fn command(&self) -> Command {
        let mut line = self.wrap.clone();
        if self.separate {
            line.push(WORKER_BIN.into());
        } else {
            line.push(self.bin.clone());
            line.push("worker".into());
        }
        let mut cmd = isolated(Command::new(&line[0]));
        cmd.args(&line[1..]);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        for k in &self.env_remove {
            cmd.env_remove(k);
        }
        cmd.arg(self.coordinator.0).arg(&self.coordinator.1);
        if let Some(id) = &self.id {
            cmd.args(["--id", id]);
        }
        cmd.args(["--threads", &self.threads.to_string()]);
        if let Some(t) = &self.token {
            cmd.arg("--token-file").arg(t);
        }
        cmd.args(&self.extra);
        cmd.stdout(Stdio::null());
        match &self.log {
            Some(l) => cmd.stderr(std::fs::File::create(l).unwrap()),
            None => cmd.stderr(Stdio::null()),
        };
        cmd
    }

    /// Start it: killed when the returned process is dropped.
    pub fn spawn(self) -> Proc {
        Proc(self.command().spawn().unwrap())
    }

    /// Run it with `--exit-when-idle --idle-grace 5` until the coordinator
    /// has nothing left; it must exit cleanly within 120 s.
    pub fn until_idle(self) {
        let log = self.log.clone();
        let limit = self.limit;
        let grace = self.idle_grace.to_string();
        let mut w = Proc(
            self.args(&["--exit-when-idle", "--idle-grace", &grace])
                .command()
                .spawn()
                .unwrap(),
        );
        let read = || {
            log.as_ref()
                .map(|l| std::fs::read_to_string(l).unwrap_or_default())
                .unwrap_or_default()
        };
        let t0 = Instant::now();
        loop {
            if let Some(st) = w.0.try_wait().unwrap() {
                assert!(st.success(), "worker: {}", read());
                return;
            }
            assert!(t0.elapsed() < limit, "worker did not finish: {}", read());
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A two-thread worker (with `token`, if given) that exits once the
/// coordinator at `url` has nothing left; it must exit cleanly within 120 s.
pub fn work_until_idle(url: &str, token: Option<&Path>, log: &Path) {
    let w = Worker::new(url).log(log);
    match token {
        Some(t) => w.token(t),
        None => w,
    }
    .until_idle()
}
