//! Game files: reading one within the size limit, solving its text.

use crate::error::UsageError;

/// The largest game file `solve gamegraph` reads, in bytes.
pub const MAX_GAME_FILE_BYTES: u64 = 64 << 20;

/// The text of `file` (`-`: standard input), at most
/// [`MAX_GAME_FILE_BYTES`] of it: a larger file (or `/dev/zero`) is an error
/// rather than memory growing without end.
pub fn read_game_file(file: &std::path::Path) -> Result<String, UsageError> {
    use std::io::Read as _;
    let name = file.display();
    let source: Box<dyn std::io::Read> = if file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(
            std::fs::File::open(file)
                .map_err(|e| UsageError(format!("cannot read {name}: {e}")))?,
        )
    };
    let mut bytes = Vec::new();
    source
        .take(MAX_GAME_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| UsageError(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > MAX_GAME_FILE_BYTES {
        return Err(UsageError(format!(
            "{name}: game file larger than {MAX_GAME_FILE_BYTES} bytes (64 MiB)"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        UsageError(format!(
            "{name}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// `--budget` of `solve gamegraph` as the kernel search takes it: 0 is
/// unlimited, none is the default.
pub fn kernel_branches(budget: Option<u64>) -> Option<u64> {
    budget.map(|b| if b == 0 { u64::MAX } else { b })
}
