#include "bindings/spatial.hpp"
#include "core/errors.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <map>

#include "bindings/arrays.hpp"
#include "kernel/kernel.hpp"
#include "spatial/spatial_connect.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

std::vector<double> values_of(const DoubleArray& a) { return {a.data(), a.data() + a.shape(0)}; }

// (positions flattened, dims, lower_left, extent, periodic)
using LayerArgs = std::tuple<DoubleArray, int, std::vector<double>, std::vector<double>, bool>;
spatial::LayerGeometry layer_of(const LayerArgs& a) {
  spatial::LayerGeometry g;
  g.positions = values_of(std::get<0>(a));
  g.dims = std::get<1>(a);
  for (int k = 0; k < g.dims; ++k) g.lower_left[k] = std::get<2>(a)[size_t(k)], g.extent[k] = std::get<3>(a)[size_t(k)];
  g.periodic = std::get<4>(a);
  return g;
}

// A spatial Connect call as spatial/connect.py describes it, field by field: the programs of
// the mask and of the spatial parameters (spatial/*.hpp read them), the rule's degree and flags.
struct SpatialCall {
  std::string rule;
  std::vector<double> mask, mask_offset, p, weight, delay;
  int64_t degree = 0;
  bool use_on_source = false, allow_autapses = true, allow_multapses = true;
  uint32_t synapse = 0;
  uint32_t receptor = 0;                     // the targets' input port (receptor_type)
  std::map<std::string, double> parameters;  // of each connection's record (one number each)
};

}  // namespace

void bind_spatial(nb::module_& m) {
  m.def("mask_contains", [](DoubleArray program, int dims, DoubleArray points) {
    const spatial::Mask mask(values_of(program), dims);
    std::vector<uint8_t> inside(points.shape(0) / size_t(dims));
    for (size_t i = 0; i < inside.size(); ++i) inside[i] = mask.contains(points.data() + i * size_t(dims));
    return inside;
  });
  // Values of a spatial parameter for pairs given by positions (n x dims, flattened) and
  // their displacements; random leaves draw from streams of (seed, call 0, pair index).
  m.def("spatial_parameter_values", [](DoubleArray program, int dims, DoubleArray sources, DoubleArray targets,
                                       DoubleArray displacements, uint32_t seed) {
    const spatial::Parameter parameter(values_of(program));
    std::vector<double> out(displacements.shape(0) / size_t(dims));
    const Stream stream(seed, Purpose::connect_count, 0, 0);
    for (size_t i = 0; i < out.size(); ++i) {
      const size_t at = i * size_t(dims);
      const spatial::PairGeometry g{sources.data() + at, targets.data() + at, displacements.data() + at, dims};
      out[i] = parameter.value(g, stream, i);
    }
    return out;
  });
  m.def("mask_bounds", [](DoubleArray program, int dims) {
    const spatial::Box b = spatial::Mask(values_of(program), dims).bounds();
    return std::make_pair(std::vector<double>(b.lower, b.lower + 3), std::vector<double>(b.upper, b.upper + 3));
  });
  // name -> (its conn_spec keys beyond rule and the flags, the key of its degree or None)
  m.def("spatial_rules", [] {
    nb::dict out;
    for (const auto& [name, form] : spatial::spatial_rule_forms())
      out[name.c_str()] = nb::make_tuple(form.parameters, form.degree ? nb::object(nb::str(form.degree)) : nb::none());
    return out;
  });
  nb::class_<SpatialCall>(m, "SpatialCall")
      .def(nb::init<>())
      .def_rw("rule", &SpatialCall::rule)
      .def_rw("mask", &SpatialCall::mask)
      .def_rw("mask_offset", &SpatialCall::mask_offset)
      .def_rw("p", &SpatialCall::p)
      .def_rw("weight", &SpatialCall::weight)
      .def_rw("delay", &SpatialCall::delay)
      .def_rw("degree", &SpatialCall::degree)
      .def_rw("use_on_source", &SpatialCall::use_on_source)
      .def_rw("allow_autapses", &SpatialCall::allow_autapses)
      .def_rw("allow_multapses", &SpatialCall::allow_multapses)
      .def_rw("synapse", &SpatialCall::synapse)
      .def_rw("receptor", &SpatialCall::receptor)
      .def_rw("parameters", &SpatialCall::parameters);
  m.def("connect_spatial", [](Kernel& k, GidArray sources, GidArray targets, const LayerArgs& source_layer,
                              const LayerArgs& target_layer, const SpatialCall& call) {
    const auto form = spatial::spatial_rule_forms().find(call.rule);
    if (form == spatial::spatial_rule_forms().end())
      throw BadParameterError("rule " + call.rule + " has no spatial form");
    spatial::SpatialRule rule;
    rule.kind = form->second.kind;
    rule.use_on_source = call.use_on_source;
    rule.sources = layer_of(source_layer);
    rule.targets = layer_of(target_layer);
    rule.mask = spatial::Mask(call.mask, rule.sources.dims);
    for (size_t d = 0; d < call.mask_offset.size() && d < 3; ++d) rule.mask_offset[d] = call.mask_offset[d];
    rule.p = spatial::Parameter(call.p);
    rule.weight = spatial::Parameter(call.weight);
    rule.delay = spatial::Parameter(call.delay);
    rule.degree = call.degree;
    ConnectRequest r;
    r.rule = call.rule;
    r.sources = gids_of(sources), r.targets = gids_of(targets);
    r.allow_autapses = call.allow_autapses, r.allow_multapses = call.allow_multapses;
    r.delay.p0 = k.resolution();  // the rule gives every delay itself; this valid one is never used
    r.synapse = call.synapse;
    r.receptor = call.receptor;
    r.parameters = call.parameters;
    nb::gil_scoped_release release;
    r.spatial = std::make_shared<spatial::SpatialConnect>(std::move(rule));
    k.network().connect(r);
  });
}
