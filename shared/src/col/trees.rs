//! Rooted trees (OEIS A000081) and unordered binary trees (0–2 children,
//! OEIS A001190), generated once each as sorted multisets of subtrees.
//!
//! Trees of `n` nodes get ids in generation order; a tree is its list of child
//! tree ids in non-increasing order, so every isomorphism class appears once.
//! [`RootedTree::parents`] flattens a tree in preorder: node 0 is the root and
//! arcs go parent → child (Myopic Col's orientation: a node looks at its children).

/// All rooted trees with at most `max_nodes` nodes whose nodes have at most
/// `max_children` children (`usize::MAX` = any).
#[derive(Clone, Debug)]
pub struct TreeCatalogue {
    /// `size[id]`: node count of tree `id`.
    size: Vec<usize>,
    /// `kids[id]`: child tree ids, non-increasing.
    kids: Vec<Vec<usize>>,
    /// `by_size[n]`: ids of the trees with `n` nodes, in generation order.
    by_size: Vec<Vec<usize>>,
}

/// One tree flattened in preorder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootedTree {
    /// `parents[v]` for `v >= 1` (`parents[0]` is unused, 0).
    pub parents: Vec<usize>,
}

impl RootedTree {
    /// Node count.
    pub fn n(&self) -> usize {
        self.parents.len()
    }
    /// Arcs parent → child.
    pub fn arcs(&self) -> Vec<(usize, usize)> {
        (1..self.n()).map(|v| (self.parents[v], v)).collect()
    }
    /// Children of `v`, in preorder.
    pub fn children(&self, v: usize) -> Vec<usize> {
        (1..self.n()).filter(|&w| self.parents[w] == v).collect()
    }
    /// digraph6 of the out-tree (the code used in records).
    pub fn digraph6(&self) -> String {
        let arcs = self.arcs();
        crate::graph::graph6::encode_digraph_with(self.n(), |i, j| arcs.contains(&(i, j)))
    }
}

impl TreeCatalogue {
    /// Generate every tree up to `max_nodes` nodes.
    pub fn new(max_nodes: usize, max_children: usize) -> Self {
        let mut cat = TreeCatalogue {
            size: Vec::new(),
            kids: Vec::new(),
            by_size: vec![Vec::new(); max_nodes + 1],
        };
        for n in 1..=max_nodes {
            let mut lists = Vec::new();
            let mut cur = Vec::new();
            cat.child_lists(n - 1, usize::MAX, max_children, &mut cur, &mut lists);
            for kids in lists {
                let id = cat.size.len();
                cat.size.push(n);
                cat.kids.push(kids);
                cat.by_size[n].push(id);
            }
        }
        cat
    }

    /// Non-increasing lists of existing tree ids (each `<= max_id`) of total size `remaining`.
    fn child_lists(
        &self,
        remaining: usize,
        max_id: usize,
        slots: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if remaining == 0 {
            out.push(cur.clone());
            return;
        }
        if slots == 0 {
            return;
        }
        let hi = max_id.min(self.size.len().saturating_sub(1));
        if self.size.is_empty() {
            return;
        }
        for id in (0..=hi).rev() {
            if self.size[id] <= remaining {
                cur.push(id);
                self.child_lists(remaining - self.size[id], id, slots - 1, cur, out);
                cur.pop();
            }
        }
    }

    /// Number of trees with `n` nodes.
    pub fn count(&self, n: usize) -> usize {
        self.by_size.get(n).map_or(0, |v| v.len())
    }

    /// The `i`-th tree with `n` nodes, flattened.
    pub fn tree(&self, n: usize, i: usize) -> RootedTree {
        let id = self.by_size[n][i];
        let mut parents = vec![0usize];
        self.flatten(id, 0, &mut parents);
        RootedTree { parents }
    }

    fn flatten(&self, id: usize, me: usize, parents: &mut Vec<usize>) {
        for &k in &self.kids[id] {
            let v = parents.len();
            parents.push(me);
            self.flatten(k, v, parents);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_oeis() {
        let rooted = TreeCatalogue::new(10, usize::MAX);
        let a000081 = [1, 1, 2, 4, 9, 20, 48, 115, 286, 719];
        for (i, &c) in a000081.iter().enumerate() {
            assert_eq!(rooted.count(i + 1), c, "A000081({})", i + 1);
        }
        let binary = TreeCatalogue::new(11, 2);
        let a001190 = [1, 1, 2, 3, 6, 11, 23, 46, 98, 207, 451];
        for (i, &c) in a001190.iter().enumerate() {
            assert_eq!(binary.count(i + 1), c, "binary trees of {} nodes", i + 1);
        }
        let t = binary.tree(3, 0);
        assert_eq!(t.n(), 3);
        assert!(binary.tree(11, 450).children(0).len() <= 2);
    }
}
