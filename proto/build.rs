//! Generate the gRPC code from `proto/gamesweep.proto` without a system
//! `protoc`: `protox` (pure Rust) compiles the file to descriptors, and
//! tonic-prost-build generates the messages, client and server from them.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/gamesweep.proto");
    let fds = protox::compile(["gamesweep.proto"], ["proto"])?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(fds)?;
    Ok(())
}
