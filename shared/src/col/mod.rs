//! Col and Myopic Col: rules model, reduced positions, component values.
