//! gamesweep worker: leases shards, runs them with the shared shard executor, submits results.
