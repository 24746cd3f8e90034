//! The two integer kernels of the network, in a portable version, an AVX2
//! version chosen at run time, and a WebAssembly SIMD128 version where the
//! build enables it (WebAssembly has no detection at run time: a module with
//! SIMD instructions does not load where they are missing). All compute
//! exactly the same integers: the accumulator arithmetic wraps in 16 bits and
//! the output sums wrap in 32 bits in each, and wrapping sums do not depend on
//! their order.

use super::{HIDDEN, QA, Row};

/// Which implementation of the kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust, on any processor.
    Portable,
    /// x86-64 AVX2, only where the processor has it.
    Avx2,
    /// WebAssembly's 128-bit SIMD, only in a build for it (`+simd128`).
    Simd128,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn best() -> Kernel {
        [Kernel::Avx2, Kernel::Simd128].into_iter().find(|k| k.is_available()).unwrap_or(Kernel::Portable)
    }

    /// Whether this processor runs the kernel.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx2 => false,
            Kernel::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
        }
    }

    /// `dst = src + Σ add - Σ sub`, lane by lane, wrapping in 16 bits.
    #[inline]
    pub fn add_sub(self, dst: &mut Row, src: &Row, add: &[&Row], sub: &[&Row]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                // SAFETY: a `Kernel::Avx2` is used only where `is_available` said the
                // processor has AVX2 (`Kernel::best`, or a test that asks first).
                #[allow(unsafe_code)]
                unsafe {
                    avx2::add_sub(dst, src, add, sub)
                }
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => simd128::add_sub(dst, src, add, sub),
            _ => portable::add_sub(dst, src, add, sub),
        }
    }

    /// `Σ clamp(us, 0, QA) · w_us + Σ clamp(them, 0, QA) · w_them`, wrapping in 32 bits.
    #[inline]
    pub fn output(self, us: &Row, them: &Row, w_us: &Row, w_them: &Row) -> i32 {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                // SAFETY: as in `add_sub`.
                #[allow(unsafe_code)]
                unsafe {
                    avx2::output(us, them, w_us, w_them)
                }
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => simd128::output(us, them, w_us, w_them),
            _ => portable::output(us, them, w_us, w_them),
        }
    }
}

mod portable {
    use super::{HIDDEN, QA, Row};

    pub fn add_sub(dst: &mut Row, src: &Row, add: &[&Row], sub: &[&Row]) {
        dst.0 = src.0;
        for a in add {
            for (d, x) in dst.0.iter_mut().zip(a.0.iter()) {
                *d = d.wrapping_add(*x);
            }
        }
        for s in sub {
            for (d, x) in dst.0.iter_mut().zip(s.0.iter()) {
                *d = d.wrapping_sub(*x);
            }
        }
    }

    pub fn output(us: &Row, them: &Row, w_us: &Row, w_them: &Row) -> i32 {
        let half = |acc: &Row, w: &Row| {
            let mut sum = 0i32;
            for i in 0..HIDDEN {
                let x = i32::from(acc.0[i].clamp(0, QA as i16));
                sum = sum.wrapping_add(x * i32::from(w.0[i]));
            }
            sum
        };
        half(us, w_us).wrapping_add(half(them, w_them))
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi16, _mm256_add_epi32,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16,
        _mm256_max_epi16, _mm256_min_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256,
        _mm256_sub_epi16,
    };

    use super::{HIDDEN, QA, Row};

    /// Lanes of 16 bits in a 256-bit register.
    const LANES: usize = 16;

    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(row: &Row, i: usize) -> __m256i {
        debug_assert!(i + LANES <= HIDDEN);
        // SAFETY: callers step `i` by `LANES` below `HIDDEN`, so the 32 bytes read lie in the row.
        unsafe { _mm256_loadu_si256(row.0.as_ptr().add(i).cast()) }
    }

    #[target_feature(enable = "avx2")]
    pub fn add_sub(dst: &mut Row, src: &Row, add: &[&Row], sub: &[&Row]) {
        for i in (0..HIDDEN).step_by(LANES) {
            let mut v = load(src, i);
            for a in add {
                v = _mm256_add_epi16(v, load(a, i));
            }
            for s in sub {
                v = _mm256_sub_epi16(v, load(s, i));
            }
            // SAFETY: as in `load`, for the 32 bytes written.
            unsafe { _mm256_storeu_si256(dst.0.as_mut_ptr().add(i).cast(), v) };
        }
    }

    #[target_feature(enable = "avx2")]
    pub fn output(us: &Row, them: &Row, w_us: &Row, w_them: &Row) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [(us, w_us), (them, w_them)] {
            for i in (0..HIDDEN).step_by(LANES) {
                let x = _mm256_min_epi16(_mm256_max_epi16(load(acc, i), zero), top);
                // Pairs of products 0..=255 times an i16: each pair fits 32 bits exactly.
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, load(w, i)));
            }
        }
        let s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code)]
mod simd128 {
    use std::arch::wasm32::{
        i16x8_add, i16x8_max, i16x8_min, i16x8_splat, i16x8_sub, i32x4_add, i32x4_dot_i16x8,
        i32x4_extract_lane, i32x4_splat, v128, v128_load, v128_store,
    };

    use super::{HIDDEN, QA, Row};

    /// Lanes of 16 bits in a 128-bit register.
    const LANES: usize = 8;

    #[inline]
    fn load(row: &Row, i: usize) -> v128 {
        debug_assert!(i + LANES <= HIDDEN);
        // SAFETY: callers step `i` by `LANES` below `HIDDEN`, so the 16 bytes
        // read lie in the row; WebAssembly loads need no alignment.
        unsafe { v128_load(row.0.as_ptr().add(i).cast()) }
    }

    pub fn add_sub(dst: &mut Row, src: &Row, add: &[&Row], sub: &[&Row]) {
        for i in (0..HIDDEN).step_by(LANES) {
            let mut v = load(src, i);
            for a in add {
                v = i16x8_add(v, load(a, i));
            }
            for s in sub {
                v = i16x8_sub(v, load(s, i));
            }
            // SAFETY: as in `load`, for the 16 bytes written.
            unsafe { v128_store(dst.0.as_mut_ptr().add(i).cast(), v) };
        }
    }

    pub fn output(us: &Row, them: &Row, w_us: &Row, w_them: &Row) -> i32 {
        let zero = i16x8_splat(0);
        let top = i16x8_splat(QA as i16);
        let mut sum = i32x4_splat(0);
        for (acc, w) in [(us, w_us), (them, w_them)] {
            for i in (0..HIDDEN).step_by(LANES) {
                let x = i16x8_min(i16x8_max(load(acc, i), zero), top);
                // Pairs of products 0..=255 times an i16: each pair fits 32 bits exactly.
                sum = i32x4_add(sum, i32x4_dot_i16x8(x, load(w, i)));
            }
        }
        i32x4_extract_lane::<0>(sum)
            .wrapping_add(i32x4_extract_lane::<1>(sum))
            .wrapping_add(i32x4_extract_lane::<2>(sum))
            .wrapping_add(i32x4_extract_lane::<3>(sum))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of random values, extremes included, so that wrapping is exercised.
    fn rows(seed: u64, n: usize) -> Vec<Row> {
        let mut s = seed;
        (0..n)
            .map(|k| {
                let mut r = Row([0; HIDDEN]);
                for (i, v) in r.0.iter_mut().enumerate() {
                    s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    *v = match (i + k) % 17 {
                        0 => i16::MAX,
                        1 => i16::MIN,
                        2 => (s >> 56) as i16 - 128,
                        _ => (s >> 48) as i16,
                    };
                }
                r
            })
            .collect()
    }

    #[test]
    fn the_avx2_and_portable_kernels_agree_bit_for_bit() {
        if !Kernel::Avx2.is_available() {
            eprintln!("no AVX2 on this processor: only the portable kernel runs");
            return;
        }
        for seed in 0..50 {
            let r = rows(seed, 6);
            let (mut a, mut b) = (Row([0; HIDDEN]), Row([0; HIDDEN]));
            for (adds, subs) in [(1, 1), (1, 2), (2, 2), (5, 0), (0, 0)] {
                let add: Vec<&Row> = r[1..1 + adds].iter().collect();
                let sub: Vec<&Row> = r[6 - subs..].iter().collect();
                Kernel::Portable.add_sub(&mut a, &r[0], &add, &sub);
                Kernel::Avx2.add_sub(&mut b, &r[0], &add, &sub);
                assert_eq!(a.0, b.0, "seed {seed}, {adds} added, {subs} taken");
            }
            assert_eq!(
                Kernel::Portable.output(&r[0], &r[1], &r[2], &r[3]),
                Kernel::Avx2.output(&r[0], &r[1], &r[2], &r[3]),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn the_output_clips_the_accumulator() {
        let mut acc = Row([0; HIDDEN]);
        acc.0[0] = -500;
        acc.0[1] = 10;
        acc.0[2] = 1000;
        let mut w = Row([0; HIDDEN]);
        w.0[..3].copy_from_slice(&[7, 3, 2]);
        let zero = Row([0; HIDDEN]);
        for k in [Kernel::Portable, Kernel::best()] {
            assert_eq!(k.output(&acc, &zero, &w, &zero), 10 * 3 + QA * 2);
        }
    }
}
