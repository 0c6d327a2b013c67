//! Undirected vertex geography (UVG): exact Grundy values, matching winner, degree-3 algorithm.
