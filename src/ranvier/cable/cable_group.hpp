// N cells of one description advanced together (docs/cable.md). Cells are interleaved in blocks
// of kLanes (lane = cell), every array [block][node] of Lanes (lanes.hpp), so that the Hines solve
// and the mechanism updates are straight-line vector code across cells; a block's whole step runs
// at once, its state staying in cache. The last blocks are padded with copies of the cell.
// Cells may differ in the description's scalars that leave the tree and its CVs as they are
// (conductances, synaptic time constants, cm, Ra, V_init, clamps, threshold): a constant that
// differs between cells is stored per lane, one that does not once for all.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "cable/compiled_mechanisms.hpp"
#include "cable/description.hpp"
#include "cable/lanes.hpp"
#include "cable/layout.hpp"

namespace ranvier::cable {

class CableGroup {
 public:
  // Cell i gets the description d with vary(i, copy) applied to a copy of it (no vary: all cells
  // are d); vary may change scalars only, not the branches, CVs or locations. Validates each.
  using Variation = std::function<void(size_t cell, Description& d)>;
  CableGroup(std::shared_ptr<const Description> d, size_t n_cells, const Variation& vary = {});

  size_t cells() const { return n_cells_; }
  // Nodes per cell: the CVs and the zero-area junction nodes (layout.hpp).
  size_t cvs_per_cell() const { return layout_.size(); }
  size_t ports() const { return desc_->synapses.size(); }
  const Description& description() const { return *desc_; }
  const Layout& layout() const { return layout_; }

  // V = V_init everywhere (each cell's), hh gates at their steady state for V_init, synapse conductances 0,
  // compiled mechanisms' INITIAL.
  void reset();
  // A synaptic event of weight w (µS) on synapse `port` of `cell`, taking effect in the step from
  // time t (NET_RECEIVE: expsyn g += w; exp2syn A, B += w * factor; a compiled point process's own).
  void add_event(size_t cell, size_t port, double weight, double t);
  // Advances every cell by one dt from time t (ms). Appends (cell, time) of each upward threshold
  // crossing of the detector node's voltage, the time linearly interpolated within the step.
  void step(double t, std::vector<std::pair<uint32_t, double>>& crossings);

  size_t cv_of(const Location& where) const { return layout_.node_of(where); }  // no interpolation
  double voltage(size_t cell, size_t cv) const {                                // mV
    return reinterpret_cast<const double*>(v_.data())[index(cell, cv, n_nodes_)];
  }
  double& voltage(size_t cell, size_t cv) { return reinterpret_cast<double*>(v_.data())[index(cell, cv, n_nodes_)]; }
  size_t bytes() const;  // memory held
  // Checkpoints: a cell's state (every node's voltage, hh's gates, the synapses' A and B, compiled
  // mechanisms' values and their ions)
  // appended as numbers, and put back from them (the group built from the same description).
  void save(size_t cell, std::vector<double>& out) const;
  const double* load(size_t cell, const double* from);

 private:
  // Where one cell's value of a row is in an array [block][row] of Lanes seen as doubles (GCC's
  // vector types may be accessed through their element type).
  static size_t index(size_t cell, size_t row, size_t rows_per_block) {
    return ((cell / kLanes) * rows_per_block + row) * kLanes + cell % kLanes;
  }
  // The state a checkpoint holds, in its order: each array with its rows per block.
  template <typename Self>
  static auto state_rows(Self& g) {
    return std::array{std::pair{&g.v_, g.n_nodes_},
                      std::pair{&g.m_, g.hh_node_.size()},
                      std::pair{&g.h_, g.hh_node_.size()},
                      std::pair{&g.n_, g.hh_node_.size()},
                      std::pair{&g.syn_a_, g.syn_node_.size()},
                      std::pair{&g.syn_b_, g.syn_node_.size()}};
  }
  // Blocks advanced together, their Hines solves interleaved (hines.hpp); n_blocks_ is a multiple.
  static constexpr size_t kBlocksPerSolve = 4;
  void step_blocks(size_t first_block, double t, std::vector<std::pair<uint32_t, double>>& crossings);

  // The constants of one cell, computed from its description (constants()).
  enum Table : size_t {
    kDConst,  // per node: the constant part of the diagonal (C/dt + leak + axial, µS)
    kGLeak,   // per node: the leak of pas and hh's il (µS)
    kGELeak,  // per node: the leak's g·e (µS·mV = nA)
    kGAxial,  // per node: the axial conductance to its parent (µS)
    kHHGNa,   // per hh node: gnabar (µS)
    kHHGK,    // per hh node: gkbar (µS)
    kHHEna,   // per hh node: ena (mV)
    kHHEk,    // per hh node: ek (mV)
    kCell,    // q10, threshold, V_init (rows kQ10...)
    kSynE,    // per synapse: reversal potential (mV)
    kSynDecayA,
    kSynDecayB,  // per synapse: A and B's decay factor per step (expsyn: A stays 0)
    kSynFactor,  // per synapse: an event of weight w adds w * factor
    kTables
  };
  enum CellRow : size_t { kQ10, kThreshold, kVInit, kCellRows };
  struct Constants {
    std::array<std::vector<double>, kTables> rows;
    std::vector<CurrentClamp> clamps;
    std::vector<int32_t> parent;  // the structure, the same for all cells
    std::vector<uint32_t> hh_node, syn_node, clamp_node;
    uint32_t detector_node = 0;
    std::vector<char> syn_two;
  };
  static Constants constants(const Description& d);  // d valid
  // A table's values for the cells of each block: [block][row] of Lanes, or, where every cell has
  // the same values, one block shared by all (stride 0: no more memory or traffic than a scalar).
  struct LaneTable {
    LaneRows data;
    size_t stride = 0;  // rows per block, or 0
    const Lanes* block(size_t b) const { return data.data() + b * stride; }
  };
  double constant(Table t, size_t cell, size_t row) const {
    const LaneTable& table = tables_[t];
    return table.block(cell / kLanes)[row][cell % kLanes];
  }

  std::shared_ptr<const Description> desc_;
  Layout layout_;
  size_t n_cells_, n_blocks_, n_nodes_;
  double dt_;
  std::array<LaneTable, kTables> tables_;
  std::vector<uint32_t> hh_node_;  // nodes with hh
  // Synapses of built-in models (expsyn, exp2syn): conductance g = B - A, A and B decaying by
  // their factors per step.
  std::vector<uint32_t> syn_node_;
  std::vector<char> syn_two_;            // exp2syn: events add to A and B
  std::vector<uint32_t> built_in_port_;  // per port: its index among them (UINT32_MAX: compiled)
  std::vector<uint32_t> clamp_node_;
  std::vector<CurrentClamp> clamp_;  // [clamp][cell]: each cell's timing and amplitude
  LaneRows clamp_current_;           // [clamp][block]: this step's current (nA), scratch
  size_t detector_node_;
  // State [block][row]; scratch [node][block] for the blocks being advanced.
  LaneRows v_, m_, h_, n_, syn_a_, syn_b_;
  LaneRows d_, rhs_;
  CompiledMechanisms compiled_;  // NMODL mechanisms (point processes too) and their ions
};

}  // namespace ranvier::cable
