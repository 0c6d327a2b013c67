//! gRPC protocol crate: filled in by the distributed-runtime work.
