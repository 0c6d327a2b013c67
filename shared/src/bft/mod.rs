//! Burke–Ferland–Teng checks: directed geography, the reduction gadgets, trees t(k).
