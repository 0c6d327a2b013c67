//! STUB
#![allow(missing_docs, unused)]
pub struct GeneralGraph;
impl GeneralGraph {
    pub fn from_edges(n: usize, e: &[(usize, usize)]) -> Self {
        todo!()
    }
}
