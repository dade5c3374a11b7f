#include "bindings/cm.hpp"

#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <utility>

#include "bindings/arrays.hpp"
#include "core/errors.hpp"
#include "kernel/kernel.hpp"
#include "models/cm_tree.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

// A dict or a list of dicts, as NEST takes both.
std::vector<nb::dict> dicts(nb::handle value, const std::string& name) {
  if (nb::isinstance<nb::dict>(value)) return {nb::borrow<nb::dict>(value)};
  std::vector<nb::dict> out;
  if (nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value))
    for (nb::handle item : value) {
      if (!nb::isinstance<nb::dict>(item)) break;
      out.push_back(nb::borrow<nb::dict>(item));
    }
  if (out.size() != size_t(nb::len(value)))
    throw BadParameterError(name + " must be a dict or a list of dicts (NEST's form), got " +
                            nb::cast<std::string>(nb::repr(value)));
  return out;
}

// d's entry `key` (an error where it is required and missing).
template <typename T>
T entry(const nb::dict& d, const char* key, const std::string& what, std::optional<T> otherwise = std::nullopt) {
  if (!d.contains(key)) {
    if (!otherwise) throw BadParameterError(what + " needs " + key);
    return *otherwise;
  }
  try {
    return nb::cast<T>(d[key]);
  } catch (const nb::cast_error&) {
    throw BadParameterError(what + ": " + key + " has the wrong type, got " + nb::cast<std::string>(nb::repr(d[key])));
  }
}

// Any key of d but `keys` is an error, as NEST's UnaccessedDictionaryEntry.
void only(const nb::dict& d, std::initializer_list<std::string> keys, const std::string& what) {
  for (auto [key, _] : d) {
    const std::string k = nb::cast<std::string>(nb::str(key));
    if (std::find(keys.begin(), keys.end(), k) == keys.end())
      throw UnknownParameterError(what + " has no entry " + k + " (unread entry)");
  }
}

using Params = std::map<std::string, double>;

void add_compartments(CmKind& tree, nb::handle value, const std::string& name) {
  for (const nb::dict& d : dicts(value, name)) {
    const std::string what = "a compartment of cm_default";
    only(d, {"parent_idx", "params"}, what);
    tree.add_compartment(entry<int64_t>(d, "parent_idx", what), entry<Params>(d, "params", what, Params{}));
  }
}

void add_receptors(CmKind& tree, nb::handle value, const std::string& name) {
  for (const nb::dict& d : dicts(value, name)) {
    const std::string what = "a receptor of cm_default";
    only(d, {"comp_idx", "receptor_type", "params"}, what);
    tree.add_receptor(entry<int64_t>(d, "comp_idx", what), entry<std::string>(d, "receptor_type", what),
                      entry<Params>(d, "params", what, Params{}));
  }
}

// NEST's SetStatus of cm_default: compartments, add_compartments, receptors, add_receptors, in
// that order; compartments and receptors only where the tree has none yet.
LocalNetwork::NewKind changed(const CellKind* kind, const nb::dict& values) {
  const auto* tree = dynamic_cast<const CmKind*>(kind);
  if (!tree) throw UnknownParameterError("only cm_default has compartments and receptors");
  auto next = std::make_shared<CmKind>(*tree);
  if (values.contains("compartments")) {
    if (!next->compartments.empty()) throw BadParameterError("'compartments' is already defined for this model");
    add_compartments(*next, values["compartments"], "compartments");
  }
  if (values.contains("add_compartments")) add_compartments(*next, values["add_compartments"], "add_compartments");
  if (values.contains("receptors")) {
    if (!next->receptors.empty()) throw BadParameterError("'receptors' is already defined for this model");
    add_receptors(*next, values["receptors"], "receptors");
  }
  if (values.contains("add_receptors")) add_receptors(*next, values["add_receptors"], "add_receptors");
  const auto ports = [](const CmKind& t) { return std::max(t.compartments.size(), t.receptors.size()); };
  return {next, ports(*next) != ports(*tree)};
}

// What GetStatus shows: compartments (comp_idx, parent_idx), receptors in NEST's order (by
// compartment, then type), and the recordables; and the tree's definition.
nb::dict structure(const CmKind& tree) {
  nb::list compartments, receptors;
  for (size_t c = 0; c < tree.compartments.size(); ++c) {
    nb::dict d;
    d["comp_idx"] = c;
    d["parent_idx"] = tree.compartments[c].parent;
    compartments.append(d);
  }
  std::vector<size_t> order(tree.receptors.size());
  for (size_t r = 0; r < order.size(); ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const CmReceptor &x = tree.receptors[a], &y = tree.receptors[b];
    return std::pair{x.compartment, x.type} < std::pair{y.compartment, y.type};
  });
  for (size_t r : order) {
    nb::dict d;
    d["receptor_idx"] = r;
    d["comp_idx"] = tree.receptors[r].compartment;
    d["receptor_type"] = CmKind::type_name(tree.receptors[r].type);
    receptors.append(d);
  }
  nb::list definition_compartments, definition_receptors;  // in index order, with every parameter
  for (const CmCompartment& c : tree.compartments) {
    nb::dict d;
    d["parent_idx"] = c.parent;
    d["params"] = CmKind::parameters(c);
    definition_compartments.append(d);
  }
  for (const CmReceptor& r : tree.receptors) {
    nb::dict d;
    d["comp_idx"] = r.compartment;
    d["receptor_type"] = CmKind::type_name(r.type);
    d["params"] = CmKind::parameters(r);
    definition_receptors.append(d);
  }
  nb::dict definition;
  definition["compartments"] = definition_compartments;
  definition["receptors"] = definition_receptors;
  std::vector<std::string> recordables = tree.recordables();
  std::sort(recordables.begin(), recordables.end());
  nb::dict out;
  out["compartments"] = compartments;
  out["receptors"] = receptors;
  out["recordables"] = recordables;
  out["definition"] = definition;  // what sets them again (checkpoints)
  return out;
}

}  // namespace

namespace {
bool is_cm(const NeuronModel& model) { return dynamic_cast<const CmKind*>(model.default_kind().get()); }
}  // namespace

std::vector<const char*> cm_structure_names(const NeuronModel& model) {
  if (!is_cm(model)) return {};
  return {"compartments", "receptors"};
}

void bind_cm(nb::module_& m) {
  m.def("cm_models", [] {  // the models whose cells are a tree of compartments
    std::vector<std::string> out;
    for (const std::string& name : NeuronModels::instance().names())
      if (is_cm(**NeuronModels::instance().find(name))) out.push_back(name);
    return out;
  });
  m.def("cm_set", [](Kernel& k, GidArray gids, const nb::dict& values) {
    k.network().set_kind(gids_of(gids), "compartments and receptors",
                         [&](const NodeRange& range) { return changed(range.kind.get(), values); });
  });
  m.def("cm_get", [](Kernel& k, uint32_t gid) {
    const auto* tree = dynamic_cast<const CmKind*>(std::as_const(k.network()).range_of(gid).kind.get());
    if (!tree) throw UnknownParameterError("node " + std::to_string(gid) + " has no compartments (not cm_default)");
    return structure(*tree);
  });
}
