//! Client commands against a running coordinator: `--coordinator URL`
//! (and a token) added to each, status, and bounded waits.

use super::*;

/// Client commands to the coordinator at `url`: each gets `--coordinator
/// URL` (and `--token-file`, if given) after its own arguments.
#[derive(Clone)]
pub struct Client {
    pub url: String,
    token: Option<PathBuf>,
    limit: Duration,
    wrap: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    env_remove: Vec<OsString>,
}

impl Client {
    pub fn new(url: &str) -> Client {
        Client {
            url: url.to_string(),
            token: None,
            limit: secs(120),
            wrap: Vec::new(),
            env: Vec::new(),
            env_remove: Vec::new(),
        }
    }

    /// Send the token in `file` with every command.
    pub fn token(mut self, file: &Path) -> Client {
        self.token = Some(file.to_owned());
        self
    }

    /// Kill a command (and fail) if it runs longer than `limit`.
    pub fn limit(mut self, limit: Duration) -> Client {
        self.limit = limit;
        self
    }

    /// Run each command through `program` (see [`Gs::wrap`]).
    pub fn wrap<S: AsRef<OsStr>>(mut self, program: &[S]) -> Client {
        self.wrap = program.iter().map(|s| s.as_ref().to_owned()).collect();
        self
    }

    /// Set an environment variable for each command.
    pub fn env(mut self, k: impl AsRef<OsStr>, v: impl AsRef<OsStr>) -> Client {
        self.env
            .push((k.as_ref().to_owned(), v.as_ref().to_owned()));
        self
    }

    /// Remove an environment variable for each command.
    pub fn env_remove(mut self, k: impl AsRef<OsStr>) -> Client {
        self.env_remove.push(k.as_ref().to_owned());
        self
    }

    /// `gamesweep args --coordinator URL [--token-file T]`, not yet run.
    pub fn cmd(&self, args: &[&str]) -> Gs {
        let mut all: Vec<OsString> = args.iter().map(OsString::from).collect();
        all.push("--coordinator".into());
        all.push(self.url.clone().into());
        if let Some(t) = &self.token {
            all.push("--token-file".into());
            all.push(t.clone().into());
        }
        let mut gs = Gs::new(&all).limit(self.limit).wrap(&self.wrap);
        for (k, v) in &self.env {
            gs = gs.env(k, v);
        }
        for k in &self.env_remove {
            gs = gs.env_remove(k);
        }
        gs
    }

    pub fn gs(&self, args: &[&str]) -> Output {
        self.cmd(args).output()
    }

    pub fn ok(&self, args: &[&str]) -> String {
        self.cmd(args).ok()
    }

    pub fn fails(&self, args: &[&str]) -> String {
        self.cmd(args).fails()
    }

    /// `status --json`, the whole report.
    pub fn status_all(&self) -> serde_json::Value {
        serde_json::from_str(&self.ok(&["status", "--json"])).unwrap()
    }

    /// `status ID --json`'s one sweep, or None if the command fails (the
    /// coordinator does not answer) or prints no JSON.
    pub fn try_status(&self, id: &str) -> Option<serde_json::Value> {
        let o = self.gs(&["status", id, "--json"]);
        if !o.status.success() {
            return None;
        }
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).ok()?;
        Some(v["sweeps"][0].clone())
    }

    /// `status ID --json`, the whole report, as it is.
    pub fn status_whole(&self, id: &str) -> serde_json::Value {
        serde_json::from_str(&self.ok(&["status", id, "--json"])).unwrap()
    }

    /// `status ID --json`: the report (it parses as the documented domain
    /// type, with exactly this sweep, in one of the documented states) and
    /// the sweep as JSON.
    pub fn status_report(&self, id: &str) -> (gamesweep_api::domain::Overview, serde_json::Value) {
        let out = self.ok(&["status", id, "--json"]);
        let typed: gamesweep_api::domain::Overview = serde_json::from_str(&out).unwrap();
        assert_eq!(typed.sweeps.len(), 1, "{out}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["sweeps"][0]["state"], typed.sweeps[0].state.as_str());
        (typed, v["sweeps"][0].clone())
    }

    /// `status ID --json`'s one sweep, as JSON (checked as in
    /// [`Client::status_report`]).
    pub fn status(&self, id: &str) -> serde_json::Value {
        self.status_report(id).1
    }

    /// Poll [`Client::status`] every 100 ms until the sweep is done; fail
    /// after `limit`.
    pub fn wait_done(&self, id: &str, limit: Duration) -> serde_json::Value {
        self.wait_for(id, limit, "done", |s| s["state"] == "done")
    }

    /// Poll [`Client::status`] every 100 ms until `ready` holds; fail
    /// after `limit`, saying the sweep never became `what`.
    pub fn wait_for(
        &self,
        id: &str,
        limit: Duration,
        what: &str,
        ready: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let deadline = Instant::now() + limit;
        loop {
            let s = self.status(id);
            if ready(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "sweep {id} not {what} after {limit:?}: {s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A worker of this coordinator (with this client's token).
    pub fn worker(&self) -> Worker {
        let w = Worker::new(&self.url);
        match &self.token {
            Some(t) => w.token(t),
            None => w,
        }
    }
}
