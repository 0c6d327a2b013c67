//! Shared by the process-level tests (`runtime`, `health`, `netns`, `slurm`):
//! a child process that is killed on drop, and the failure of a test whose
//! system component (Slurm, network namespaces, nauty) cannot start here.
#![allow(dead_code)] // each test file uses what it needs

use std::net::TcpListener;
use std::process::Child;

/// Kills the child (by its PID) on drop, so a failing test leaves no process
/// behind. (Under `ip netns exec` the program is exec'd, so the child's PID
/// is the program's.)
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Proc {
    /// SIGKILL the child now and reap it.
    pub fn kill9(&mut self) {
        self.0.kill().unwrap(); // SIGKILL on Unix
        self.0.wait().unwrap();
    }
}

/// `test`, which needs `component`, cannot run here because of `why`: fail,
/// saying so. Such tests are `#[ignore = "needs COMPONENT"]`, so a plain
/// `cargo test` leaves them out; one that runs (`-- --include-ignored`, as
/// `.ci/run` does) never passes without its component.
pub fn missing(test: &str, component: &str, why: &str) -> ! {
    panic!(
        "{test} needs {component} and cannot run here: {why} \
         (run the tests that need it only where it is installed: see the README)"
    )
}

/// A loopback port nothing listened on a moment ago (for "nothing answers
/// here" cases, or a server started with a fixed port).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
