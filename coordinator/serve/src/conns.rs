//! The coordinator's accepted connections, kept within bounds so that idle
//! or abandoned TCP connections cannot use up its file descriptors and lock
//! out real clients:
//!
//! - a connection that sends nothing is closed: after [`FIRST_BYTE_LIMIT`]
//!   if it never sent a byte, after [`IDLE_LIMIT`] of silence later (live
//!   clients answer the server's HTTP/2 keepalive pings, so they are never
//!   silent that long);
//! - at most a cap of connections are open (`serve --max-connections`,
//!   lowered to fit the process's file descriptor limit); a new connection
//!   over the cap closes the one that has been silent longest (one that
//!   never sent a byte first), so a client that talks always gets in.

use std::collections::BTreeMap;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tonic::transport::server::{Connected, TcpConnectInfo};

/// How long a new connection may stay silent before its first byte.
pub const FIRST_BYTE_LIMIT: Duration = Duration::from_secs(10);
/// How long a connection may stay silent after that.
pub const IDLE_LIMIT: Duration = Duration::from_secs(300);
/// File descriptors kept free beside connections (store, runtime, logs).
const FD_RESERVE: u64 = 64;
/// The smallest connection cap used, whatever the descriptor limit.
const MIN_CAP: usize = 8;

/// The connection cap for `wanted` given the process's open-file limit:
/// `wanted`, lowered to leave [`FD_RESERVE`] descriptors free.
pub fn effective_cap(wanted: usize) -> usize {
    let fd_limit = open_file_limit();
    let room = fd_limit.map_or(u64::MAX, |l| l.saturating_sub(FD_RESERVE));
    (wanted as u64).min(room).max(MIN_CAP as u64) as usize
}

/// The soft RLIMIT_NOFILE, if it can be read.
pub fn open_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct we pass and nothing else.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } == 0
            && r.rlim_cur != libc::RLIM_INFINITY
        {
            #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
            return Some(r.rlim_cur as u64);
        }
    }
    None
}

/// One open connection as the registry sees it.
struct Slot {
    /// When it was accepted.
    opened: Instant,
    /// Milliseconds after `opened` of the last byte read (0: none yet).
    last_read_ms: AtomicU64,
    /// Set to close it.
    evicted: AtomicBool,
    /// The task reading it, woken to close it.
    waker: Mutex<Option<Waker>>,
}

impl Slot {
    fn silent_since(&self) -> (bool, Instant) {
        let ms = self.last_read_ms.load(Ordering::Relaxed);
        (ms != 0, self.opened + Duration::from_millis(ms))
    }

    fn evict(&self) {
        self.evicted.store(true, Ordering::Relaxed);
        if let Some(w) = self.waker.lock().unwrap_or_else(|e| e.into_inner()).take() {
            w.wake();
        }
    }
}

/// The open connections.
#[derive(Default)]
struct Registry {
    next: AtomicU64,
    open: Mutex<BTreeMap<u64, Arc<Slot>>>,
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Arc<Slot>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Accepts connections on a listener within the bounds above.
pub struct Incoming {
    listener: TcpListener,
    cap: usize,
    /// How long a new connection may stay silent ([`FIRST_BYTE_LIMIT`]).
    first_byte_limit: Duration,
    registry: Arc<Registry>,
    /// After an accept error (e.g. out of descriptors): wait before the next.
    pause: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Incoming {
    /// Accept on `listener`, keeping at most `cap` connections open.
    pub fn new(listener: TcpListener, cap: usize) -> Self {
        Incoming {
            listener,
            cap,
            first_byte_limit: FIRST_BYTE_LIMIT,
            registry: Arc::default(),
            pause: None,
        }
    }

    /// Close the connection silent longest (one that never sent a byte
    /// before any other). Returns whether there was one.
    fn evict_one(&self) -> bool {
        let open = self.registry.lock();
        let victim = open
            .values()
            .filter(|s| !s.evicted.load(Ordering::Relaxed))
            .min_by_key(|s| s.silent_since());
        match victim {
            Some(s) => {
                s.evict();
                true
            }
            None => false,
        }
    }

    fn open_count(&self) -> usize {
        self.registry
            .lock()
            .values()
            .filter(|s| !s.evicted.load(Ordering::Relaxed))
            .count()
    }

    fn admit(&self, stream: TcpStream) -> Guarded {
        // No Nagle: a reply's trailing HEADERS frame must not wait for the
        // client's delayed ACK (about 40 ms per call). tonic's own
        // `tcp_nodelay`/`tcp_keepalive` settings do not apply to a custom
        // incoming stream like this one, so both are set here.
        let _ = stream.set_nodelay(true);
        // TCP keepalive as well as HTTP/2 pings: a peer that vanished
        // (powered off, cable pulled) is noticed by the kernel even on a
        // connection whose HTTP/2 layer is idle.
        let _ = socket2::SockRef::from(&stream).set_tcp_keepalive(&tcp_keepalive());
        if self.open_count() >= self.cap && self.evict_one() {
            tracing::warn!(
                cap = self.cap,
                "connection cap reached: closed the connection silent longest"
            );
        }
        let id = self.registry.next.fetch_add(1, Ordering::Relaxed);
        let slot = Arc::new(Slot {
            opened: Instant::now(),
            last_read_ms: AtomicU64::new(0),
            evicted: AtomicBool::new(false),
            waker: Mutex::new(None),
        });
        self.registry.lock().insert(id, slot.clone());
        Guarded {
            stream,
            id,
            slot,
            registry: self.registry.clone(),
            timer: Box::pin(tokio::time::sleep(self.first_byte_limit)),
        }
    }
}

impl tokio_stream::Stream for Incoming {
    type Item = io::Result<Guarded>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Some(p) = self.pause.as_mut() {
            if p.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            self.pause = None;
        }
        match self.listener.poll_accept(cx) {
            Poll::Ready(Ok((stream, _))) => Poll::Ready(Some(Ok(self.admit(stream)))),
            Poll::Ready(Err(e)) => {
                // Out of descriptors (or a connection reset before accept):
                // free one and do not spin.
                tracing::warn!(error = %e, "accept failed");
                self.evict_one();
                self.pause = Some(Box::pin(tokio::time::sleep(Duration::from_millis(50))));
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

use std::future::Future as _;

/// The TCP keepalive of accepted connections: first probe after 60 s idle,
/// then every 15 s.
fn tcp_keepalive() -> socket2::TcpKeepalive {
    socket2::TcpKeepalive::new()
        .with_time(std::time::Duration::from_secs(60))
        .with_interval(std::time::Duration::from_secs(15))
}

/// An accepted connection, closed when silent too long or evicted.
pub struct Guarded {
    stream: TcpStream,
    id: u64,
    slot: Arc<Slot>,
    registry: Arc<Registry>,
    timer: Pin<Box<tokio::time::Sleep>>,
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.registry.lock().remove(&self.id);
    }
}

impl Connected for Guarded {
    type ConnectInfo = TcpConnectInfo;
    fn connect_info(&self) -> TcpConnectInfo {
        self.stream.connect_info()
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.slot.evicted.load(Ordering::Relaxed) {
            return Poll::Ready(Err(io::Error::other(
                "connection closed: the coordinator's connection cap was reached",
            )));
        }
        *this.slot.waker.lock().unwrap_or_else(|e| e.into_inner()) = Some(cx.waker().clone());
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    let ms = this.slot.opened.elapsed().as_millis().max(1) as u64;
                    this.slot.last_read_ms.store(ms, Ordering::Relaxed);
                    let next = tokio::time::Instant::now() + IDLE_LIMIT;
                    this.timer.as_mut().reset(next);
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                if this.timer.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "connection closed: nothing received for too long",
                    )));
                }
                Poll::Pending
            }
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt as _;
    use tokio_stream::StreamExt as _;

    #[tokio::test]
    async fn over_the_cap_the_silent_connection_goes_first() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut incoming = Incoming::new(listener, 2);
        let _a = TcpStream::connect(addr).await.unwrap();
        let mut first = incoming.next().await.unwrap().unwrap();
        assert!(
            first.stream.nodelay().unwrap(),
            "replies must not wait for delayed ACKs"
        );
        let sock = socket2::SockRef::from(&first.stream);
        assert!(sock.keepalive().unwrap(), "TCP keepalive must be on");
        assert_eq!(
            sock.tcp_keepalive_time().unwrap(),
            std::time::Duration::from_secs(60)
        );
        let mut b = TcpStream::connect(addr).await.unwrap();
        let mut second = incoming.next().await.unwrap().unwrap();
        // The second one talks; the first stays silent.
        tokio::io::AsyncWriteExt::write_all(&mut b, b"x")
            .await
            .unwrap();
        let mut one = [0u8; 1];
        second.read_exact(&mut one).await.unwrap();
        let _c = TcpStream::connect(addr).await.unwrap();
        let _third = incoming.next().await.unwrap().unwrap();
        let err = first.read(&mut one).await.unwrap_err();
        assert!(err.to_string().contains("connection cap"), "{err}");
        assert!(!second.slot.evicted.load(Ordering::Relaxed));
        drop(first);
        assert_eq!(incoming.open_count(), 2);
    }

    #[tokio::test]
    async fn a_silent_connection_is_closed() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut incoming = Incoming::new(listener, 10);
        incoming.first_byte_limit = Duration::from_millis(300);
        let _a = TcpStream::connect(addr).await.unwrap();
        let mut conn = incoming.next().await.unwrap().unwrap();
        let t0 = tokio::time::Instant::now();
        let mut one = [0u8; 1];
        let err = conn.read(&mut one).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(t0.elapsed() >= Duration::from_millis(300));
    }

    #[test]
    fn the_cap_fits_the_descriptor_limit() {
        let limit = open_file_limit().expect("RLIMIT_NOFILE");
        let cap = effective_cap(usize::MAX);
        assert_eq!(
            cap as u64,
            limit.saturating_sub(FD_RESERVE).max(MIN_CAP as u64)
        );
        assert_eq!(effective_cap(3), MIN_CAP);
    }
}
