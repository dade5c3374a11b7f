// The user's description of a cable cell (a dictionary with NEURON's units, issue 13's form)
// read into a cable::Description; every unknown key, bad type or bad value raises an error
// naming it.
#include "bindings/cable.hpp"

#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <functional>
#include <optional>
#include <set>
#include <tuple>

#include "bindings/arrays.hpp"
#include "cable/cell_kind.hpp"
#include "cable/mechanisms.hpp"
#include "cable/swc.hpp"
#include "core/errors.hpp"
#include "kernel/kernel.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

std::string shown(nb::handle h) { return nb::cast<std::string>(nb::repr(h)); }

bool is_list(nb::handle h) { return nb::isinstance<nb::list>(h) || nb::isinstance<nb::tuple>(h); }

// A name (a key, a branch, a region): a string; another value is named in the error.
std::string text(nb::handle h, const std::string& what) {
  if (!nb::isinstance<nb::str>(h)) throw BadParameterError(what + " must be a name (a str), got " + shown(h));
  return nb::cast<std::string>(h);
}

// A scalar that all cells share: those that set the tree and its CVs.
double number(nb::handle h, const std::string& what) {
  if (is_list(h))
    throw BadParameterError(what +
                            " cannot differ between cells (it sets the tree or its CVs): give one number "
                            "(one Create call per value), got " +
                            what + " = " + shown(h));
  if (nb::isinstance<nb::bool_>(h) || !(nb::isinstance<nb::float_>(h) || nb::isinstance<nb::int_>(h)))
    throw BadParameterError(what + " must be a number, got " + what + " = " + shown(h));
  return nb::cast<double>(h);
}

nb::dict dict_of(nb::handle h, const std::string& what) {
  if (!nb::isinstance<nb::dict>(h)) throw BadParameterError(what + " must be a dict, got " + what + " = " + shown(h));
  return nb::borrow<nb::dict>(h);
}

void only_keys(const nb::dict& d, const std::set<std::string>& known, const std::string& what) {
  for (auto [key, value] : d)
    if (!known.count(text(key, "a key of " + what))) throw UnknownParameterError(what + " has no key " + shown(key));
}

std::map<std::string, double> numbers(nb::handle h, const std::string& what) {
  std::map<std::string, double> out;
  for (auto [key, value] : dict_of(h, what)) {
    const std::string name = text(key, "a key of " + what);
    out[name] = number(value, what + "[" + name + "]");
  }
  return out;
}

// The scalars of n cells that may differ between them: one number, or a list with one per cell
// (Python draws random Parameters into such lists). The description gets cell 0's value, and
// the kind's per_cell the others (cable::CableKind::CellValues).
struct CellScalars {
  int64_t n;
  std::vector<cable::CableKind::CellValues>& per_cell;

  using Setter = std::function<void(cable::Description&, double)>;
  double read(nb::handle h, const std::string& what, Setter set) {
    if (!is_list(h)) return number(h, what);
    const nb::sequence values = nb::borrow<nb::sequence>(h);
    if (nb::len(values) != size_t(n))
      throw BadParameterError(what + " needs one value per cell (" + std::to_string(n) + "), got " +
                              std::to_string(nb::len(values)) + " values");
    std::vector<double> out(static_cast<size_t>(n));
    for (size_t i = 0; i < size_t(n); ++i) out[i] = number(values[i], what + " of cell " + std::to_string(i));
    per_cell.push_back({std::move(set), out});
    return out[0];
  }
  bool varies(const std::string& what) const { return varying.count(what) > 0; }
  std::set<std::string> varying;  // the top-level keys read per cell
};

}  // namespace

// [region, x] or ["branch", index, x]
CellLocation cell_location(nb::handle h, const std::string& what) {
  if (!nb::isinstance<nb::list>(h) && !nb::isinstance<nb::tuple>(h))
    throw BadParameterError(what + " must be [region, x] or [\"branch\", index, x], got " + what + " = " + shown(h));
  const nb::sequence s = nb::borrow<nb::sequence>(h);
  const size_t n = nb::len(s);
  CellLocation at;
  if ((n == 2 || n == 3) && nb::isinstance<nb::str>(s[0])) {
    at.region = nb::cast<std::string>(s[0]);
    if (n == 3 && at.region == "branch") {
      at.branch = int(number(s[1], what + " branch"));
      at.x = number(s[2], what + " x");
      return at;
    }
    if (n == 2) {
      at.x = number(s[1], what + " x");
      return at;
    }
  }
  throw BadParameterError(what + " must be [region, x] or [\"branch\", index, x], got " + what + " = " + shown(h));
}

namespace {

std::vector<uint32_t> branches_of(const cable::Description& d, const std::string& region, const std::string& what) {
  std::vector<uint32_t> out;
  for (uint32_t b = 0; b < d.branches.size(); ++b)
    if (d.branches[b].name == region) out.push_back(b);
  if (out.empty()) throw BadParameterError(what + ": the cell has no region named " + region);
  return out;
}

// {"swc": path, "replace_axon": [{"length": ..., "diameter": ...}, ...]}: the file's tree with
// its axon replaced by a chain of cylinders (cable::replace_axon).
void read_swc_morphology(cable::Description& d, const nb::dict& m) {
  only_keys(m, {"swc", "replace_axon"}, "morphology");
  d.branches = cable::read_swc(text(m["swc"], "morphology swc (an SWC file's path)"));
  if (!m.contains("replace_axon")) return;
  std::vector<cable::Branch> stub;
  for (nb::handle item : nb::borrow<nb::sequence>(m["replace_axon"])) {
    const nb::dict b = dict_of(item, "morphology replace_axon item");
    only_keys(b, {"length", "diameter"}, "morphology replace_axon item");
    if (!b.contains("length") || !b.contains("diameter"))
      throw BadParameterError("morphology replace_axon item " + shown(item) + " needs length and diameter");
    stub.push_back({.name = "axon",
                    .length = number(b["length"], "replace_axon length"),
                    .diameter = number(b["diameter"], "replace_axon diameter")});
  }
  cable::replace_axon(d.branches, stub);
}

void read_morphology(cable::Description& d, nb::handle h) {
  if (nb::isinstance<nb::str>(h)) {
    d.branches = cable::read_swc(nb::cast<std::string>(h));
    return;
  }
  const nb::dict m = dict_of(h, "morphology");
  if (m.contains("swc")) return read_swc_morphology(d, m);
  only_keys(m, {"branches"}, "morphology");
  if (!m.contains("branches"))
    throw BadParameterError("morphology needs branches (or an SWC file: its path, or {\"swc\": path, ...})");
  std::map<std::string, int> index;
  for (nb::handle item : nb::borrow<nb::sequence>(m["branches"])) {
    const nb::dict b = dict_of(item, "morphology branch");
    only_keys(b, {"name", "parent", "parent_x", "length", "diameter"}, "morphology branch");
    cable::Branch branch;
    if (!b.contains("name")) throw BadParameterError("morphology branch " + shown(item) + " needs a name");
    branch.name = text(b["name"], "a morphology branch's name");
    const std::string what = "branch " + branch.name;
    if (b.contains("parent")) {
      const std::string parent = text(b["parent"], what + ": parent (an earlier branch's name)");
      const auto it = index.find(parent);
      if (it == index.end())
        throw BadParameterError(what + ": parent " + parent + " is not an earlier branch (a tree lists parents first)");
      branch.parent = it->second;
    }
    if (b.contains("parent_x")) branch.parent_x = number(b["parent_x"], what + " parent_x");
    if (!b.contains("length") || !b.contains("diameter")) throw BadParameterError(what + " needs length and diameter");
    branch.length = number(b["length"], what + " length");
    if (is_list(b["diameter"])) {  // a truncated cone
      const nb::sequence ends = nb::borrow<nb::sequence>(b["diameter"]);
      if (nb::len(ends) != 2)
        throw BadParameterError(what + " diameter must be a number or [proximal, distal] (a tapered branch), got " +
                                what + " diameter = " + shown(b["diameter"]));
      branch.diameter = number(ends[0], what + " proximal diameter");
      branch.taper = {{0.0, branch.diameter}, {1.0, number(ends[1], what + " distal diameter")}};
    } else {
      branch.diameter = number(b["diameter"], what + " diameter");
    }
    if (index.count(branch.name)) throw BadParameterError("two branches are named " + branch.name);
    index[branch.name] = int(d.branches.size());
    d.branches.push_back(branch);
  }
}

void read_cv_policy(cable::Description& d, nb::handle h) {
  const nb::dict p = dict_of(h, "cv_policy");
  only_keys(p, {"per_branch", "max_length", "d_lambda", "odd_per_length"}, "cv_policy");
  if (nb::len(p) != 1)
    throw BadParameterError("cv_policy takes one of per_branch, max_length, d_lambda, odd_per_length, got " + shown(h));
  if (p.contains("max_length")) return cable::cv_max_length(d, number(p["max_length"], "cv_policy max_length"));
  if (p.contains("odd_per_length"))
    return cable::cv_odd_per_length(d, number(p["odd_per_length"], "cv_policy odd_per_length"));
  if (p.contains("d_lambda")) return cable::cv_d_lambda(d, number(p["d_lambda"], "cv_policy d_lambda"));
  std::map<std::string, uint32_t> per_region;
  for (const auto& [region, n] : numbers(p["per_branch"], "cv_policy per_branch")) {
    branches_of(d, region, "cv_policy per_branch");
    if (!(n >= 1 && n == std::floor(n) && n <= double(UINT32_MAX)))
      throw bad_value("cv_policy per_branch " + region, n, "a positive integer below 2^32");
    per_region[region] = uint32_t(n);
  }
  cable::cv_per_branch(d, per_region);
}

cable::Location place(const cable::Description& d, nb::handle h, const std::string& what) {
  return cable::locate(d, cell_location(h, what), what);
}

// A value for the whole cell (a number, or a list of one per cell), returned, or {region: value}
// for the branches of each region, set through `own` (returning nothing).
using BranchSetter = std::function<void(cable::Branch&, double)>;
std::optional<double> by_region(cable::Description& d, CellScalars& cells, nb::handle h, const std::string& what,
                                CellScalars::Setter whole, const BranchSetter& own) {
  if (!nb::isinstance<nb::dict>(h)) return cells.read(h, what, std::move(whole));
  for (auto [key, value] : nb::borrow<nb::dict>(h)) {
    const std::string region = text(key, "a region of " + what);
    const std::vector<uint32_t> branches = branches_of(d, region, what);
    const double first = cells.read(value, what + "[" + region + "]", [branches, own](cable::Description& c, double v) {
      for (uint32_t b : branches) own(c.branches[b], v);
    });
    for (uint32_t b : branches) own(d.branches[b], first);
  }
  return std::nullopt;
}

// Each cell's values are validated with the cell's index (cable::validate names the item).
void validate_cells(const cable::Description& d, const std::vector<cable::CableKind::CellValues>& per_cell, int64_t n) {
  for (int64_t i = 1; i < n && !per_cell.empty(); ++i) {
    cable::Description mine = d;
    for (const auto& v : per_cell) v.set(mine, v.values[size_t(i)]);
    try {
      cable::validate(mine);
    } catch (const BadParameterError& e) {
      throw BadParameterError(std::string(e.what()) + " (cell " + std::to_string(i) + " of the Create call)");
    }
  }
}

// The description of n cells; per_cell gets the scalars that differ between them.
std::shared_ptr<const cable::Description> describe(const nb::dict& params, int64_t n,
                                                   std::vector<cable::CableKind::CellValues>& per_cell) {
  only_keys(params,
            {"morphology", "cv_policy", "dt", "cm", "Ra", "V_init", "celsius", "ions", "mechanisms", "synapses",
             "spike_detector", "current_clamps"},
            "cable_cell");
  CellScalars cells{n, per_cell};
  auto d = std::make_shared<cable::Description>();
  if (params.contains("morphology"))
    read_morphology(*d, params["morphology"]);
  else  // NEURON's h.Section(): one section of 100 um x 500 um, here the region "soma"
    d->branches = {cable::Branch{.name = "soma", .length = 100.0, .diameter = 500.0}};
  if (params.contains("dt")) d->dt = number(params["dt"], "dt");  // the cells step together
  for (auto [name, field] : std::initializer_list<std::pair<const char*, double cable::Description::*>>{
           {"V_init", &cable::Description::V_init}, {"celsius", &cable::Description::celsius}})
    if (params.contains(name))
      (*d).*field = cells.read(params[name], name, [field](cable::Description& c, double v) { c.*field = v; });
  for (auto [name, field, own] :
       std::initializer_list<std::tuple<const char*, double cable::Description::*, double cable::Branch::*>>{
           {"cm", &cable::Description::cm, &cable::Branch::cm}, {"Ra", &cable::Description::Ra, &cable::Branch::Ra}})
    if (params.contains(name)) {
      const size_t before = per_cell.size();
      const auto whole = by_region(
          *d, cells, params[name], name, [field](cable::Description& c, double v) { c.*field = v; },
          [own](cable::Branch& b, double v) { b.*own = v; });
      if (whole) (*d).*field = *whole;
      if (per_cell.size() > before) cells.varying.insert(name);
    }
  if (params.contains("cv_policy")) {
    const nb::dict p = dict_of(params["cv_policy"], "cv_policy");
    for (const char* name : {"cm", "Ra"})
      if (p.contains("d_lambda") && cells.varies(name))
        throw BadParameterError(std::string(name) +
                                " differs between cells, but cv_policy d_lambda sets the CVs from "
                                "it: give one " +
                                name + " or another cv_policy");
    read_cv_policy(*d, params["cv_policy"]);  // d_lambda needs Ra and cm
  }
  if (params.contains("ions"))
    for (auto [ion, values] : dict_of(params["ions"], "ions")) {
      const std::string name = text(ion, "an ion of ions");
      for (auto [key, value] : dict_of(values, "ions[" + name + "]")) {
        if (text(key, "a key of ions[" + name + "]") != "e")
          throw UnknownParameterError("ions[" + name + "] has no key " + shown(key) + " (only e)");
        const auto e = by_region(
            *d, cells, value, "ions[" + name + "][e]", [name](cable::Description& c, double v) { c.ion_e[name] = v; },
            [name](cable::Branch& b, double v) { b.ion_e[name] = v; });
        if (e) d->ion_e[name] = *e;
      }
    }
  if (params.contains("mechanisms"))
    for (auto [region, mechanisms] : dict_of(params["mechanisms"], "mechanisms")) {
      const std::string where = text(region, "a region of mechanisms");
      for (uint32_t b : branches_of(*d, where, "mechanisms"))
        for (auto [model, values] : dict_of(mechanisms, "mechanisms[" + where + "]")) {
          const std::string name = text(model, "a mechanism of mechanisms[" + where + "]"),
                            what = "mechanisms[" + where + "][" + name + "]";
          const size_t index = d->densities.size();
          d->densities.push_back({name, b, {}});
          for (auto [key, value] : dict_of(values, what)) {
            const std::string param = text(key, "a parameter of " + what);
            d->densities[index].params[param] =
                cells.read(value, what + "[" + param + "]",
                           [index, param](cable::Description& c, double v) { c.densities[index].params[param] = v; });
          }
        }
    }
  if (params.contains("synapses"))
    for (auto [key, spec] : dict_of(params["synapses"], "synapses")) {
      const std::string name = text(key, "a synapse's name");
      const std::string what = "synapse " + name;
      nb::dict s = dict_of(spec, what);
      if (!s.contains("model") || !s.contains("location"))
        throw BadParameterError(what + " needs a model and a location");
      const size_t index = d->synapses.size();
      d->synapses.push_back(
          {name, text(s["model"], what + " model"), place(*d, s["location"], what + " location"), {}});
      for (auto [p, value] : s) {
        const std::string param = text(p, "a parameter of " + what);
        if (param != "model" && param != "location")
          d->synapses[index].params[param] =
              cells.read(value, what + " " + param,
                         [index, param](cable::Description& c, double v) { c.synapses[index].params[param] = v; });
      }
    }
  if (params.contains("spike_detector")) {
    const nb::dict s = dict_of(params["spike_detector"], "spike_detector");
    only_keys(s, {"location", "threshold"}, "spike_detector");
    if (s.contains("location")) d->detector = place(*d, s["location"], "spike_detector location");
    if (s.contains("threshold"))
      d->threshold = cells.read(s["threshold"], "spike_detector threshold",
                                [](cable::Description& c, double v) { c.threshold = v; });
  } else {
    d->detector = {0, 0.5};  // the middle of the root branch, as NEURON's soma(0.5)
  }
  if (params.contains("current_clamps"))
    for (nb::handle item : nb::borrow<nb::sequence>(params["current_clamps"])) {
      const nb::dict c = dict_of(item, "current clamp");
      only_keys(c, {"location", "delay", "duration", "amplitude"}, "current clamp");
      if (!c.contains("location")) throw BadParameterError("current clamp " + shown(item) + " needs a location");
      const size_t index = d->clamps.size();
      d->clamps.push_back({place(*d, c["location"], "current clamp location")});
      for (auto [name, field] : std::initializer_list<std::pair<const char*, double cable::CurrentClamp::*>>{
               {"delay", &cable::CurrentClamp::delay},
               {"duration", &cable::CurrentClamp::duration},
               {"amplitude", &cable::CurrentClamp::amplitude}})
        if (c.contains(name))
          d->clamps[index].*field =
              cells.read(c[name], std::string("current clamp ") + name,
                         [index, field](cable::Description& cell, double v) { cell.clamps[index].*field = v; });
    }
  cable::validate(*d);
  validate_cells(*d, per_cell, n);
  return d;
}

}  // namespace

void bind_cable(nb::module_& m) {
  nb::class_<cable::CableKind>(m, "CableKind")
      .def_prop_ro("synapse_names",
                   [](const cable::CableKind& k) {
                     std::vector<std::string> names;
                     for (const auto& s : k.description->synapses) names.push_back(s.name);
                     return names;
                   })
      .def_prop_ro("branches", [](const cable::CableKind& k) {  // as read and discretised
        nb::list out;
        for (const cable::Branch& b : k.description->branches) {
          nb::dict d;
          d["name"] = b.name, d["parent"] = b.parent, d["parent_x"] = b.parent_x;
          d["length"] = b.length, d["n_cv"] = b.n_cv;
          if (b.taper.empty()) {
            d["diameter"] = b.diameter;
          } else {  // its ends, and the (x, diameter) points
            d["diameter"] = nb::make_tuple(b.taper.front().second, b.taper.back().second);
            d["taper"] = b.taper;
          }
          out.append(d);
        }
        return out;
      });
  m.def("cable_kind", [](const nb::dict& params, int64_t n) {
    std::vector<cable::CableKind::CellValues> per_cell;
    auto kind = std::make_shared<cable::CableKind>(describe(params, n, per_cell));
    kind->per_cell = std::move(per_cell);
    return kind;
  });
  m.def("create_cable_cells", [](Kernel& k, std::shared_ptr<cable::CableKind> kind, int64_t n, int area) {
    return k.network().create_neurons("cable_cell", n, area, std::move(kind));
  });
  m.def("cable_mechanisms", [] {  // (density mechanisms, synapse models), each with its defaults
    return std::make_pair(cable::density_mechanisms(), cable::synapse_mechanisms());
  });
}
