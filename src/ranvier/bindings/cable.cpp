// The user's description of a cable cell (a dictionary with NEURON's units, issue 13's form)
// read into a cable::Description; every unknown key, bad type or bad value raises an error
// naming it.
#include "bindings/cable.hpp"

#include <nanobind/stl/map.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <set>

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

double number(nb::handle h, const std::string& what) {
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
    if (!known.count(nb::cast<std::string>(nb::str(key))))
      throw UnknownParameterError(what + " has no key " + shown(key));
}

std::map<std::string, double> numbers(nb::handle h, const std::string& what) {
  std::map<std::string, double> out;
  for (auto [key, value] : dict_of(h, what)) {
    const std::string name = nb::cast<std::string>(nb::str(key));
    out[name] = number(value, what + "[" + name + "]");
  }
  return out;
}

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

void read_morphology(cable::Description& d, nb::handle h) {
  if (nb::isinstance<nb::str>(h)) {
    d.branches = cable::read_swc(nb::cast<std::string>(h));
    return;
  }
  const nb::dict m = dict_of(h, "morphology");
  only_keys(m, {"branches"}, "morphology");
  if (!m.contains("branches")) throw BadParameterError("morphology needs branches (or an SWC file name)");
  std::map<std::string, int> index;
  for (nb::handle item : nb::borrow<nb::sequence>(m["branches"])) {
    const nb::dict b = dict_of(item, "morphology branch");
    only_keys(b, {"name", "parent", "parent_x", "length", "diameter"}, "morphology branch");
    cable::Branch branch;
    if (!b.contains("name")) throw BadParameterError("morphology branch " + shown(item) + " needs a name");
    branch.name = nb::cast<std::string>(nb::str(b["name"]));
    const std::string what = "branch " + branch.name;
    if (b.contains("parent")) {
      const std::string parent = nb::cast<std::string>(nb::str(b["parent"]));
      const auto it = index.find(parent);
      if (it == index.end())
        throw BadParameterError(what + ": parent " + parent + " is not an earlier branch (a tree lists parents first)");
      branch.parent = it->second;
    }
    if (b.contains("parent_x")) branch.parent_x = number(b["parent_x"], what + " parent_x");
    if (!b.contains("length") || !b.contains("diameter")) throw BadParameterError(what + " needs length and diameter");
    branch.length = number(b["length"], what + " length");
    branch.diameter = number(b["diameter"], what + " diameter");
    if (index.count(branch.name)) throw BadParameterError("two branches are named " + branch.name);
    index[branch.name] = int(d.branches.size());
    d.branches.push_back(branch);
  }
}

void read_cv_policy(cable::Description& d, nb::handle h) {
  const nb::dict p = dict_of(h, "cv_policy");
  only_keys(p, {"per_branch", "max_length", "d_lambda"}, "cv_policy");
  if (nb::len(p) != 1) throw BadParameterError("cv_policy takes one of per_branch, max_length, d_lambda, got " + shown(h));
  if (p.contains("max_length")) return cable::cv_max_length(d, number(p["max_length"], "cv_policy max_length"));
  if (p.contains("d_lambda")) return cable::cv_d_lambda(d, number(p["d_lambda"], "cv_policy d_lambda"));
  std::map<std::string, uint32_t> per_region;
  for (const auto& [region, n] : numbers(p["per_branch"], "cv_policy per_branch")) {
    branches_of(d, region, "cv_policy per_branch");
    if (!(n >= 1 && n == std::floor(n))) throw bad_value("cv_policy per_branch " + region, n, "a positive integer");
    per_region[region] = uint32_t(n);
  }
  cable::cv_per_branch(d, per_region);
}

cable::Location place(const cable::Description& d, nb::handle h, const std::string& what) {
  return cable::locate(d, cell_location(h, what), what);
}

// The description of n cells; kind_clamps gets each clamp's per-cell values (empty: shared).
std::shared_ptr<const cable::Description> describe(const nb::dict& params, int64_t n,
                                                   std::vector<std::vector<cable::CurrentClamp>>& kind_clamps) {
  only_keys(params, {"morphology", "cv_policy", "dt", "cm", "Ra", "V_init", "celsius", "ions", "mechanisms",
                     "synapses", "spike_detector", "current_clamps"},
            "cable_cell");
  auto d = std::make_shared<cable::Description>();
  if (!params.contains("morphology")) throw BadParameterError("cable_cell needs a morphology");
  read_morphology(*d, params["morphology"]);
  for (auto [name, field] : std::initializer_list<std::pair<const char*, double*>>{
           {"dt", &d->dt}, {"cm", &d->cm}, {"Ra", &d->Ra}, {"V_init", &d->V_init}, {"celsius", &d->celsius}})
    if (params.contains(name)) *field = number(params[name], name);
  if (params.contains("cv_policy")) read_cv_policy(*d, params["cv_policy"]);  // d_lambda needs Ra and cm
  if (params.contains("ions"))
    for (auto [ion, values] : dict_of(params["ions"], "ions")) {
      const std::string name = nb::cast<std::string>(nb::str(ion));
      for (const auto& [key, value] : numbers(values, "ions[" + name + "]")) {
        if (key != "e") throw UnknownParameterError("ions[" + name + "] has no key " + key + " (only e)");
        d->ion_e[name] = value;
      }
    }
  if (params.contains("mechanisms"))
    for (auto [region, mechanisms] : dict_of(params["mechanisms"], "mechanisms")) {
      const std::string where = nb::cast<std::string>(nb::str(region));
      for (uint32_t b : branches_of(*d, where, "mechanisms"))
        for (auto [model, values] : dict_of(mechanisms, "mechanisms[" + where + "]")) {
          const std::string name = nb::cast<std::string>(nb::str(model));
          d->densities.push_back({name, b, numbers(values, "mechanisms[" + where + "][" + name + "]")});
        }
    }
  if (params.contains("synapses"))
    for (auto [key, spec] : dict_of(params["synapses"], "synapses")) {
      const std::string name = nb::cast<std::string>(nb::str(key));
      const std::string what = "synapse " + name;
      nb::dict s = dict_of(spec, what);
      if (!s.contains("model") || !s.contains("location")) throw BadParameterError(what + " needs a model and a location");
      cable::PointSynapse syn{name, nb::cast<std::string>(nb::str(s["model"])), place(*d, s["location"], what + " location"), {}};
      for (auto [p, value] : s) {
        const std::string pname = nb::cast<std::string>(nb::str(p));
        if (pname != "model" && pname != "location") syn.params[pname] = number(value, what + " " + pname);
      }
      d->synapses.push_back(std::move(syn));
    }
  if (params.contains("spike_detector")) {
    const nb::dict s = dict_of(params["spike_detector"], "spike_detector");
    only_keys(s, {"location", "threshold"}, "spike_detector");
    if (s.contains("location")) d->detector = place(*d, s["location"], "spike_detector location");
    if (s.contains("threshold")) d->threshold = number(s["threshold"], "spike_detector threshold");
  } else {
    d->detector = {0, 0.5};  // the middle of the root branch, as NEURON's soma(0.5)
  }
  if (params.contains("current_clamps"))
    for (nb::handle item : nb::borrow<nb::sequence>(params["current_clamps"])) {
      const nb::dict c = dict_of(item, "current clamp");
      only_keys(c, {"location", "delay", "duration", "amplitude"}, "current clamp");
      if (!c.contains("location")) throw BadParameterError("current clamp " + shown(item) + " needs a location");
      // each value one number, or a list with one per cell
      std::vector<cable::CurrentClamp> cells(1);
      cells[0].location = place(*d, c["location"], "current clamp location");
      for (auto field : {&cable::CurrentClamp::delay, &cable::CurrentClamp::duration, &cable::CurrentClamp::amplitude}) {
        const char* name = field == &cable::CurrentClamp::delay      ? "delay"
                           : field == &cable::CurrentClamp::duration ? "duration"
                                                                     : "amplitude";
        if (!c.contains(name)) continue;
        const std::string what = std::string("current clamp ") + name;
        if (!nb::isinstance<nb::list>(c[name]) && !nb::isinstance<nb::tuple>(c[name])) {
          for (cable::CurrentClamp& cell : cells) cell.*field = number(c[name], what);
          continue;
        }
        const nb::sequence values = nb::borrow<nb::sequence>(c[name]);
        if (nb::len(values) != size_t(n))
          throw BadParameterError(what + " needs one value per cell (" + std::to_string(n) + "), got " +
                                  std::to_string(nb::len(values)));
        cells.resize(size_t(n), cells[0]);
        for (size_t i = 0; i < size_t(n); ++i) {
          cells[i].*field = number(values[i], what);
          cable::validate_timing(cells[i], what + " of cell " + std::to_string(i));
        }
      }
      d->clamps.push_back(cells[0]);
      kind_clamps.push_back(cells.size() > 1 ? std::move(cells) : std::vector<cable::CurrentClamp>{});
    }
  cable::validate(*d);
  return d;
}

}  // namespace

void bind_cable(nb::module_& m) {
  nb::class_<cable::CableKind>(m, "CableKind")
      .def_prop_ro("synapse_names", [](const cable::CableKind& k) {
        std::vector<std::string> names;
        for (const auto& s : k.description->synapses) names.push_back(s.name);
        return names;
      })
      .def_prop_ro("branches", [](const cable::CableKind& k) {  // as read and discretised
        nb::list out;
        for (const cable::Branch& b : k.description->branches) {
          nb::dict d;
          d["name"] = b.name, d["parent"] = b.parent, d["parent_x"] = b.parent_x;
          d["length"] = b.length, d["diameter"] = b.diameter, d["n_cv"] = b.n_cv;
          out.append(d);
        }
        return out;
      });
  m.def("cable_kind", [](const nb::dict& params, int64_t n) {
    std::vector<std::vector<cable::CurrentClamp>> clamps;
    auto kind = std::make_shared<cable::CableKind>(describe(params, n, clamps));
    kind->clamp_cells = std::move(clamps);
    return kind;
  });
  m.def("create_cable_cells", [](Kernel& k, std::shared_ptr<cable::CableKind> kind, int64_t n, int area) {
    return k.create_neurons("cable_cell", n, area, std::move(kind));
  });
  m.def("cable_mechanisms", [] {
    std::map<std::string, std::map<std::string, double>> out;
    for (const char* name : {"hh", "pas"}) out[name] = *cable::density_defaults(name);
    for (const char* name : {"expsyn", "exp2syn"}) out[name] = *cable::synapse_defaults(name);
    return out;
  });
}
