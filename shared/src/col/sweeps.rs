//! Sweep kinds over Col and Myopic Col positions.
