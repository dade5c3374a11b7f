// The compiled (NMODL) mechanisms of one cable group (mechanism_kind.hpp), density mechanisms on
// CVs and point processes at synapses: each mechanism's values per instance, and the ions they
// use per node, in the group's layout of blocks of kLanes cells ([block][row] of Lanes). The
// group calls it at NEURON's points of a step.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cable/description.hpp"
#include "cable/lanes.hpp"
#include "cable/layout.hpp"
#include "cable/mechanism_kind.hpp"

namespace ranvier::cable {

class CompiledMechanisms {
 public:
  CompiledMechanisms() = default;
  // The compiled mechanisms of d (valid) over n_blocks blocks, every lane d's values.
  CompiledMechanisms(const Description& d, const Layout& layout, size_t n_blocks);
  bool empty() const { return mechanisms_.empty(); }
  // Lane `cell` takes the parameters, ion reversal potentials and celsius of `mine` (a variation
  // of the description that leaves the tree, CVs and mechanisms' and synapses' places as they are).
  void set_cell(size_t cell, const Description& mine);

  // Ions at their defaults (e from the description, or Nernst where a mechanism writes a
  // concentration), then every mechanism's INITIAL at v ([node]).
  void reset(size_t block, const Lanes* v);
  // Ion reversal potentials (Nernst), ion currents from 0, then every mechanism's current into
  // the matrix (node i at rhs[i * stride], d[i * stride]).
  void currents(size_t block, const Lanes* v, Lanes* rhs, Lanes* d, size_t stride, double t);
  void advance(size_t block, const Lanes* v, double t);  // every mechanism's states at the new v
  // Whether synapse `port` of the description is a compiled point process, and an event of
  // `weight` on it in `cell` (its NET_RECEIVE, at time t).
  bool takes_events(size_t port) const { return port < port_.size() && port_[port].mechanism != kNone; }
  void net_receive(size_t cell, size_t port, double weight, const Lanes* v, double t);

  // Checkpoints: one cell's values appended, and put back.
  void save(size_t cell, std::vector<double>& out) const;
  const double* load(size_t cell, const double* from);
  size_t bytes() const;

 private:
  struct Ion {
    std::string name;
    double valence;
    std::vector<uint32_t> nernst_node;     // nodes where a mechanism writes a concentration
    LaneRows e, current, inside, outside;  // [block][node]
    LaneRows e_given;                      // [block][node]: the description's e (each cell's, its region's)
  };
  struct Instances {  // one mechanism's CVs (a density mechanism) or synapses (a point process)
    const MechanismKind* kind;
    std::vector<uint32_t> node;
    std::vector<double> to_nA;
    std::vector<uint32_t> source;  // per instance: its entry in the description's densities or synapses
    std::vector<size_t> ion;       // per declared ion: its index in ions_
    LaneRows values;               // [block][field][instance]
    size_t fields() const { return kind->declaration().fields; }
    Lanes* block(size_t b) { return values.data() + b * fields() * node.size(); }
  };
  // The ions a mechanism may use (USEIONs per file), so that a block's view needs no allocation.
  static constexpr size_t kMaxIons = 8;
  using IonViews = std::array<IonRows, kMaxIons>;
  MechanismBlock view(Instances& m, size_t block, const Lanes* v, double t, IonViews& rows);
  // Where one cell's value of a row is in [block][row] of Lanes seen as doubles.
  static size_t index(size_t cell, size_t row, size_t rows_per_block) {
    return ((cell / kLanes) * rows_per_block + row) * kLanes + cell % kLanes;
  }
  // f on each of one cell's values a checkpoint holds, in its order: the mechanisms' values,
  // then each ion's e, inside and outside per node.
  template <typename Self, typename F>
  static void each_value(Self& self, size_t cell, F f) {
    for (auto& m : self.mechanisms_) {
      const size_t rows = m.fields() * m.node.size();
      for (size_t r = 0; r < rows; ++r) f(doubles(m.values)[index(cell, r, rows)]);
    }
    for (auto& ion : self.ions_)
      for (auto* x : {&ion.e, &ion.inside, &ion.outside})
        for (size_t i = 0; i < self.n_nodes_; ++i) f(doubles(*x)[index(cell, i, self.n_nodes_)]);
  }
  static double* doubles(LaneRows& rows) { return reinterpret_cast<double*>(rows.data()); }
  static const double* doubles(const LaneRows& rows) { return reinterpret_cast<const double*>(rows.data()); }

  static constexpr uint32_t kNone = UINT32_MAX;
  struct Port {
    uint32_t mechanism = kNone, instance = 0;
  };

  size_t n_nodes_ = 0, n_blocks_ = 0;
  double dt_ = 0.0;
  std::vector<Instances> mechanisms_;
  std::vector<Port> port_;                 // per synapse of the description: its point process, if compiled
  std::vector<uint32_t> first_cv_, n_cv_;  // per branch (layout.hpp)
  std::vector<Ion> ions_;
  LaneRows celsius_;  // [block]
};

}  // namespace ranvier::cable
