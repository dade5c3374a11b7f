// A cable cell kind as the kernel holds it: the description of one Create call, and where on
// its cells a location (region or branch, x) is.
#pragma once
#include <functional>
#include <memory>

#include "cable/description.hpp"
#include "cable/layout.hpp"
#include "models/neuron_model.hpp"

namespace ranvier::cable {

struct CableKind final : CellKind {
  explicit CableKind(std::shared_ptr<const Description> d)
      : description(std::move(d)), layout(build_layout(*description)) {}
  std::shared_ptr<const Description> description;  // valid
  Layout layout;                                   // its nodes, for locations before any group exists
  // The scalars that differ between the cells of the Create call: `set` writes a value into a
  // description, values[i] is cell i's (the description holds cell 0's).
  struct CellValues {
    std::function<void(Description&, double)> set;
    std::vector<double> values;
  };
  std::vector<CellValues> per_cell;
  // Cell i's own values written into d (a copy of the description).
  void vary(size_t cell, Description& d) const {
    for (const CellValues& v : per_cell) v.set(d, v.values[cell]);
  }
};

// A location on a cell of this description: x along a region that is one unbranched branch,
// or along a branch by index; throws BadParameterError naming what is wrong.
Location locate(const Description& d, const CellLocation& where, const std::string& what);

}  // namespace ranvier::cable
