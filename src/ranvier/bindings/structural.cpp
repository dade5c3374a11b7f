#include "bindings/structural.hpp"

#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>

#include "bindings/arrays.hpp"
#include "core/errors.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

// An element's values from Python: the growth curve by name, continuous as a bool, the others numbers.
std::map<std::string, double> element_values(const std::string& element, const nb::handle& given) {
  if (!nb::isinstance<nb::dict>(given))
    throw BadParameterError("synaptic element " + element + " must be a dict of its parameters, got " +
                            std::string(nb::str(nb::repr(given)).c_str()));
  std::map<std::string, double> out;
  for (const auto& [key_object, value] : nb::borrow<nb::dict>(given)) {
    const std::string key = nb::cast<std::string>(nb::str(key_object));
    const std::string shown = nb::str(nb::repr(value)).c_str();
    const std::vector<std::string>& curves = growth_curve_names();
    if (key == "growth_curve") {
      const auto it = nb::isinstance<nb::str>(value)
                          ? std::find(curves.begin(), curves.end(), nb::cast<std::string>(value))
                          : curves.end();
      if (it == curves.end())
        throw bad_value("synaptic element " + element + ": growth_curve", shown, "'gaussian', 'linear' or 'sigmoid'");
      out[key] = double(it - curves.begin());
    } else if (key == "continuous") {
      if (!nb::isinstance<nb::bool_>(value))
        throw bad_value("synaptic element " + element + ": continuous", shown, "True or False");
      out[key] = nb::cast<bool>(value) ? 1.0 : 0.0;
    } else {
      if (nb::isinstance<nb::bool_>(value) ||
          !(nb::isinstance<nb::float_>(value) || nb::isinstance<nb::int_>(value) || nb::hasattr(value, "__float__")))
        throw bad_value("synaptic element " + element + ": " + key, shown, "a number");
      out[key] = nb::cast<double>(value.attr("__float__")());
    }
  }
  return out;
}

LocalNetwork::ElementValues elements_of(const nb::dict& given) {
  LocalNetwork::ElementValues out;
  for (const auto& [name, values] : given) {
    const std::string element = nb::cast<std::string>(nb::str(name));
    out[element] = element_values(element, values);
  }
  return out;
}

nb::dict python_elements(const LocalNetwork::ElementValues& elements) {
  nb::dict out;
  for (const auto& [name, values] : elements) {
    nb::dict d;
    for (const auto& [key, v] : values) {
      if (key == "growth_curve")
        d[key.c_str()] = growth_curve_names()[size_t(v)];
      else if (key == "continuous")
        d[key.c_str()] = v != 0.0;
      else if (key == "z_connected")
        d[key.c_str()] = int64_t(v);
      else
        d[key.c_str()] = v;
    }
    out[name.c_str()] = d;
  }
  return out;
}

}  // namespace

void bind_structural(nb::class_<Kernel>& kernel) {
  kernel
      .def("set_synaptic_elements",
           [](Kernel& k, GidArray gids, const nb::dict& elements, bool replace) {
             k.network().set_synaptic_elements(gids_of(gids), elements_of(elements), replace);
           })
      .def("get_synaptic_elements",
           [](Kernel& k, GidArray gids) {
             nb::list out;
             for (const auto& elements : k.network().get_synaptic_elements(gids_of(gids)))
               out.append(python_elements(elements));
             return out;
           })
      .def("connect_synaptic_elements",
           [](Kernel& k, GidArray gids, Int64Array n, const std::string& name) {
             k.network().connect_synaptic_elements(gids_of(gids), {n.data(), n.data() + n.shape(0)}, name);
           })
      .def("end_run", &Kernel::end_run)
      .def_static("growth_curves", [] { return growth_curve_names(); })
      // synaptic elements as a new neuron takes them, with all their values (SetDefaults, CopyModel)
      .def_static("checked_synaptic_elements",
                  [](const nb::dict& elements) {
                    LocalNetwork::ElementValues out;
                    for (const auto& [name, values] : elements_of(elements)) {
                      SynapticElement e;
                      e.name = name;
                      e.set(values);
                      out[name] = e.get();
                    }
                    return python_elements(out);
                  })
      .def_prop_rw(
          "structural_plasticity_enabled", [](Kernel& k) { return k.structural_plasticity().enabled(); },
          [](Kernel& k, bool on) { k.structural_plasticity().enable(on); })
      // (name, synapse model id, pre element, post element, allow_autapses, allow_multapses, weight, delay)
      .def(
          "set_structural_synapses",
          [](Kernel& k,
             const std::vector<std::tuple<std::string, uint32_t, std::string, std::string, bool, bool, double, double>>&
                 entries) {
            std::vector<StructuralSynapse> synapses;
            for (const auto& [name, synapse, pre, post, autapses, multapses, weight, delay] : entries)
              synapses.push_back({name, synapse, pre, post, autapses, multapses, weight, delay});
            k.structural_plasticity().set_synapses(std::move(synapses));
          })
      .def("structural_synapses", [](Kernel& k) {
        nb::list out;
        for (const StructuralSynapse& s : k.structural_plasticity().synapses())
          out.append(
              nb::make_tuple(s.name, s.synapse, s.pre, s.post, s.allow_autapses, s.allow_multapses, s.weight, s.delay));
        return out;
      });
}
