/* What memory allows on this machine, for comparing the kernel's time per synaptic event
 * and per neuron update with it: sequential read bandwidth, dependent-load latency (a
 * pointer chase through a random cycle) and the throughput of independent random
 * read-modify-writes, each at several working-set sizes. Prints one JSON object. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t state = 88172645463325252ull;
static uint64_t next_random(void) { /* xorshift64: any decent generator will do here */
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

/* ns per load of a chase through one random cycle over n pointers */
static double chase_ns(size_t n) {
  size_t* next = malloc(n * sizeof(size_t));
  for (size_t i = 0; i < n; ++i) next[i] = i;
  for (size_t i = n - 1; i > 0; --i) { /* Sattolo: a single cycle */
    size_t j = next_random() % i, t = next[i];
    next[i] = next[j], next[j] = t;
  }
  const size_t steps = 20000000;
  size_t p = 0;
  double t0 = now();
  for (size_t s = 0; s < steps; ++s) p = next[p];
  double ns = (now() - t0) / steps * 1e9;
  if (p == (size_t)-1) puts("");
  free(next);
  return ns;
}

/* ns per independent random += into an array of n doubles (what delivery does) */
static double scatter_ns(size_t n) {
  double* a = calloc(n, sizeof(double));
  const size_t m = 1 << 22;
  uint32_t* idx = malloc(m * sizeof(uint32_t));
  for (size_t i = 0; i < m; ++i) idx[i] = (uint32_t)(next_random() % n);
  const int reps = 10;
  double t0 = now();
  for (int r = 0; r < reps; ++r)
    for (size_t i = 0; i < m; ++i) a[idx[i]] += 1.0;
  double ns = (now() - t0) / ((double)m * reps) * 1e9;
  if (a[0] < 0) puts("");
  free(a), free(idx);
  return ns;
}

/* GB/s of a sequential sum over n 64-bit integers (integer sums vectorize, so the loop is
 * limited by memory, not by the latency of one add chain) */
static double read_gbs(size_t n) {
  uint64_t* a = malloc(n * sizeof(uint64_t));
  for (size_t i = 0; i < n; ++i) a[i] = i;
  uint64_t sum = 0;
  double t0 = now();
  for (int r = 0; r < 3; ++r)
    for (size_t i = 0; i < n; ++i) sum += a[i];
  double gbs = 3.0 * n * sizeof(uint64_t) / (now() - t0) / 1e9;
  if (sum == 1) puts("");
  free(a);
  return gbs;
}

int main(void) {
  const size_t kib = 1024 / sizeof(size_t);
  printf("{\"read_bandwidth_gb_s\": %.2f, ", read_gbs((size_t)1 << 27));
  printf("\"latency_ns\": {\"256KiB\": %.2f, \"4MiB\": %.2f, \"32MiB\": %.2f, \"1GiB\": %.2f}, ",
         chase_ns(256 * kib), chase_ns(4096 * kib), chase_ns(32768 * kib), chase_ns(1048576 * kib));
  printf("\"random_add_ns\": {\"200KiB\": %.2f, \"1MiB\": %.2f, \"16MiB\": %.2f, \"1GiB\": %.2f}}\n",
         scatter_ns(25600), scatter_ns(131072), scatter_ns(2097152), scatter_ns(134217728));
  return 0;
}
