//! Generate the gRPC code from `proto/gamesweep.proto` without a system
//! `protoc`: `protox` (pure Rust) compiles the file to descriptors, and
//! tonic-prost-build generates the messages, client and server from them.
//! The same descriptors give `methods.rs`: the gRPC path of every method of
//! every service ([`crate::METHODS`]), which the coordinator's access layer
//! is tested against (one rule per method, none without).
use std::fmt::Write as _;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/gamesweep.proto");
    let fds = protox::compile(["gamesweep.proto"], ["proto"])?;
    let mut methods = String::from("&[\n");
    for file in &fds.file {
        for service in &file.service {
            let full = match file.package() {
                "" => service.name().to_string(),
                p => format!("{p}.{}", service.name()),
            };
            for method in &service.method {
                writeln!(methods, "    \"/{full}/{}\",", method.name())?;
            }
        }
    }
    methods.push_str("]\n");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out.join("methods.rs"), methods)?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(fds)?;
    Ok(())
}
