// The node tree against NEURON's rules, and the Hines solve against a dense solve on random trees.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cable/hines.hpp"
#include "cable/layout.hpp"
#include "cable_cells.hpp"

namespace ranvier::cable {
namespace {

double half_g(double Ra, double length, uint32_t n, double diam) {  // µS of half a CV
  return 1.0 / (1e-2 * Ra * (length / n / 2.0) / (M_PI * diam * diam / 4.0));
}

TEST(CableLayout, BallAndStickAsNeuron) {
  const Description d = testing::ball_and_stick(3);
  const Layout l = build_layout(d);
  // soma CV, the zero-area node at soma(1), three dendrite CVs
  ASSERT_EQ(l.size(), 5u);
  EXPECT_EQ(l.parent, (std::vector<int32_t>{-1, 0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(l.g_axial[1], half_g(100, 20, 1, 20));  // soma's distal half
  EXPECT_DOUBLE_EQ(l.g_axial[2], half_g(100, 200, 3, 1));  // dendrite's proximal half only
  EXPECT_DOUBLE_EQ(l.g_axial[3], half_g(100, 200, 3, 1) / 2);
  EXPECT_EQ(l.area[1], 0.0);
  EXPECT_DOUBLE_EQ(l.area[0], M_PI * 20 * 20);
  EXPECT_DOUBLE_EQ(l.area[2], M_PI * 1 * 200 / 3);
  EXPECT_EQ(l.node_of({0, 0.5}), 0u);
  EXPECT_EQ(l.node_of({0, 1.0}), 1u);      // the junction
  EXPECT_EQ(l.node_of({1, 0.0}), 1u);      // dend(0) is the node it attaches to
  EXPECT_EQ(l.node_of({1, 1.0 / 3}), 3u);  // floor(3 x): a boundary belongs to the distal CV
  EXPECT_EQ(l.node_of({1, 1.0}), 4u);      // sealed end: the last CV
  EXPECT_EQ(l.node_of({0, 0.0}), 0u);
}

TEST(CableLayout, PointProcessAtAnEndGetsTheZeroAreaNode) {
  Description d = testing::ball_and_stick(3);
  d.synapses[1].location = {1, 1.0};  // dend(1)
  d.clamps[0].location = {0, 0.0};    // soma(0)
  const Layout l = build_layout(d);
  ASSERT_EQ(l.size(), 7u);  // soma(0), soma, soma(1), 3 dendrite CVs, dend(1)
  EXPECT_EQ(l.parent, (std::vector<int32_t>{-1, 0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(l.node_of({1, 1.0}), 6u);
  EXPECT_EQ(l.node_of({0, 0.0}), 0u);
  EXPECT_DOUBLE_EQ(l.g_axial[6], half_g(100, 200, 3, 1));
  EXPECT_EQ(l.area[6], 0.0);
}

TEST(CableLayout, InteriorAndRootEndAttachments) {
  Description d;
  d.branches = {
      {"soma", -1, 1.0, 20, 20, 3}, {"a", 0, 0.5, 50, 2, 2}, {"b", 0, 0.0, 50, 2, 1}, {"c", 1, 0.0, 10, 1, 1}};
  const Layout l = build_layout(d);
  // root junction (soma(0)), soma CVs 1-3, a's CVs 4-5, b's CV 6, c's CV 7
  ASSERT_EQ(l.size(), 8u);
  EXPECT_EQ(l.root_junction, 0);
  EXPECT_EQ(l.parent, (std::vector<int32_t>{-1, 0, 1, 2, 2, 4, 0, 2}));  // a at soma(0.5): the middle CV
  EXPECT_DOUBLE_EQ(l.g_axial[1], half_g(35.4, 20, 3, 20));
  EXPECT_DOUBLE_EQ(l.g_axial[4], half_g(35.4, 50, 2, 2));
  EXPECT_DOUBLE_EQ(l.g_axial[7], half_g(35.4, 10, 1, 1));  // c at a(0) = soma(0.5)
}

// A random valid tree: up to 8 branches, random parents, attachment points and CV counts.
Description random_tree(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> branches(1, 8), cvs(1, 5), pick(0, 4);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Description d;
  const int nb = branches(rng);
  for (int b = 0; b < nb; ++b) {
    const double xs[5] = {0.0, 1.0, 1.0, 0.5, u(rng)};
    d.branches.push_back({"b", b == 0 ? -1 : int(rng() % uint64_t(b)), xs[pick(rng)], 10 + 200 * u(rng),
                          0.5 + 5 * u(rng), uint32_t(cvs(rng))});
  }
  return d;
}

// Gaussian elimination with partial pivoting on a dense copy.
std::vector<double> dense_solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  const size_t n = b.size();
  for (size_t k = 0; k < n; ++k) {
    size_t p = k;
    for (size_t r = k + 1; r < n; ++r)
      if (std::fabs(a[r][k]) > std::fabs(a[p][k])) p = r;
    std::swap(a[k], a[p]);
    std::swap(b[k], b[p]);
    for (size_t r = k + 1; r < n; ++r) {
      const double f = a[r][k] / a[k][k];
      for (size_t c = k; c < n; ++c) a[r][c] -= f * a[k][c];
      b[r] -= f * b[k];
    }
  }
  std::vector<double> x(n);
  for (size_t k = n; k-- > 0;) {
    double s = b[k];
    for (size_t c = k + 1; c < n; ++c) s -= a[k][c] * x[c];
    x[k] = s / a[k][k];
  }
  return x;
}

TEST(CableHines, MatchesDenseSolveOnRandomTrees) {
  constexpr size_t W = 4;
  using V = double __attribute__((vector_size(W * sizeof(double))));  // four cells, different values
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Layout l = build_layout(random_tree(rng));
    const size_t n = l.size();
    // diagonal: the node's axial conductances plus a random membrane term (0 on junction nodes)
    std::vector<double> d(n * W), rhs(n * W);
    for (size_t i = 0; i < n; ++i)
      for (size_t c = 0; c < W; ++c) {
        d[i * W + c] = l.g_axial[i] + (l.area[i] > 0 ? u(rng) * 10 : 0.0);
        rhs[i * W + c] = u(rng) - 0.5;
      }
    for (size_t i = 1; i < n; ++i)
      for (size_t c = 0; c < W; ++c) d[size_t(l.parent[i]) * W + c] += l.g_axial[i];
    std::vector<std::vector<std::vector<double>>> dense(W, std::vector<std::vector<double>>(n, std::vector<double>(n)));
    std::vector<std::vector<double>> b(W, std::vector<double>(n));
    for (size_t c = 0; c < W; ++c) {
      for (size_t i = 0; i < n; ++i) {
        dense[c][i][i] = d[i * W + c];
        b[c][i] = rhs[i * W + c];
        if (l.parent[i] >= 0) dense[c][i][size_t(l.parent[i])] = dense[c][size_t(l.parent[i])][i] = -l.g_axial[i];
      }
    }
    std::vector<V> dv(n), rv(n);
    for (size_t i = 0; i < n; ++i)
      for (size_t c = 0; c < W; ++c) dv[i][c] = d[i * W + c], rv[i][c] = rhs[i * W + c];
    hines_solve<1>(n, l.parent.data(), l.g_axial.data(), 0, dv.data(), rv.data());
    for (size_t c = 0; c < W; ++c) {
      const std::vector<double> x = dense_solve(dense[c], b[c]);
      double scale = 0;
      for (double xi : x) scale = std::max(scale, std::fabs(xi));
      for (size_t i = 0; i < n; ++i) {
        const double err = std::fabs(rv[i][c] - x[i]) / scale;
        worst = std::max(worst, err);
        ASSERT_LT(err, 1e-12) << "trial " << trial << " node " << i << " lane " << c;
      }
    }
  }
  std::printf("worst relative difference to the dense solve: %.2e\n", worst);
}

}  // namespace
}  // namespace ranvier::cable
