//! Combinatorial game theory engine: short partizan games in canonical form.
