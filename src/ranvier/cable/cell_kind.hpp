// A cable cell kind as the kernel holds it: the description of one Create call, and where on
// its cells a location (region or branch, x) is.
#pragma once
#include <memory>

#include "cable/description.hpp"
#include "cable/layout.hpp"
#include "models/neuron_model.hpp"

namespace ranvier::cable {

struct CableKind final : CellKind {
  explicit CableKind(std::shared_ptr<const Description> d) : description(std::move(d)), layout(build_layout(*description)) {}
  std::shared_ptr<const Description> description;  // valid
  Layout layout;                                   // its nodes, for locations before any group exists
  // Per-cell values of clamp c: clamp_cells[c][i] for cell i of the Create call; empty where
  // every cell has the description's.
  std::vector<std::vector<CurrentClamp>> clamp_cells;
};

// A location on a cell of this description: x along a region that is one unbranched branch,
// or along a branch by index; throws BadParameterError naming what is wrong.
Location locate(const Description& d, const CellLocation& where, const std::string& what);

}  // namespace ranvier::cable
