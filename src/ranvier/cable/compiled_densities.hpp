// The compiled (NMODL) density mechanisms of one cable group (density_kind.hpp): each
// mechanism's values per instance, and the ions they use per node, in the group's layout of
// blocks of kLanes cells ([block][row] of Lanes). The group calls it at NEURON's points of a step.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cable/density_kind.hpp"
#include "cable/description.hpp"
#include "cable/lanes.hpp"
#include "cable/layout.hpp"

namespace ranvier::cable {

class CompiledDensities {
 public:
  CompiledDensities() = default;
  // The compiled mechanisms of d (valid) over n_blocks blocks, every lane d's values.
  CompiledDensities(const Description& d, const Layout& layout, size_t n_blocks);
  bool empty() const { return mechanisms_.empty(); }
  // Lane `cell` takes the parameters, ion reversal potentials and celsius of `mine` (a variation
  // of the description that leaves the tree, CVs and mechanisms' places as they are).
  void set_cell(size_t cell, const Description& mine);

  // Ions at their defaults (e from the description, or Nernst where a mechanism writes a
  // concentration), then every mechanism's INITIAL at v ([node]).
  void reset(size_t block, const Lanes* v);
  // Ion reversal potentials (Nernst), ion currents from 0, then every mechanism's current into
  // the matrix (node i at rhs[i * stride], d[i * stride]).
  void currents(size_t block, const Lanes* v, Lanes* rhs, Lanes* d, size_t stride, double t);
  void advance(size_t block, const Lanes* v, double t);  // every mechanism's states at the new v

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
    LaneRows e_given;                      // [block]: the description's e (each cell's)
  };
  struct Instances {  // one mechanism's CVs
    const DensityKind* kind;
    std::vector<uint32_t> node;
    std::vector<double> to_nA;
    std::vector<uint32_t> density;  // per instance: its entry in the description's densities
    std::vector<size_t> ion;        // per declared ion: its index in ions_
    LaneRows values;                // [block][field][instance]
    size_t fields() const { return kind->declaration().fields; }
    Lanes* block(size_t b) { return values.data() + b * fields() * node.size(); }
  };
  // The ions a mechanism may use (USEIONs per file), so that a block's view needs no allocation.
  static constexpr size_t kMaxIons = 8;
  using IonViews = std::array<IonRows, kMaxIons>;
  DensityBlock view(Instances& m, size_t block, const Lanes* v, double t, IonViews& rows);
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

  size_t n_nodes_ = 0, n_blocks_ = 0;
  double dt_ = 0.0;
  std::vector<Instances> mechanisms_;
  std::vector<Ion> ions_;
  LaneRows celsius_;  // [block]
};

}  // namespace ranvier::cable
