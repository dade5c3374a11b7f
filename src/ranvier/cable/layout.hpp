// The nodes of a cell's tree, numbered parent < child, as NEURON builds them: one node per CV at
// the CV's centre, and a zero-area node at a branch end where children attach or a point process
// or the detector sits (NEURON's node at x = 1 of a section, or x = 0 of the root; elsewhere that
// node carries no current and its voltage is that of the CV beside it, so it is left out). Each
// node couples to its parent through an axial conductance made of half-CV resistances.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cable/description.hpp"

namespace ranvier::cable {

struct Layout {
  std::vector<int32_t> parent;           // per node, -1 for the root node (node 0)
  std::vector<double> g_axial;           // µS between the node and its parent (0 for the root)
  std::vector<double> area;              // µm² of membrane (0 for a junction node)
  std::vector<uint32_t> first_cv;        // per branch: its first CV's node
  std::vector<int32_t> distal_junction;  // per branch: the node at its x = 1 end, -1 where none
  int32_t root_junction = -1;            // the node at the root's x = 0 end, -1 where none

  size_t size() const { return parent.size(); }
  // The node holding a location: the CV containing x (NEURON's node_index: floor(x * n_cv)); at a
  // branch end its junction node, or where there is none the CV at that end; x = 0 of a non-root
  // branch is the node the branch attaches to (NEURON's sec(0)).
  size_t node_of(const Location& where) const;

  // Filled by build_layout, used by node_of.
  std::vector<int32_t> branch_parent;
  std::vector<double> branch_parent_x;
  std::vector<uint32_t> n_cv;
};

// The description must be valid.
Layout build_layout(const Description& d);

}  // namespace ranvier::cable
