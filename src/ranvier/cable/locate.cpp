#include <string>

#include "cable/cell_kind.hpp"
#include "core/errors.hpp"

namespace ranvier::cable {

Location locate(const Description& d, const CellLocation& where, const std::string& what) {
  if (!(where.x >= 0.0 && where.x <= 1.0)) throw bad_value(what + " x", where.x, "in [0, 1]");
  if (where.branch >= 0) {
    if (size_t(where.branch) >= d.branches.size())
      throw bad_value(what + " branch", where.branch, "below " + std::to_string(d.branches.size()));
    return {uint32_t(where.branch), where.x};
  }
  int found = -1, count = 0;
  for (size_t b = 0; b < d.branches.size(); ++b)
    if (d.branches[b].name == where.region) found = found < 0 ? int(b) : found, ++count;
  if (count == 0) throw BadParameterError(what + ": the cell has no region named " + where.region);
  if (count > 1)
    throw BadParameterError(what + ": region " + where.region + " has " + std::to_string(count) +
                            " branches; name one as [\"branch\", index, x]");
  return {uint32_t(found), where.x};
}

}  // namespace ranvier::cable
