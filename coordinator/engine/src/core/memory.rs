//! This process's memory, as Linux reports it in `/proc/self/status`.

/// Resident memory of this process, in bytes (0 where unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessMemory {
    /// Resident now (`VmRSS`).
    pub resident: u64,
    /// Peak resident (`VmHWM`).
    pub peak: u64,
}

impl ProcessMemory {
    /// Read it (zeros outside Linux).
    pub fn read() -> Self {
        std::fs::read_to_string("/proc/self/status")
            .map(|text| Self::parse(&text))
            .unwrap_or_default()
    }

    /// From the text of a `/proc/<pid>/status` file.
    fn parse(text: &str) -> Self {
        let field = |name: &str| -> u64 {
            text.lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .map_or(0, |kb| kb * 1024)
        };
        ProcessMemory {
            resident: field("VmRSS:"),
            peak: field("VmHWM:"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_proc_status_fields() {
        let text = "Name:\tgamesweep\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n";
        let m = ProcessMemory::parse(text);
        assert_eq!((m.resident, m.peak), (1 << 20, 2 << 20));
        assert_eq!(ProcessMemory::parse("garbage"), ProcessMemory::default());
    }
}
