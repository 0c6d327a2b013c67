//! Dyadic rationals `num / 2^exp`, the values of short numbers.

use std::cmp::Ordering;
use std::fmt;

/// A dyadic rational `num / 2^exp`, always normalised (`num` odd or `exp == 0`),
/// so equal values have equal representations and derived `Eq`/`Hash` are exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    num: i64,
    exp: u32,
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };

    /// `num / 2^exp`, normalised. `exp` must be below 62 (short games never get close).
    pub fn new(num: i64, exp: u32) -> Self {
        debug_assert!(exp < 62);
        let mut d = Dyadic { num, exp };
        d.normalise();
        d
    }

    /// The integer `n`.
    pub const fn int(n: i64) -> Self {
        Dyadic { num: n, exp: 0 }
    }

    fn normalise(&mut self) {
        if self.num == 0 {
            self.exp = 0;
            return;
        }
        let tz = self.num.trailing_zeros().min(self.exp);
        self.num >>= tz;
        self.exp -= tz;
    }

    /// Numerator of the normalised fraction.
    pub fn numerator(self) -> i64 {
        self.num
    }

    /// Exponent `k` of the denominator `2^k`.
    pub fn exponent(self) -> u32 {
        self.exp
    }

    /// Denominator `2^exp`.
    pub fn denominator(self) -> u64 {
        1u64 << self.exp
    }

    /// Is this an integer?
    pub fn is_integer(self) -> bool {
        self.exp == 0
    }

    /// Numerator when written over `2^e` (`e >= self.exp`).
    fn scaled(self, e: u32) -> i64 {
        self.num << (e - self.exp)
    }

    /// The largest integer `<= self`.
    pub fn floor(self) -> i64 {
        self.num >> self.exp
    }

    /// The smallest integer `>= self`.
    pub fn ceil(self) -> i64 {
        -((-self).floor())
    }

    /// `self · k`.
    pub fn mul_int(self, k: i64) -> Dyadic {
        Dyadic::new(self.num * k, self.exp)
    }

    /// `self / k` when `k` is `±2^j` (the quotient stays dyadic), else `None`.
    pub fn div_pow2(self, k: i64) -> Option<Dyadic> {
        if k == 0 || !k.unsigned_abs().is_power_of_two() {
            return None;
        }
        let j = k.unsigned_abs().trailing_zeros();
        let q = Dyadic::new(self.num, self.exp + j);
        Some(if k < 0 { -q } else { q })
    }

    /// The simplest number strictly between `lo` and `hi` (`None` = unbounded), which
    /// is the value of `{lo | hi}` when `lo < hi` (the simplicity theorem). `lo < hi` required.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Dyadic {
        if let (Some(a), Some(b)) = (lo, hi) {
            debug_assert!(a < b);
        }
        let zero_fits = !matches!(lo, Some(a) if a >= Dyadic::ZERO)
            && !matches!(hi, Some(b) if b <= Dyadic::ZERO);
        if zero_fits {
            return Dyadic::ZERO;
        }
        if lo.is_some_and(|a| a >= Dyadic::ZERO) {
            let a = lo.unwrap();
            // Smallest integer above a is the simplest candidate; otherwise the
            // dyadic with the smallest denominator in (a, hi).
            let n = Dyadic::int(a.floor() + 1);
            let b = match hi {
                None => return n,
                Some(b) => b,
            };
            if n < b {
                return n;
            }
            let mut k = 1;
            loop {
                let c = Dyadic::new((a.scaled(a.exp.max(k)) >> (a.exp.max(k) - k)) + 1, k);
                // c = floor(a * 2^k) / 2^k + 1/2^k, the least k-adic strictly above a
                if c > a && c < b {
                    return c;
                }
                k += 1;
            }
        } else {
            // Both bounds at or below zero: mirror.
            -Dyadic::simplest_between(hi.map(|b| -b), lo.map(|a| -a))
        }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        let e = self.exp.max(other.exp);
        self.scaled(e).cmp(&other.scaled(e))
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::ops::Add for Dyadic {
    type Output = Dyadic;
    fn add(self, o: Dyadic) -> Dyadic {
        let e = self.exp.max(o.exp);
        Dyadic::new(self.scaled(e) + o.scaled(e), e)
    }
}

impl std::ops::Sub for Dyadic {
    type Output = Dyadic;
    fn sub(self, o: Dyadic) -> Dyadic {
        self + (-o)
    }
}

impl std::ops::Neg for Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic {
            num: -self.num,
            exp: self.exp,
        }
    }
}

impl fmt::Display for Dyadic {
    /// `3`, `-3/4`, `1/2` (CGSuite's notation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u64 << self.exp)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, e: u32) -> Dyadic {
        Dyadic::new(n, e)
    }

    #[test]
    fn arithmetic_and_display() {
        assert_eq!(d(2, 2), d(1, 1));
        assert_eq!((d(1, 1) + d(1, 2)).to_string(), "3/4");
        assert_eq!((d(1, 2) - d(1, 1)).to_string(), "-1/4");
        assert_eq!((d(3, 4) + d(13, 4)).to_string(), "1");
        assert_eq!(d(-3, 2).floor(), -1);
        assert!(d(-3, 2) < d(-1, 1));
        assert_eq!(d(3, 4).denominator(), 16);
        assert_eq!((d(-3, 2).ceil(), d(3, 2).ceil(), d(2, 0).ceil()), (0, 1, 2));
        assert_eq!(d(3, 2).mul_int(-6), d(-9, 1));
        assert_eq!(d(3, 1).div_pow2(-4), Some(d(-3, 3)));
        assert_eq!(d(3, 1).div_pow2(3), None);
        assert_eq!(d(3, 1).div_pow2(0), None);
    }

    #[test]
    fn simplest() {
        let s = |a: Option<Dyadic>, b: Option<Dyadic>| Dyadic::simplest_between(a, b).to_string();
        assert_eq!(s(None, None), "0");
        assert_eq!(s(Some(d(0, 0)), None), "1");
        assert_eq!(s(Some(d(3, 0)), None), "4");
        assert_eq!(s(None, Some(d(-2, 0))), "-3");
        assert_eq!(s(Some(d(0, 0)), Some(d(1, 0))), "1/2");
        assert_eq!(s(Some(d(1, 1)), Some(d(1, 0))), "3/4");
        assert_eq!(s(Some(d(-1, 0)), Some(d(-1, 1))), "-3/4");
        assert_eq!(s(Some(d(1, 0)), Some(d(3, 0))), "2");
        assert_eq!(s(Some(d(-5, 0)), Some(d(1, 0))), "0");
        assert_eq!(s(Some(d(5, 4)), Some(d(3, 3))), "11/32");
        assert_eq!(s(Some(d(1, 2)), Some(d(1, 1))), "3/8");
    }
}
