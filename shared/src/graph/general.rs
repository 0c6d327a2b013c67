//! Adjacency-list graphs for large instances (hundreds of vertices).
