//! Exact fixed-width signed integers of `64·L` bits (two's complement, little-endian `u64`
//! limbs): the engine's one wide integer, for the packed criteria of the Dutch procedure, the
//! tier model's lexicographic weights ([`crate::solve::blossom::Wide`], 512 bits) and the
//! matchings that read them.
//!
//! Why not a crate's integers (`bnum`, used here before): they store bytes, and a matching on
//! several hundred bits spent a third of its time in their additions and comparisons;
//! limb-wise loops over 4–64 words are several times faster. Every operation checks for overflow and panics rather than wrap: a
//! matching on a wrapped weight would be silently wrong, and the callers size their integers
//! so that it never happens.

#![allow(clippy::needless_range_loop)] // limb loops index several arrays in step

use std::cmp::Ordering;

/// An exact signed integer of `64·L` bits, two's complement in little-endian `u64` limbs.
#[derive(Clone, Copy, Eq)]
pub struct Fixed<const L: usize>([u64; L]);

/// 256 bits.
pub type F256 = Fixed<4>;
/// 320 bits.
pub type F320 = Fixed<5>;
/// 384 bits.
pub type F384 = Fixed<6>;
/// 512 bits.
pub type F512 = Fixed<8>;
/// 1024 bits.
pub type F1024 = Fixed<16>;
/// 4096 bits.
pub type F4096 = Fixed<64>;

impl<const L: usize> Fixed<L> {
    /// Zero.
    pub const ZERO: Self = Fixed([0; L]);
    /// One.
    pub const ONE: Self = {
        let mut l = [0; L];
        l[0] = 1;
        Fixed(l)
    };

    fn negative(&self) -> bool {
        (self.0[L - 1] as i64) < 0
    }

    /// `v`, sign-extended.
    pub fn from_i64(v: i64) -> Self {
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut l = [fill; L];
        l[0] = v as u64;
        Fixed(l)
    }

    /// `self + o`, panicking on overflow.
    #[inline]
    pub fn add(&self, o: &Self) -> Self {
        // A 128-bit sum per limb: the compiler makes it one add-with-carry chain.
        let mut r = [0u64; L];
        let mut carry = 0u64;
        for i in 0..L {
            let s = u128::from(self.0[i]) + u128::from(o.0[i]) + u128::from(carry);
            r[i] = s as u64;
            carry = (s >> 64) as u64;
        }
        let r = Fixed(r);
        assert!(
            self.negative() != o.negative() || r.negative() == self.negative(),
            "fixed-width integer overflow"
        );
        r
    }

    /// `self - o`, panicking on overflow.
    #[inline]
    pub fn sub(&self, o: &Self) -> Self {
        // As `add`: a 128-bit difference per limb, negative (its top bit set) on a borrow.
        let mut r = [0u64; L];
        let mut borrow = 0u64;
        for i in 0..L {
            let d = u128::from(self.0[i])
                .wrapping_sub(u128::from(o.0[i]))
                .wrapping_sub(u128::from(borrow));
            r[i] = d as u64;
            borrow = (d >> 127) as u64;
        }
        let r = Fixed(r);
        assert!(
            self.negative() == o.negative() || r.negative() == self.negative(),
            "fixed-width integer overflow"
        );
        r
    }

    /// `self · 2^bits`, panicking when bits would be lost or the sign change.
    pub fn shl(&self, bits: u32) -> Self {
        let (words, rest) = ((bits / 64) as usize, bits % 64);
        let mut r = [0u64; L];
        for i in (words..L).rev() {
            let lo = self.0[i - words];
            r[i] = lo << rest;
            if rest > 0 && i > words {
                r[i] |= self.0[i - words - 1] >> (64 - rest);
            }
        }
        let r = Fixed(r);
        assert!(r.shr(bits) == *self, "fixed-width integer overflow");
        r
    }

    /// `v · 2^bits` built in place (weights are packed from such units by the million),
    /// panicking when it does not fit, as [`Fixed::shl`].
    pub fn from_i64_shl(v: i64, bits: u32) -> Self {
        let (words, rest) = ((bits / 64) as usize, bits % 64);
        if v == 0 {
            return Self::ZERO;
        }
        assert!(words < L, "fixed-width integer overflow");
        // |v| < 2^63 and rest < 64: no overflow in 128 bits.
        let x = i128::from(v) << rest;
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut r = [0u64; L];
        r[words..].fill(fill);
        r[words] = x as u64;
        let hi = (x >> 64) as u64;
        if words + 1 < L {
            r[words + 1] = hi;
        } else {
            assert!(
                hi == fill && ((r[words] as i64) < 0) == (v < 0),
                "fixed-width integer overflow"
            );
        }
        Fixed(r)
    }

    /// The bits up to and including the highest one where the two's complement forms of
    /// self and o differ (0 when equal).
    #[inline]
    pub fn differing_bits(&self, o: &Self) -> u32 {
        for i in (0..L).rev() {
            let x = self.0[i] ^ o.0[i];
            if x != 0 {
                return 64 * i as u32 + 64 - x.leading_zeros();
            }
        }
        0
    }

    /// The value when it fits in an `i128`, else `i128::MAX` or `i128::MIN` by its sign.
    pub fn saturating_i128(&self) -> i128 {
        let low = i128::from(self.0[0]) | (i128::from(self.0[1]) << 64);
        let fill = if low < 0 { u64::MAX } else { 0 };
        if self.0[2..].iter().all(|&l| l == fill) {
            low
        } else if self.negative() {
            i128::MIN
        } else {
            i128::MAX
        }
    }

    /// `v` at this width (at least two limbs).
    pub fn from_i128(v: i128) -> Self {
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut l = [fill; L];
        l[0] = v as u64;
        l[1] = (v >> 64) as u64;
        Fixed(l)
    }

    /// The value when it fits in an `i128`.
    pub fn to_i128(&self) -> Option<i128> {
        let low = i128::from(self.0[0]) | (i128::from(self.0[1]) << 64);
        let fill = if low < 0 { u64::MAX } else { 0 };
        self.0[2..].iter().all(|&l| l == fill).then_some(low)
    }

    /// `|self|`, `None` for the most negative value.
    fn abs(&self) -> Option<Self> {
        if !self.negative() {
            return Some(*self);
        }
        let r = Self::ZERO.sub(self);
        (!r.negative()).then_some(r)
    }

    /// `self · o`, `None` on overflow (the tier model's lexicographic multipliers).
    pub fn checked_mul(&self, o: &Self) -> Option<Self> {
        let (a, b) = (self.abs()?, o.abs()?);
        let mut r = [0u64; L];
        for i in 0..L {
            if a.0[i] == 0 {
                continue;
            }
            let mut carry = 0u128;
            for j in 0..L {
                let k = i + j;
                let p = u128::from(a.0[i]) * u128::from(b.0[j])
                    + carry
                    + u128::from(r.get(k).copied().unwrap_or(0));
                if k < L {
                    r[k] = p as u64;
                    carry = p >> 64;
                } else if p != 0 {
                    return None;
                }
            }
            if carry != 0 {
                return None;
            }
        }
        let r = Fixed(r);
        if r.negative() {
            return None;
        }
        Some(if self.negative() != o.negative() {
            Self::ZERO.sub(&r)
        } else {
            r
        })
    }

    /// `self / 2^bits` rounded down (an arithmetic shift).
    pub fn shr(&self, bits: u32) -> Self {
        let (words, rest) = ((bits / 64) as usize, bits % 64);
        let fill = if self.negative() { u64::MAX } else { 0 };
        let mut r = [fill; L];
        for i in 0..L {
            let src = i + words;
            if src >= L {
                break;
            }
            let hi = if src + 1 < L { self.0[src + 1] } else { fill };
            r[i] = if rest == 0 {
                self.0[src]
            } else {
                (self.0[src] >> rest) | (hi << (64 - rest))
            };
        }
        Fixed(r)
    }
}

/// Limb by limb: the derived comparison calls `memcmp`, 5% of a large round's time.
impl<const L: usize> PartialEq for Fixed<L> {
    #[inline]
    fn eq(&self, o: &Self) -> bool {
        let mut diff = 0;
        for i in 0..L {
            diff |= self.0[i] ^ o.0[i];
        }
        diff == 0
    }
}

impl<const L: usize> Ord for Fixed<L> {
    fn cmp(&self, o: &Self) -> Ordering {
        match (self.negative(), o.negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        // Same sign: two's complement orders as unsigned.
        for i in (0..L).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => continue,
                ord => return ord,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Fixed<L> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<const L: usize> std::fmt::Debug for Fixed<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Hexadecimal of the magnitude, most significant limb first.
        let (sign, mag) = if self.negative() {
            ("-", Fixed::<L>::ZERO.sub(self))
        } else {
            ("", *self)
        };
        let top = (0..L).rev().find(|&i| mag.0[i] != 0).unwrap_or(0);
        write!(f, "{sign}0x{:x}", mag.0[top])?;
        for i in (0..top).rev() {
            write!(f, "{:016x}", mag.0[i])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_i128(x: Fixed<4>) -> i128 {
        // The low two limbs, valid while the value fits in an i128.
        (x.0[0] as u128 | (x.0[1] as u128) << 64) as i128
    }

    #[test]
    fn agrees_with_i128_arithmetic() {
        let vals: [i64; 9] = [0, 1, -1, 7, -7, i64::MAX, i64::MIN, 1 << 40, -(1 << 40)];
        for &a in &vals {
            for &b in &vals {
                let (x, y) = (F256::from_i64(a), F256::from_i64(b));
                assert_eq!(to_i128(x.add(&y)), a as i128 + b as i128);
                assert_eq!(to_i128(x.sub(&y)), a as i128 - b as i128);
                assert_eq!(x.cmp(&y), a.cmp(&b), "{a} vs {b}");
                for s in [0u32, 1, 13, 63] {
                    assert_eq!(to_i128(x.shl(s)), (a as i128) << s);
                    assert_eq!(to_i128(x.shl(s).shr(s)), a as i128);
                }
            }
        }
    }

    /// Products agree with `i128` where it has room, carry across limbs, and overflow
    /// into the sign or past the top limb is `None`, never a wrapped value.
    #[test]
    fn multiplies_exactly_and_refuses_overflow() {
        let vals: [i128; 9] = [
            0,
            1,
            -1,
            7,
            -7,
            1 << 62,
            -(1 << 62),
            i64::MAX as i128,
            3 << 40,
        ];
        for &a in &vals {
            for &b in &vals {
                let p = F256::from_i128(a).checked_mul(&F256::from_i128(b));
                assert_eq!(p.and_then(|x| x.to_i128()), Some(a * b), "{a} · {b}");
            }
        }
        let big = F256::ONE.shl(200);
        let p = big.checked_mul(&F256::from_i64(-5)).unwrap();
        assert_eq!(p, F256::ZERO.sub(&F256::from_i64(5).shl(200)));
        assert_eq!(p.to_i128(), None);
        assert_eq!(
            big.checked_mul(&F256::ONE.shl(55)),
            None,
            "2^255 is past the sign"
        );
        assert_eq!(big.checked_mul(&big), None, "2^400 is past the top limb");
        assert!(big.checked_mul(&F256::ONE.shl(54)).is_some());
    }

    #[test]
    fn saturates_to_i128_by_sign_beyond_its_range() {
        for v in [0i64, 1, -1, i64::MAX, i64::MIN] {
            assert_eq!(Fixed::<4>::from_i64(v).saturating_i128(), i128::from(v));
        }
        let wide = Fixed::<4>::from_i64(3).shl(100);
        assert_eq!(wide.saturating_i128(), 3 << 100);
        assert_eq!(Fixed::<4>::ZERO.sub(&wide).saturating_i128(), -(3 << 100));
        let big = Fixed::<4>::from_i64(1).shl(128);
        assert_eq!(big.saturating_i128(), i128::MAX);
        assert_eq!(Fixed::<4>::ZERO.sub(&big).saturating_i128(), i128::MIN);
        // 2^127 has zero upper limbs but does not fit.
        let edge = Fixed::<4>::from_i64(1).shl(127);
        assert_eq!(edge.saturating_i128(), i128::MAX);
        assert_eq!(Fixed::<4>::ZERO.sub(&edge).saturating_i128(), i128::MIN);
    }

    #[test]
    fn shifts_across_limbs_and_order_of_wide_values() {
        let one = F1024::ONE;
        let big = one.shl(700);
        assert!(big > one.shl(699).add(&one.shl(699)).sub(&one));
        assert_eq!(big.shr(700), one);
        assert_eq!(big.shr(1).add(&big.shr(1)), big);
        let neg = F1024::ZERO.sub(&big);
        assert!(neg < F1024::ZERO && neg < F1024::from_i64(-1));
        assert_eq!(neg.shr(1).add(&neg.shr(1)), neg);
        assert_eq!(F1024::from_i64(-3).shr(1), F1024::from_i64(-2));
    }

    /// A unit built in place is the shifted value, and overflows exactly where the shift does.
    #[test]
    fn units_built_in_place_agree_with_shifts() {
        let vals: [i64; 10] = [0, 1, -1, 3, -3, 1 << 40, -(1 << 40), i64::MAX, i64::MIN, 5];
        for &v in &vals {
            for bits in [
                0u32, 1, 63, 64, 65, 127, 128, 150, 190, 191, 192, 200, 250, 255,
            ] {
                let slow = std::panic::catch_unwind(|| F256::from_i64(v).shl(bits));
                let fast = std::panic::catch_unwind(|| F256::from_i64_shl(v, bits));
                match (slow, fast) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{v} << {bits}"),
                    (Err(_), Err(_)) => {}
                    (a, b) => panic!("{v} << {bits}: {:?} against {:?}", a.ok(), b.ok()),
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn overflow_panics() {
        let top = F256::ONE.shl(254);
        let _ = top.add(&top);
    }
}
