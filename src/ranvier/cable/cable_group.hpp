// N cells of one description advanced together (docs/cable.md). Cells are interleaved in blocks
// of kLanes (lane = cell), every array [block][node] of Lanes (lanes.hpp), so that the Hines solve
// and the mechanism updates are straight-line vector code across cells; a block's whole step runs
// at once, its state staying in cache. The last blocks are padded with copies of the cell.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "cable/description.hpp"
#include "cable/lanes.hpp"
#include "cable/layout.hpp"

namespace ranvier::cable {

class CableGroup {
 public:
  CableGroup(std::shared_ptr<const Description> d, size_t n_cells);  // validates d

  size_t cells() const { return n_cells_; }
  // Nodes per cell: the CVs and the zero-area junction nodes (layout.hpp).
  size_t cvs_per_cell() const { return layout_.size(); }
  size_t ports() const { return desc_->synapses.size(); }
  const Description& description() const { return *desc_; }
  const Layout& layout() const { return layout_; }

  // V = V_init everywhere, hh gates at their steady state for V_init, synapse conductances 0.
  void reset();
  // A synaptic event of weight w (µS) on synapse `port` of `cell`, taking effect in the next step
  // (NET_RECEIVE: expsyn g += w; exp2syn A, B += w * factor).
  void add_event(size_t cell, size_t port, double weight);
  // Clamp `clamp` of `cell` with its own timing and amplitude (per-cell values of a description).
  void set_clamp(size_t cell, size_t clamp, double delay, double duration, double amplitude);
  // Advances every cell by one dt from time t (ms). Appends (cell, time) of each upward threshold
  // crossing of the detector node's voltage, the time linearly interpolated within the step.
  void step(double t, std::vector<std::pair<uint32_t, double>>& crossings);

  size_t cv_of(const Location& where) const { return layout_.node_of(where); }  // no interpolation
  double voltage(size_t cell, size_t cv) const {  // mV
    return reinterpret_cast<const double*>(v_.data())[index(cell, cv, n_nodes_)];
  }
  double& voltage(size_t cell, size_t cv) { return reinterpret_cast<double*>(v_.data())[index(cell, cv, n_nodes_)]; }
  size_t bytes() const;  // memory held

 private:
  // Where one cell's value of a row is in an array [block][row] of Lanes seen as doubles (GCC's
  // vector types may be accessed through their element type).
  static size_t index(size_t cell, size_t row, size_t rows_per_block) {
    return ((cell / kLanes) * rows_per_block + row) * kLanes + cell % kLanes;
  }
  // Blocks advanced together, their Hines solves interleaved (hines.hpp); n_blocks_ is a multiple.
  static constexpr size_t kBlocksPerSolve = 4;
  void step_blocks(size_t first_block, double t, std::vector<std::pair<uint32_t, double>>& crossings);

  std::shared_ptr<const Description> desc_;
  Layout layout_;
  size_t n_cells_, n_blocks_, n_nodes_;
  double dt_;
  // Per node, the same for every cell: the constant part of the diagonal (C/dt + leak + axial,
  // µS) and the leak (µS, and µS·mV = nA of g·e) of pas and hh's il.
  std::vector<double> d_const_, g_leak_, ge_leak_;
  // hh: its nodes and maximal conductances (µS).
  std::vector<uint32_t> hh_node_;
  std::vector<double> gna_max_, gk_max_;
  double ena_, ek_, q10_;
  // Synapses (ports): conductance g = B - A, A and B decaying by their factors per step.
  std::vector<uint32_t> syn_node_;
  std::vector<double> syn_e_, syn_decay_a_, syn_decay_b_, syn_factor_;
  std::vector<char> syn_two_;  // exp2syn: events add to A and B
  std::vector<uint32_t> clamp_node_;
  std::vector<CurrentClamp> clamp_;    // [clamp][cell]: each cell's timing and amplitude
  LaneRows clamp_current_;             // [clamp][block]: this step's current (nA), scratch
  size_t detector_node_;
  // State [block][row]; scratch [node][block] for the blocks being advanced.
  LaneRows v_, m_, h_, n_, syn_a_, syn_b_;
  LaneRows d_, rhs_;
};

}  // namespace ranvier::cable
