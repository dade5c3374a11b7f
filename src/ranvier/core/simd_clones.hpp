// Functions whose loops vectorize are compiled, on x86-64 Linux, for AVX-512, AVX2 and the
// baseline, one chosen at load time (GCC's target_clones): the same IEEE operations in each (no
// contraction into fused multiply-adds: the kernel and modules compile with -ffp-contract=off),
// so results do not depend on which. Cable cells and generated neurons use them.
#pragma once

#if defined(__x86_64__) && defined(__linux__)
#define RANVIER_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RANVIER_SIMD_CLONES
#endif
