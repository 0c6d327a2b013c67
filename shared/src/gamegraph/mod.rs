//! Explicit game graphs (course notes): outcome labelling, Grundy numbers, sums, kernels, minimax, subtraction games.
