#include "cable/cable_group.hpp"

#include <cmath>

#include "cable/hines.hpp"
#include "cable/lanes.hpp"
#include "cable/mechanisms.hpp"
#include "core/errors.hpp"

namespace ranvier::cable {

CableGroup::CableGroup(std::shared_ptr<const Description> d, size_t n_cells)
    : desc_(std::move(d)),
      n_cells_(n_cells),
      n_blocks_((n_cells + kLanes * kBlocksPerSolve - 1) / (kLanes * kBlocksPerSolve) * kBlocksPerSolve) {
  if (!desc_) throw BadParameterError("a cable group needs a description");
  const Description& desc = *desc_;
  validate(desc);
  layout_ = build_layout(desc);
  n_nodes_ = layout_.size();
  dt_ = desc.dt;
  const std::vector<double>& area = layout_.area;
  // Units: area µm², densities S/cm²: g = density * area * 1e-8 cm² * 1e6 µS/S; C = cm * area * 1e-5 nF.
  constexpr double to_uS = 1e-2;
  g_leak_.assign(n_nodes_, 0.0);
  ge_leak_.assign(n_nodes_, 0.0);
  auto add_leak = [&](uint32_t branch, double g, double e) {
    for (uint32_t k = 0; k < desc.branches[branch].n_cv; ++k) {
      const uint32_t i = layout_.first_cv[branch] + k;
      g_leak_[i] += g * area[i] * to_uS;
      ge_leak_[i] += g * area[i] * to_uS * e;
    }
  };
  for (const Density& m : desc.densities) {
    const auto& defaults = *density_defaults(m.model);
    auto p = [&](const char* name) { return param_or_default(m.params, defaults, name); };
    if (m.model == "pas") {
      add_leak(m.branch, p("g"), p("e"));
    } else {  // hh
      add_leak(m.branch, p("gl"), p("el"));
      for (uint32_t k = 0; k < desc.branches[m.branch].n_cv; ++k) {
        const uint32_t i = layout_.first_cv[m.branch] + k;
        hh_node_.push_back(i);
        gna_max_.push_back(p("gnabar") * area[i] * to_uS);
        gk_max_.push_back(p("gkbar") * area[i] * to_uS);
      }
    }
  }
  ena_ = param_or_default(desc.ion_e, ion_defaults(), "na");
  ek_ = param_or_default(desc.ion_e, ion_defaults(), "k");
  q10_ = hh_q10(desc.celsius);
  d_const_.resize(n_nodes_);
  for (size_t i = 0; i < n_nodes_; ++i) d_const_[i] = desc.cm * area[i] * 1e-5 / dt_ + g_leak_[i] + layout_.g_axial[i];
  for (size_t i = 1; i < n_nodes_; ++i) d_const_[size_t(layout_.parent[i])] += layout_.g_axial[i];
  for (const PointSynapse& s : desc.synapses) {
    const auto& defaults = *synapse_defaults(s.model);
    auto p = [&](const char* name) { return param_or_default(s.params, defaults, name); };
    syn_node_.push_back(uint32_t(layout_.node_of(s.location)));
    syn_e_.push_back(p("e"));
    if (s.model == "expsyn") {
      syn_two_.push_back(0);
      syn_factor_.push_back(1.0);
      syn_decay_a_.push_back(0.0);  // A stays 0
      syn_decay_b_.push_back(std::exp(-dt_ / p("tau")));
    } else {  // exp2syn
      const Exp2Factor f = exp2syn_factor(p("tau1"), p("tau2"));
      syn_two_.push_back(1);
      syn_factor_.push_back(f.factor);
      syn_decay_a_.push_back(std::exp(-dt_ / f.tau1));
      syn_decay_b_.push_back(std::exp(-dt_ / f.tau2));
    }
  }
  for (const CurrentClamp& c : desc.clamps) {
    clamp_node_.push_back(uint32_t(layout_.node_of(c.location)));
    clamp_.insert(clamp_.end(), n_blocks_ * kLanes, c);  // per cell; padding lanes keep the description's
  }
  clamp_current_.resize(clamp_node_.size() * n_blocks_);
  detector_node_ = layout_.node_of(desc.detector);
  v_.resize(n_blocks_ * n_nodes_);
  m_.resize(n_blocks_ * hh_node_.size());
  h_.resize(m_.size());
  n_.resize(m_.size());
  syn_a_.resize(n_blocks_ * syn_node_.size());
  syn_b_.resize(syn_a_.size());
  d_.resize(n_nodes_ * kBlocksPerSolve);
  rhs_.resize(d_.size());
  reset();
}

void CableGroup::reset() {
  const Lanes v_init = broadcast(desc_->V_init);
  const HHRates r = hh_rates(v_init, q10_);
  std::fill(v_.begin(), v_.end(), v_init);
  std::fill(m_.begin(), m_.end(), r.minf);
  std::fill(h_.begin(), h_.end(), r.hinf);
  std::fill(n_.begin(), n_.end(), r.ninf);
  std::fill(syn_a_.begin(), syn_a_.end(), Lanes{});
  std::fill(syn_b_.begin(), syn_b_.end(), Lanes{});
}

void CableGroup::add_event(size_t cell, size_t port, double weight) {
  if (cell >= n_cells_) throw bad_value("cell", cell, "below the cell count " + std::to_string(n_cells_));
  if (port >= syn_node_.size()) throw bad_value("port", port, "below the synapse count " + std::to_string(ports()));
  const size_t at = index(cell, port, syn_node_.size());
  reinterpret_cast<double*>(syn_b_.data())[at] += weight * syn_factor_[port];
  if (syn_two_[port]) reinterpret_cast<double*>(syn_a_.data())[at] += weight * syn_factor_[port];
}

void CableGroup::set_clamp(size_t cell, size_t clamp, double delay, double duration, double amplitude) {
  if (cell >= n_cells_) throw bad_value("cell", cell, "below the cell count " + std::to_string(n_cells_));
  if (clamp >= clamp_node_.size()) throw bad_value("clamp", clamp, "below " + std::to_string(clamp_node_.size()));
  CurrentClamp c = clamp_[clamp * n_blocks_ * kLanes + cell];
  c.delay = delay, c.duration = duration, c.amplitude = amplitude;
  validate_timing(c, "clamps[" + std::to_string(clamp) + "] of cell " + std::to_string(cell));
  clamp_[clamp * n_blocks_ * kLanes + cell] = c;
}

void CableGroup::step(double t, std::vector<std::pair<uint32_t, double>>& crossings) {
  // IClamp's BREAKPOINT runs at t + dt/2 in NEURON's fixed step: on while delay <= t + dt/2 < delay + duration.
  const double t_mid = t + 0.5 * dt_;
  for (size_t k = 0; k < clamp_.size(); ++k) {
    const CurrentClamp& c = clamp_[k];
    clamp_current_[k / kLanes][k % kLanes] = c.delay <= t_mid && t_mid < c.delay + c.duration ? c.amplitude : 0.0;
  }
  for (size_t b = 0; b < n_blocks_; b += kBlocksPerSolve) step_blocks(b, t, crossings);
}

// On x86-64 Linux compiled for AVX-512, AVX2 and the baseline, chosen at load time: the same IEEE
// operations in each (no contraction into fused multiply-adds, exp our own), so results do not
// depend on which.
#if defined(__x86_64__) && defined(__linux__)
#define RANVIER_CABLE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RANVIER_CABLE_CLONES
#endif
RANVIER_CABLE_CLONES void CableGroup::step_blocks(
    size_t first_block, double t, std::vector<std::pair<uint32_t, double>>& crossings) {
  constexpr size_t B = kBlocksPerSolve;
  const size_t n = n_nodes_, n_hh = hh_node_.size(), n_syn = syn_node_.size();
  Lanes* d = d_.data();  // [node][B]
  Lanes* rhs = rhs_.data();
  const int32_t* parent = layout_.parent.data();
  const double* g_ax = layout_.g_axial.data();
  Lanes v_detector[B];

  // 1. Currents at v(t) and their conductances into the matrix (NEURON's setup_tree_matrix), for
  // the change of v: (C/dt + G) dv = I(v), G = axial + membrane di/dv.
  for (size_t j = 0; j < B; ++j) {
    const size_t block = first_block + j;
    const Lanes* v = v_.data() + block * n;
    v_detector[j] = v[detector_node_];
    for (size_t i = 0; i < n; ++i) {
      d[i * B + j] = broadcast(d_const_[i]);
      rhs[i * B + j] = ge_leak_[i] - g_leak_[i] * v[i];
    }
    for (size_t i = 1; i < n; ++i) {
      const size_t p = size_t(parent[i]);
      const Lanes f = g_ax[i] * (v[p] - v[i]);
      rhs[i * B + j] += f;
      rhs[p * B + j] -= f;
    }
    const Lanes* m = m_.data() + block * n_hh;
    const Lanes* h = h_.data() + block * n_hh;
    const Lanes* nn = n_.data() + block * n_hh;
    for (size_t k = 0; k < n_hh; ++k) {
      const size_t i = hh_node_[k];
      const Lanes gna = gna_max_[k] * m[k] * m[k] * m[k] * h[k], gk = gk_max_[k] * nn[k] * nn[k] * nn[k] * nn[k];
      rhs[i * B + j] -= gna * (v[i] - ena_) + gk * (v[i] - ek_);
      d[i * B + j] += gna + gk;
    }
    const Lanes* sa = syn_a_.data() + block * n_syn;
    const Lanes* sb = syn_b_.data() + block * n_syn;
    for (size_t s = 0; s < n_syn; ++s) {
      const size_t i = syn_node_[s];
      const Lanes g = sb[s] - sa[s];
      rhs[i * B + j] -= g * (v[i] - syn_e_[s]);
      d[i * B + j] += g;
    }
    for (size_t c = 0; c < clamp_node_.size(); ++c) rhs[clamp_node_[c] * B + j] += clamp_current_[c * n_blocks_ + block];
  }

  // 2. Solve.
  hines_solve<B>(n, parent, g_ax, d, rhs);

  for (size_t j = 0; j < B; ++j) {
    const size_t block = first_block + j;
    Lanes* v = v_.data() + block * n;
    // 3. v += dv.
    for (size_t i = 0; i < n; ++i) v[i] += rhs[i * B + j];

    // 4. States with the new v (NEURON's nonvint), cnexp: x += (1 - exp(-dt/tau)) (xinf - x).
    Lanes* m = m_.data() + block * n_hh;
    Lanes* h = h_.data() + block * n_hh;
    Lanes* nn = n_.data() + block * n_hh;
    for (size_t k = 0; k < n_hh; ++k) {
      const HHRates r = hh_rates(v[hh_node_[k]], q10_);
      m[k] += (1.0 - exp_lanes(-dt_ * r.mrate)) * (r.minf - m[k]);
      h[k] += (1.0 - exp_lanes(-dt_ * r.hrate)) * (r.hinf - h[k]);
      nn[k] += (1.0 - exp_lanes(-dt_ * r.nrate)) * (r.ninf - nn[k]);
    }
    Lanes* sa = syn_a_.data() + block * n_syn;
    Lanes* sb = syn_b_.data() + block * n_syn;
    for (size_t s = 0; s < n_syn; ++s) {
      sa[s] *= syn_decay_a_[s];
      sb[s] *= syn_decay_b_[s];
    }

    // 5. Upward threshold crossings of the detector, linearly interpolated (padding lanes skipped).
    const double thr = desc_->threshold;
    const Lanes after = v[detector_node_];
    const size_t first = block * kLanes, lanes = first < n_cells_ ? std::min(kLanes, n_cells_ - first) : 0;
    for (size_t l = 0; l < lanes; ++l)
      if (v_detector[j][l] < thr && after[l] >= thr)
        crossings.emplace_back(uint32_t(first + l), t + dt_ * (thr - v_detector[j][l]) / (after[l] - v_detector[j][l]));
  }
}

size_t CableGroup::bytes() const {
  size_t total = sizeof(*this);
  for (const auto* x : {&v_, &m_, &h_, &n_, &syn_a_, &syn_b_, &d_, &rhs_, &clamp_current_})
    total += x->capacity() * sizeof(Lanes);
  for (const auto* x : {&d_const_, &g_leak_, &ge_leak_, &gna_max_,
                        &gk_max_, &syn_e_, &syn_decay_a_, &syn_decay_b_, &syn_factor_, &layout_.g_axial, &layout_.area,
                        &layout_.branch_parent_x})
    total += x->capacity() * sizeof(double);
  for (const auto* x : {&hh_node_, &syn_node_, &clamp_node_, &layout_.first_cv, &layout_.n_cv})
    total += x->capacity() * sizeof(uint32_t);
  for (const auto* x : {&layout_.parent, &layout_.distal_junction, &layout_.branch_parent})
    total += x->capacity() * sizeof(int32_t);
  return total + syn_two_.capacity() + clamp_.capacity() * sizeof(CurrentClamp);
}

}  // namespace ranvier::cable
