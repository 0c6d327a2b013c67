//! An impaired point-to-point IP link between two network namespaces,
//! carried by the test process itself: delay and loss in userspace, for
//! kernels without `sch_netem`.
//!
//! Each end is a TUN device (`IFF_TUN | IFF_NO_PI`: the fd reads and writes
//! bare IP packets) made in its namespace by a short-lived thread that first
//! joins it with `setns` (namespace membership is per thread; the fd and the
//! device stay where they were made). The devices are not persistent: they
//! vanish when the link is dropped and their fds close. Per direction, a
//! reader thread `poll`s one fd, drops each packet with the loss probability
//! (a seeded xorshift: the same packets on every run with the same traffic)
//! and queues the rest with `deliver_at = now + delay`; a writer thread
//! writes them to the other fd at that time. A constant delay keeps the
//! order. Delay and loss can be changed while the link runs (0 / 0: a clean
//! link; loss 100 %: a cut). Every loop ends within [`TICK`] of `stop`.

use std::net::{TcpListener, TcpStream};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The links' MTU, set on both devices.
pub const MTU: usize = 1500;
/// Read buffer: an MTU-sized packet and headroom, so no read is truncated.
const BUF: usize = MTU + 512;
/// The longest any forwarder loop waits before looking at `stop`.
const TICK: Duration = Duration::from_millis(50);

/// One end of a link: namespace (as named by `ip netns`), device name, and
/// its IPv4 address (the peer's is the other end's).
pub struct End<'a> {
    pub ns: &'a str,
    pub dev: &'a str,
    pub addr: &'a str,
}

/// What the forwarder did, over both directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Packets written to the other end.
    pub forwarded: u64,
    /// Packets dropped on purpose (loss).
    pub dropped: u64,
    /// Packets whose write failed (e.g. the device was down).
    pub write_errors: u64,
}

impl std::ops::Sub for Counts {
    type Output = Counts;
    fn sub(self, o: Counts) -> Counts {
        Counts {
            forwarded: self.forwarded - o.forwarded,
            dropped: self.dropped - o.dropped,
            write_errors: self.write_errors - o.write_errors,
        }
    }
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts {
            forwarded: self.forwarded + o.forwarded,
            dropped: self.dropped + o.dropped,
            write_errors: self.write_errors + o.write_errors,
        }
    }
}

/// State shared by the link and its threads.
#[derive(Default)]
struct Shared {
    stop: AtomicBool,
    delay_us: AtomicU64,
    /// Loss probability in parts per million.
    loss_ppm: AtomicU32,
    forwarded: AtomicU64,
    dropped: AtomicU64,
    write_errors: AtomicU64,
}

/// A running link; stops its threads and removes its devices on drop.
pub struct TunLink {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl TunLink {
    /// Make the two devices, give them their addresses (`ADDR peer PEER`),
    /// MTU [`MTU`], bring them up, and forward between them, at first
    /// without delay or loss. `seed` seeds the loss decisions.
    pub fn new(a: End, b: End, seed: u64) -> Result<TunLink, String> {
        let fa = Arc::new(open_tun_in(a.ns, a.dev)?);
        let fb = Arc::new(open_tun_in(b.ns, b.dev)?);
        for (end, peer) in [(&a, &b), (&b, &a)] {
            let mtu = MTU.to_string();
            let ns = end.ns;
            ip(&[
                "-n", ns, "addr", "add", end.addr, "peer", peer.addr, "dev", end.dev,
            ])?;
            ip(&["-n", ns, "link", "set", end.dev, "mtu", &mtu, "up"])?;
        }
        let shared = Arc::new(Shared::default());
        let mut threads = Vec::new();
        for (i, (from, to)) in [(fa.clone(), fb.clone()), (fb, fa)].into_iter().enumerate() {
            let (tx, rx) = mpsc::channel();
            let s = shared.clone();
            // Distinct, non-zero seeds per direction.
            let rng = XorShift(seed.wrapping_mul(2).wrapping_add(i as u64) | 1 << 63);
            threads.push(std::thread::spawn(move || read_side(&from, tx, &s, rng)));
            let s = shared.clone();
            threads.push(std::thread::spawn(move || write_side(&to, rx, &s)));
        }
        Ok(TunLink { shared, threads })
    }

    /// Delay every packet by `delay` and drop it with probability
    /// `loss_percent` / 100, from now on (packets already queued keep theirs).
    pub fn impair(&self, delay: Duration, loss_percent: f64) {
        let ppm = (loss_percent.clamp(0.0, 100.0) * 10_000.0).round() as u32;
        self.shared
            .delay_us
            .store(delay.as_micros() as u64, Ordering::Relaxed);
        self.shared.loss_ppm.store(ppm, Ordering::Relaxed);
    }

    /// The counts so far.
    pub fn counts(&self) -> Counts {
        let s = &self.shared;
        Counts {
            forwarded: s.forwarded.load(Ordering::Relaxed),
            dropped: s.dropped.load(Ordering::Relaxed),
            write_errors: s.write_errors.load(Ordering::Relaxed),
        }
    }
}

impl Drop for TunLink {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        // The threads held the last references to the fds: closed now, and
        // with them the devices.
    }
}

/// Run `f` on a fresh thread that has joined network namespace `ns`
/// (`/var/run/netns/NS`); sockets and devices it makes stay in `ns`.
pub fn in_netns<T: Send + 'static>(
    ns: &str,
    f: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let path = format!("/var/run/netns/{ns}");
    std::thread::spawn(move || {
        let file = std::fs::File::open(&path).map_err(|e| format!("{path}: {e}"))?;
        // SAFETY: a valid namespace fd; only this thread changes namespace.
        if unsafe { libc::setns(file.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
            return Err(format!(
                "setns({path}): {}",
                std::io::Error::last_os_error()
            ));
        }
        f()
    })
    .join()
    .map_err(|_| "namespace thread panicked".to_string())?
}

/// A TUN device named `dev` in namespace `ns`, as an fd of bare IP packets.
fn open_tun_in(ns: &str, dev: &str) -> Result<OwnedFd, String> {
    if dev.len() >= libc::IFNAMSIZ {
        return Err(format!("device name {dev:?} too long"));
    }
    let name = dev.to_string();
    in_netns(ns, move || {
        // SAFETY: a NUL-terminated path; the result is checked.
        let fd = unsafe { libc::open(c"/dev/net/tun".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(format!("/dev/net/tun: {}", std::io::Error::last_os_error()));
        }
        // SAFETY: `fd` was just opened and is owned by nothing else.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: ifreq is plain data; all zeroes is a valid value.
        let mut req: libc::ifreq = unsafe { std::mem::zeroed() };
        for (d, s) in req.ifr_name.iter_mut().zip(name.bytes()) {
            *d = s as libc::c_char;
        }
        req.ifr_ifru.ifru_flags = (libc::IFF_TUN | libc::IFF_NO_PI) as libc::c_short;
        // SAFETY: TUNSETIFF takes a pointer to an ifreq, valid for the call.
        if unsafe { libc::ioctl(fd.as_raw_fd(), libc::TUNSETIFF, &mut req) } < 0 {
            return Err(format!(
                "TUNSETIFF {name}: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(fd)
    })
}

/// `ip ARGS…`; its stderr on failure.
fn ip(args: &[&str]) -> Result<(), String> {
    let o = std::process::Command::new("ip")
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("`ip` cannot run: {e}"))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`ip {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        ))
    }
}

/// Wait up to [`TICK`] for `fd` to be readable (about [`TICK`] too when
/// `poll` fails or reports only an error, so no caller loop spins).
fn readable(fd: RawFd) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    let n = unsafe { libc::poll(&mut p, 1, TICK.as_millis() as libc::c_int) };
    if n > 0 && p.revents & libc::POLLIN != 0 {
        return true;
    }
    if n != 0 {
        std::thread::sleep(TICK);
    }
    false
}

/// One direction's reader: read, maybe drop, timestamp, queue.
fn read_side(
    from: &OwnedFd,
    queue: mpsc::Sender<(Instant, Vec<u8>)>,
    s: &Shared,
    mut rng: XorShift,
) {
    let mut buf = vec![0u8; BUF];
    while !s.stop.load(Ordering::Relaxed) {
        if !readable(from.as_raw_fd()) {
            continue;
        }
        // SAFETY: `buf` is valid for `buf.len()` bytes.
        let n = unsafe { libc::read(from.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            std::thread::sleep(TICK);
            continue;
        }
        let loss = s.loss_ppm.load(Ordering::Relaxed);
        if loss > 0 && rng.next() % 1_000_000 < u64::from(loss) {
            s.dropped.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let at = Instant::now() + Duration::from_micros(s.delay_us.load(Ordering::Relaxed));
        if queue.send((at, buf[..n as usize].to_vec())).is_err() {
            return;
        }
    }
}

/// One direction's writer: deliver each queued packet at its time, in order.
fn write_side(to: &OwnedFd, queue: mpsc::Receiver<(Instant, Vec<u8>)>, s: &Shared) {
    loop {
        let (at, packet) = match queue.recv_timeout(TICK) {
            Ok(p) => p,
            Err(mpsc::RecvTimeoutError::Timeout) if !s.stop.load(Ordering::Relaxed) => continue,
            Err(_) => return,
        };
        loop {
            if s.stop.load(Ordering::Relaxed) {
                return;
            }
            let now = Instant::now();
            if now >= at {
                break;
            }
            std::thread::sleep((at - now).min(TICK));
        }
        // SAFETY: `packet` is valid for its length.
        let n = unsafe { libc::write(to.as_raw_fd(), packet.as_ptr().cast(), packet.len()) };
        if n == packet.len() as isize {
            s.forwarded.fetch_add(1, Ordering::Relaxed);
        } else {
            s.write_errors.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// xorshift64*: small, seeded, reproducible.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Time a TCP connect and a one-byte echo from `client_ns` to
/// `server_addr` (a `host:port` in `server_ns`): at least two round trips.
pub fn tcp_echo_time(
    server_ns: &str,
    client_ns: &str,
    server_addr: &str,
) -> Result<Duration, String> {
    let addr = server_addr.to_string();
    let listener = in_netns(server_ns, move || {
        TcpListener::bind(&addr).map_err(|e| format!("bind {addr}: {e}"))
    })?;
    let limit = Duration::from_secs(30);
    let server = std::thread::spawn(move || -> Result<(), String> {
        use std::io::{Read, Write};
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let deadline = Instant::now() + limit;
        let mut s = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() > deadline {
                        return Err("no connection".into());
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(e) => return Err(e.to_string()),
            }
        };
        s.set_nonblocking(false).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(limit)).map_err(|e| e.to_string())?;
        let mut b = [0u8; 1];
        s.read_exact(&mut b).map_err(|e| e.to_string())?;
        s.write_all(&b).map_err(|e| e.to_string())
    });
    let target: std::net::SocketAddr = server_addr.parse().map_err(|e| format!("{e}"))?;
    let took = in_netns(client_ns, move || {
        use std::io::{Read, Write};
        let t = Instant::now();
        let mut c = TcpStream::connect_timeout(&target, limit).map_err(|e| e.to_string())?;
        c.set_read_timeout(Some(limit)).map_err(|e| e.to_string())?;
        c.write_all(b"x").map_err(|e| e.to_string())?;
        let mut b = [0u8; 1];
        c.read_exact(&mut b).map_err(|e| e.to_string())?;
        Ok(t.elapsed())
    });
    let served = server
        .join()
        .map_err(|_| "echo server panicked".to_string())?;
    let took = took?;
    served?;
    Ok(took)
}
