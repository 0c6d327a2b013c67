//! One module per command, each with its arguments and an `exec`. No command
//! module uses another: what several share lives in the layers below
//! (`args`, `connect`, `progress`, `report`, `status_text`, `embedded`).
pub mod audit;
pub mod cancel;
pub mod docs;
pub mod explore;
pub mod export;
pub mod extend;
pub mod graphs;
pub mod import;
pub mod key;
pub mod kinds;
pub mod launch;
pub mod pause;
pub mod project;
pub mod report;
pub mod run;
pub mod serve;
pub mod solve;
pub mod status;
pub mod store;
pub mod token;
pub mod verify;
pub mod worker;
