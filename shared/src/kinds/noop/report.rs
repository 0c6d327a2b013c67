//! The report text of `noop` (outside the kind's version: display only).

use super::*;

/// The Markdown report of a document.
pub(super) fn report_md(params: &NoopParams, doc: &NoopDoc) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# noop sweep\n");
    let _ = writeln!(s, "- result bytes: {}", params.result_bytes);
    let _ = writeln!(s, "- shards merged: {}", doc.shards);
    let _ = writeln!(s, "- index sum: {}", doc.index_sum);
    let _ = writeln!(
        s,
        "- index sum = shards·(shards − 1)/2: {}",
        if doc.sum_matches { "yes" } else { "no" }
    );
    s
}
