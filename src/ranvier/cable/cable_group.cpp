#include "cable/cable_group.hpp"

#include <cmath>

#include "cable/hines.hpp"
#include "cable/lanes.hpp"
#include "cable/mechanism_kind.hpp"
#include "cable/mechanisms.hpp"
#include "core/errors.hpp"

namespace ranvier::cable {

CableGroup::Constants CableGroup::constants(const Description& desc) {
  Constants c;
  auto& rows = c.rows;
  const Layout layout = build_layout(desc);
  const size_t n_nodes = layout.size();
  const std::vector<double>& area = layout.area;
  // Units: area µm², densities S/cm²: g = density * area * 1e-8 cm² * 1e6 µS/S; C = cm * area * 1e-5 nF.
  constexpr double to_uS = 1e-2;
  rows[kGLeak].assign(n_nodes, 0.0);
  rows[kGELeak].assign(n_nodes, 0.0);
  auto add_leak = [&](uint32_t branch, double g, double e) {
    for (uint32_t k = 0; k < desc.branches[branch].n_cv; ++k) {
      const uint32_t i = layout.first_cv[branch] + k;
      rows[kGLeak][i] += g * area[i] * to_uS;
      rows[kGELeak][i] += g * area[i] * to_uS * e;
    }
  };
  for (const Density& m : desc.densities) {
    if (compiled_mechanism(m.model)) continue;
    const auto& defaults = *density_defaults(m.model);
    auto p = [&](const char* name) { return param_or_default(m.params, defaults, name); };
    if (m.model == "pas") {
      add_leak(m.branch, p("g"), p("e"));
    } else {  // hh
      add_leak(m.branch, p("gl"), p("el"));
      for (uint32_t k = 0; k < desc.branches[m.branch].n_cv; ++k) {
        const uint32_t i = layout.first_cv[m.branch] + k;
        c.hh_node.push_back(i);
        rows[kHHGNa].push_back(p("gnabar") * area[i] * to_uS);
        rows[kHHGK].push_back(p("gkbar") * area[i] * to_uS);
        rows[kHHEna].push_back(desc.ion_e_of(m.branch, "na"));
        rows[kHHEk].push_back(desc.ion_e_of(m.branch, "k"));
      }
    }
  }
  rows[kCell].resize(kCellRows);
  rows[kCell][kQ10] = hh_q10(desc.celsius);
  rows[kCell][kThreshold] = desc.threshold;
  rows[kCell][kVInit] = desc.V_init;
  rows[kGAxial] = layout.g_axial;
  rows[kDConst].resize(n_nodes);
  std::vector<uint32_t> branch_of(n_nodes);  // a CV's branch (junction nodes have no area)
  for (uint32_t b = 0; b < desc.branches.size(); ++b)
    std::fill_n(branch_of.begin() + layout.first_cv[b], layout.n_cv[b], b);
  for (size_t i = 0; i < n_nodes; ++i) {
    const double capacitive = desc.cm_of(branch_of[i]) * area[i] * 1e-5 / desc.dt;
    // An axial coupling 1e15 times a CV's capacitive term leaves its voltage changes below a
    // double's resolution: the cell would freeze (realistic cells: 1e3 at most).
    if (area[i] > 0.0 && layout.g_axial[i] > 1e15 * capacitive)
      throw bad_value("Ra", desc.Ra_of(branch_of[i]),
                      "large enough that the axial coupling stays within 1e15 of a CV's capacitance");
    rows[kDConst][i] = capacitive + rows[kGLeak][i] + layout.g_axial[i];
  }
  for (size_t i = 1; i < n_nodes; ++i) rows[kDConst][size_t(layout.parent[i])] += layout.g_axial[i];
  for (const PointSynapse& s : desc.synapses) {
    if (compiled_mechanism(s.model)) continue;  // compiled_mechanisms.hpp
    const auto& defaults = *synapse_defaults(s.model);
    auto p = [&](const char* name) { return param_or_default(s.params, defaults, name); };
    c.syn_node.push_back(uint32_t(layout.node_of(s.location)));
    rows[kSynE].push_back(p("e"));
    if (s.model == "expsyn") {
      c.syn_two.push_back(0);
      rows[kSynFactor].push_back(1.0);
      rows[kSynDecayA].push_back(0.0);  // A stays 0
      rows[kSynDecayB].push_back(std::exp(-desc.dt / p("tau")));
    } else {  // exp2syn
      const Exp2Factor f = exp2syn_factor(p("tau1"), p("tau2"));
      c.syn_two.push_back(1);
      rows[kSynFactor].push_back(f.factor);
      rows[kSynDecayA].push_back(std::exp(-desc.dt / f.tau1));
      rows[kSynDecayB].push_back(std::exp(-desc.dt / f.tau2));
    }
  }
  for (const CurrentClamp& clamp : desc.clamps) c.clamp_node.push_back(uint32_t(layout.node_of(clamp.location)));
  c.parent = layout.parent;
  c.detector_node = uint32_t(layout.node_of(desc.detector));
  c.clamps = desc.clamps;
  return c;
}

CableGroup::CableGroup(std::shared_ptr<const Description> d, size_t n_cells, const Variation& vary)
    : desc_(std::move(d)),
      n_cells_(n_cells),
      n_blocks_((n_cells + kLanes * kBlocksPerSolve - 1) / (kLanes * kBlocksPerSolve) * kBlocksPerSolve) {
  if (!desc_) throw BadParameterError("a cable group needs a description");
  validate(*desc_);
  layout_ = build_layout(*desc_);
  n_nodes_ = layout_.size();
  dt_ = desc_->dt;
  const Constants base = constants(*desc_);
  hh_node_ = base.hh_node, syn_node_ = base.syn_node, clamp_node_ = base.clamp_node, syn_two_ = base.syn_two;
  // Cell i's constants (padding lanes: the description's).
  auto cell_constants = [&](size_t i) {
    Description mine = *desc_;
    vary(i, mine);
    validate(mine);
    Constants c = constants(mine);
    if (c.parent != base.parent || c.hh_node != base.hh_node || c.syn_node != base.syn_node ||
        c.clamp_node != base.clamp_node || c.detector_node != base.detector_node)
      throw BadParameterError("cells of one cable group differ in their tree or CVs (cell " + std::to_string(i) + ")");
    return c;
  };
  // Which tables differ between cells (a first pass, so that uniform tables take one block).
  std::array<bool, kTables> differs{};
  if (vary)
    for (size_t i = 0; i < n_cells_; ++i) {
      const Constants c = cell_constants(i);
      for (size_t t = 0; t < kTables; ++t) differs[t] = differs[t] || c.rows[t] != base.rows[t];
    }
  for (size_t t = 0; t < kTables; ++t) {
    const size_t rows = base.rows[t].size();
    tables_[t].stride = differs[t] ? rows : 0;
    tables_[t].data.resize((differs[t] ? n_blocks_ : 1) * rows);
    for (size_t r = 0; r < rows; ++r) tables_[t].data[r] = broadcast(base.rows[t][r]);
  }
  for (const CurrentClamp& c : desc_->clamps) clamp_.insert(clamp_.end(), n_blocks_ * kLanes, c);
  compiled_ = CompiledMechanisms(*desc_, layout_, n_blocks_);
  for (size_t port = 0, built_in = 0; port < desc_->synapses.size(); ++port)
    built_in_port_.push_back(compiled_.takes_events(port) ? UINT32_MAX : uint32_t(built_in++));
  if (vary)
    for (size_t i = 0; i < n_cells_; ++i) {
      Description mine = *desc_;
      vary(i, mine);
      compiled_.set_cell(i, mine);
      const Constants c = cell_constants(i);
      for (size_t t = 0; t < kTables; ++t)
        if (differs[t])
          for (size_t r = 0; r < c.rows[t].size(); ++r)
            reinterpret_cast<double*>(tables_[t].data.data())[index(i, r, tables_[t].stride)] = c.rows[t][r];
      for (size_t k = 0; k < c.clamps.size(); ++k) clamp_[k * n_blocks_ * kLanes + i] = c.clamps[k];
    }
  for (size_t t = 0; t < kTables; ++t)  // padding lanes: the description's
    for (size_t i = n_cells_; differs[t] && i < n_blocks_ * kLanes; ++i)
      for (size_t r = 0; r < base.rows[t].size(); ++r)
        reinterpret_cast<double*>(tables_[t].data.data())[index(i, r, tables_[t].stride)] = base.rows[t][r];
  clamp_current_.resize(clamp_node_.size() * n_blocks_);
  detector_node_ = layout_.node_of(desc_->detector);
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

void CableGroup::save(size_t cell, std::vector<double>& out) const {
  for (const auto& [rows, n] : state_rows(*this))
    for (size_t row = 0; row < n; ++row)
      out.push_back(reinterpret_cast<const double*>(rows->data())[index(cell, row, n)]);
  compiled_.save(cell, out);
}

const double* CableGroup::load(size_t cell, const double* from) {
  for (const auto& [rows, n] : state_rows(*this))
    for (size_t row = 0; row < n; ++row) reinterpret_cast<double*>(rows->data())[index(cell, row, n)] = *from++;
  return compiled_.load(cell, from);
}

void CableGroup::reset() {
  for (size_t b = 0; b < n_blocks_; ++b) {
    const Lanes* cell = tables_[kCell].block(b);
    const Lanes v_init = cell[kVInit];
    const HHRates r = hh_rates(v_init, cell[kQ10]);
    std::fill_n(v_.begin() + b * n_nodes_, n_nodes_, v_init);
    std::fill_n(m_.begin() + b * hh_node_.size(), hh_node_.size(), r.minf);
    std::fill_n(h_.begin() + b * hh_node_.size(), hh_node_.size(), r.hinf);
    std::fill_n(n_.begin() + b * hh_node_.size(), hh_node_.size(), r.ninf);
    compiled_.reset(b, v_.data() + b * n_nodes_);
  }
  std::fill(syn_a_.begin(), syn_a_.end(), Lanes{});
  std::fill(syn_b_.begin(), syn_b_.end(), Lanes{});
}

void CableGroup::add_event(size_t cell, size_t port, double weight, double t) {
  if (cell >= n_cells_) throw bad_value("cell", cell, "below the cell count " + std::to_string(n_cells_));
  if (port >= ports()) throw bad_value("port", port, "below the synapse count " + std::to_string(ports()));
  if (compiled_.takes_events(port)) return compiled_.net_receive(cell, port, weight, &v_[cell / kLanes * n_nodes_], t);
  const size_t s = built_in_port_[port], at = index(cell, s, syn_node_.size());
  const double factor = constant(kSynFactor, cell, s);
  reinterpret_cast<double*>(syn_b_.data())[at] += weight * factor;
  if (syn_two_[s]) reinterpret_cast<double*>(syn_a_.data())[at] += weight * factor;
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

RANVIER_SIMD_CLONES void CableGroup::step_blocks(size_t first_block, double t,
                                                 std::vector<std::pair<uint32_t, double>>& crossings) {
  constexpr size_t B = kBlocksPerSolve;
  const size_t n = n_nodes_, n_hh = hh_node_.size(), n_syn = syn_node_.size();
  Lanes* d = d_.data();  // [node][B]
  Lanes* rhs = rhs_.data();
  const int32_t* parent = layout_.parent.data();
  const LaneTable& g_axial = tables_[kGAxial];
  Lanes v_detector[B];

  // 1. Currents at v(t) and their conductances into the matrix (NEURON's setup_tree_matrix), for
  // the change of v: (C/dt + G) dv = I(v), G = axial + membrane di/dv.
  for (size_t j = 0; j < B; ++j) {
    const size_t block = first_block + j;
    const Lanes* v = v_.data() + block * n;
    const Lanes *d_const = tables_[kDConst].block(block), *g_leak = tables_[kGLeak].block(block),
                *ge_leak = tables_[kGELeak].block(block), *g_ax = g_axial.block(block);
    v_detector[j] = v[detector_node_];
    for (size_t i = 0; i < n; ++i) {
      d[i * B + j] = d_const[i];
      rhs[i * B + j] = ge_leak[i] - g_leak[i] * v[i];
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
    const Lanes *gna_max = tables_[kHHGNa].block(block), *gk_max = tables_[kHHGK].block(block);
    const Lanes *ena = tables_[kHHEna].block(block), *ek = tables_[kHHEk].block(block);
    for (size_t k = 0; k < n_hh; ++k) {
      const size_t i = hh_node_[k];
      const Lanes gna = gna_max[k] * m[k] * m[k] * m[k] * h[k], gk = gk_max[k] * nn[k] * nn[k] * nn[k] * nn[k];
      rhs[i * B + j] -= gna * (v[i] - ena[k]) + gk * (v[i] - ek[k]);
      d[i * B + j] += gna + gk;
    }
    const Lanes* sa = syn_a_.data() + block * n_syn;
    const Lanes* sb = syn_b_.data() + block * n_syn;
    const Lanes* syn_e = tables_[kSynE].block(block);
    for (size_t s = 0; s < n_syn; ++s) {
      const size_t i = syn_node_[s];
      const Lanes g = sb[s] - sa[s];
      rhs[i * B + j] -= g * (v[i] - syn_e[s]);
      d[i * B + j] += g;
    }
    for (size_t c = 0; c < clamp_node_.size(); ++c)
      rhs[clamp_node_[c] * B + j] += clamp_current_[c * n_blocks_ + block];
    if (!compiled_.empty()) compiled_.currents(block, v, rhs + j, d + j, B, t);
  }

  // 2. Solve.
  hines_solve<B>(n, parent, g_axial.block(first_block), g_axial.stride, d, rhs);

  for (size_t j = 0; j < B; ++j) {
    const size_t block = first_block + j;
    Lanes* v = v_.data() + block * n;
    // 3. v += dv.
    for (size_t i = 0; i < n; ++i) v[i] += rhs[i * B + j];

    // 4. States with the new v (NEURON's nonvint), cnexp: x += (1 - exp(-dt/tau)) (xinf - x).
    Lanes* m = m_.data() + block * n_hh;
    Lanes* h = h_.data() + block * n_hh;
    Lanes* nn = n_.data() + block * n_hh;
    const Lanes* cell = tables_[kCell].block(block);
    for (size_t k = 0; k < n_hh; ++k) {
      const HHRates r = hh_rates(v[hh_node_[k]], cell[kQ10]);
      m[k] += (1.0 - exp_lanes(-dt_ * r.mrate)) * (r.minf - m[k]);
      h[k] += (1.0 - exp_lanes(-dt_ * r.hrate)) * (r.hinf - h[k]);
      nn[k] += (1.0 - exp_lanes(-dt_ * r.nrate)) * (r.ninf - nn[k]);
    }
    Lanes* sa = syn_a_.data() + block * n_syn;
    Lanes* sb = syn_b_.data() + block * n_syn;
    const Lanes *decay_a = tables_[kSynDecayA].block(block), *decay_b = tables_[kSynDecayB].block(block);
    for (size_t s = 0; s < n_syn; ++s) {
      sa[s] *= decay_a[s];
      sb[s] *= decay_b[s];
    }
    if (!compiled_.empty()) compiled_.advance(block, v, t + dt_);

    // 5. Upward threshold crossings of the detector, linearly interpolated (padding lanes skipped).
    const Lanes thr = cell[kThreshold];
    const Lanes after = v[detector_node_];
    const size_t first = block * kLanes, lanes = first < n_cells_ ? std::min(kLanes, n_cells_ - first) : 0;
    for (size_t l = 0; l < lanes; ++l)
      if (v_detector[j][l] < thr[l] && after[l] >= thr[l])
        crossings.emplace_back(uint32_t(first + l),
                               t + dt_ * (thr[l] - v_detector[j][l]) / (after[l] - v_detector[j][l]));
  }
}

size_t CableGroup::bytes() const {
  size_t total = sizeof(*this);
  for (const auto* x : {&v_, &m_, &h_, &n_, &syn_a_, &syn_b_, &d_, &rhs_, &clamp_current_})
    total += x->capacity() * sizeof(Lanes);
  for (const LaneTable& t : tables_) total += t.data.capacity() * sizeof(Lanes);
  total += compiled_.bytes() - sizeof(compiled_);
  for (const auto* x : {&layout_.g_axial, &layout_.area, &layout_.branch_parent_x})
    total += x->capacity() * sizeof(double);
  for (const auto* x : {&hh_node_, &syn_node_, &built_in_port_, &clamp_node_, &layout_.first_cv, &layout_.n_cv})
    total += x->capacity() * sizeof(uint32_t);
  for (const auto* x : {&layout_.parent, &layout_.distal_junction, &layout_.branch_parent})
    total += x->capacity() * sizeof(int32_t);
  return total + syn_two_.capacity() + clamp_.capacity() * sizeof(CurrentClamp);
}

}  // namespace ranvier::cable
