#include "cable/compiled_mechanisms.hpp"

#include <algorithm>
#include <cmath>

#include "cable/mechanisms.hpp"
#include "core/errors.hpp"

namespace ranvier::cable {

CompiledMechanisms::CompiledMechanisms(const Description& d, const Layout& layout, size_t n_blocks)
    : n_nodes_(layout.size()), n_blocks_(n_blocks), dt_(d.dt), first_cv_(layout.first_cv), n_cv_(layout.n_cv) {
  constexpr double to_nA = 1e-2;  // mA/cm² over µm²: 1e-8 cm²/µm² * 1e6 nA/mA
  auto instances_of = [&](const MechanismKind* kind) -> Instances& {
    auto it = std::find_if(mechanisms_.begin(), mechanisms_.end(), [&](const Instances& m) { return m.kind == kind; });
    return it != mechanisms_.end() ? *it : mechanisms_.emplace_back(Instances{kind, {}, {}, {}, {}, {}});
  };
  for (size_t i = 0; i < d.densities.size(); ++i) {
    const Density& density = d.densities[i];
    const MechanismKind* kind = compiled_mechanism(density.model);
    if (!kind) continue;
    Instances& m = instances_of(kind);
    for (uint32_t k = 0; k < d.branches[density.branch].n_cv; ++k) {
      const uint32_t node = layout.first_cv[density.branch] + k;
      m.node.push_back(node);
      m.to_nA.push_back(layout.area[node] * to_nA);
      m.source.push_back(uint32_t(i));
    }
  }
  for (size_t i = 0; i < d.synapses.size(); ++i)
    if (const MechanismKind* kind = compiled_mechanism(d.synapses[i].model)) {
      Instances& m = instances_of(kind);
      m.node.push_back(uint32_t(layout.node_of(d.synapses[i].location)));
      m.to_nA.push_back(1.0);
      m.source.push_back(uint32_t(i));
    }
  std::stable_sort(mechanisms_.begin(), mechanisms_.end(), [](const Instances& a, const Instances& b) {
    return compiled_mechanism_order(a.kind) < compiled_mechanism_order(b.kind);
  });
  for (Instances& m : mechanisms_) {
    if (m.kind->declaration().ions.size() > kMaxIons)
      throw BadParameterError(m.kind->declaration().name + " uses more than " + std::to_string(kMaxIons) + " ions");
    for (const IonUse& use : m.kind->declaration().ions) {
      auto ion = std::find_if(ions_.begin(), ions_.end(), [&](const Ion& x) { return x.name == use.ion; });
      if (ion == ions_.end()) ion = ions_.insert(ions_.end(), Ion{use.ion, use.valence, {}, {}, {}, {}, {}, {}});
      if (use.writes_inside || use.writes_outside)
        ion->nernst_node.insert(ion->nernst_node.end(), m.node.begin(), m.node.end());
      m.ion.push_back(size_t(ion - ions_.begin()));
    }
    m.values.resize(n_blocks_ * m.fields() * m.node.size());
  }
  port_.resize(d.synapses.size());
  for (size_t i = 0; i < mechanisms_.size(); ++i)
    if (mechanisms_[i].kind->declaration().point)
      for (size_t k = 0; k < mechanisms_[i].node.size(); ++k)
        port_[mechanisms_[i].source[k]] = {uint32_t(i), uint32_t(k)};
  for (Ion& ion : ions_) {
    std::sort(ion.nernst_node.begin(), ion.nernst_node.end());
    ion.nernst_node.erase(std::unique(ion.nernst_node.begin(), ion.nernst_node.end()), ion.nernst_node.end());
    for (LaneRows* rows : {&ion.e, &ion.current, &ion.inside, &ion.outside}) rows->resize(n_blocks_ * n_nodes_);
    ion.e_given.resize(n_blocks_ * n_nodes_);
  }
  celsius_.resize(n_blocks_);
  for (size_t cell = 0; cell < n_blocks_ * kLanes; ++cell) set_cell(cell, d);
}

void CompiledMechanisms::set_cell(size_t cell, const Description& mine) {
  for (Instances& m : mechanisms_) {
    const auto& parameters = m.kind->declaration().parameters;
    const size_t n = m.node.size();
    for (size_t k = 0; k < n; ++k) {
      const auto& params =
          m.kind->declaration().point ? mine.synapses[m.source[k]].params : mine.densities[m.source[k]].params;
      for (size_t p = 0; p < parameters.size(); ++p) {
        const auto given = params.find(parameters[p].name);
        const double value = given == params.end() ? parameters[p].default_value : given->second;
        doubles(m.values)[index(cell, p * n + k, m.fields() * n)] = value;
      }
    }
  }
  for (Ion& ion : ions_)
    for (uint32_t b = 0; b < mine.branches.size(); ++b)
      for (uint32_t k = 0; k < n_cv_[b]; ++k)
        doubles(ion.e_given)[index(cell, first_cv_[b] + k, n_nodes_)] = mine.ion_e_of(b, ion.name);
  doubles(celsius_)[index(cell, 0, 1)] = mine.celsius;
}

MechanismBlock CompiledMechanisms::view(Instances& m, size_t block, const Lanes* v, double t, IonViews& rows) {
  const size_t at = block * n_nodes_;
  for (size_t k = 0; k < m.ion.size(); ++k) {
    Ion& ion = ions_[m.ion[k]];
    rows[k] = {ion.e.data() + at, ion.current.data() + at, ion.inside.data() + at, ion.outside.data() + at};
  }
  return {m.node.size(),
          m.node.data(),
          m.to_nA.data(),
          v,
          m.block(block),
          rows.data(),
          nullptr,
          nullptr,
          0,
          celsius_[block],
          dt_,
          t};
}

namespace {

// The Nernst potential of an ion at its nodes with concentration mechanisms, per lane.
void nernst_rows(const std::vector<uint32_t>& nodes, const Lanes* inside, const Lanes* outside, Lanes* e,
                 double valence, const Lanes& celsius) {
  for (uint32_t i : nodes)
    for (size_t l = 0; l < kLanes; ++l) e[i][l] = nernst(inside[i][l], outside[i][l], valence, celsius[l]);
}

}  // namespace

void CompiledMechanisms::reset(size_t block, const Lanes* v) {
  for (Ion& ion : ions_) {
    const IonDefaults defaults = ion_values(ion.name);
    const size_t at = block * n_nodes_;
    std::copy_n(ion.e_given.begin() + at, n_nodes_, ion.e.begin() + at);
    std::fill_n(ion.current.begin() + at, n_nodes_, Lanes{});
    std::fill_n(ion.inside.begin() + at, n_nodes_, broadcast(defaults.inside));
    std::fill_n(ion.outside.begin() + at, n_nodes_, broadcast(defaults.outside));
    nernst_rows(ion.nernst_node, &ion.inside[at], &ion.outside[at], &ion.e[at], ion.valence, celsius_[block]);
  }
  IonViews rows;
  for (Instances& m : mechanisms_) m.kind->initialize(view(m, block, v, 0.0, rows));
}

void CompiledMechanisms::currents(size_t block, const Lanes* v, Lanes* rhs, Lanes* d, size_t stride, double t) {
  for (Ion& ion : ions_) {
    const size_t at = block * n_nodes_;
    std::fill_n(ion.current.begin() + at, n_nodes_, Lanes{});
    nernst_rows(ion.nernst_node, &ion.inside[at], &ion.outside[at], &ion.e[at], ion.valence, celsius_[block]);
  }
  IonViews rows;
  for (Instances& m : mechanisms_) {
    MechanismBlock b = view(m, block, v, t, rows);
    b.rhs = rhs, b.d = d, b.stride = stride;
    m.kind->current(b);
  }
}

void CompiledMechanisms::advance(size_t block, const Lanes* v, double t) {
  IonViews rows;
  for (Instances& m : mechanisms_) m.kind->advance(view(m, block, v, t, rows));
}

void CompiledMechanisms::net_receive(size_t cell, size_t port, double weight, const Lanes* v, double t) {
  const Port where = port_[port];
  Instances& m = mechanisms_[where.mechanism];
  IonViews rows;
  LaneBits lane{};
  lane[cell % kLanes] = -1;
  m.kind->net_receive(view(m, cell / kLanes, v, t, rows), where.instance, lane, weight);
}

void CompiledMechanisms::save(size_t cell, std::vector<double>& out) const {
  each_value(*this, cell, [&](double x) { out.push_back(x); });
}

const double* CompiledMechanisms::load(size_t cell, const double* from) {
  each_value(*this, cell, [&](double& x) { x = *from++; });
  return from;
}

size_t CompiledMechanisms::bytes() const {
  size_t total = sizeof(*this) + celsius_.capacity() * sizeof(Lanes);
  for (const Instances& m : mechanisms_)
    total += sizeof(m) + m.values.capacity() * sizeof(Lanes) + m.node.capacity() * sizeof(uint32_t) +
             m.to_nA.capacity() * sizeof(double) + m.source.capacity() * sizeof(uint32_t);
  total += port_.capacity() * sizeof(Port) + (first_cv_.capacity() + n_cv_.capacity()) * sizeof(uint32_t);
  for (const Ion& ion : ions_) total += sizeof(ion) + (ion.e.capacity() * 4 + ion.e_given.capacity()) * sizeof(Lanes);
  return total;
}

}  // namespace ranvier::cable
