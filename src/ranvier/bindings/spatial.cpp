#include "bindings/spatial.hpp"
#include "core/errors.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

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
  m.def("connect_spatial",
        [](Kernel& k, const std::string& rule, GidArray sources, GidArray targets, const LayerArgs& source_layer,
           const LayerArgs& target_layer, DoubleArray mask, const std::vector<double>& mask_offset, DoubleArray p,
           DoubleArray weight, DoubleArray delay, int64_t degree, bool use_on_source, bool autapses, bool multapses,
           double valid_delay, uint32_t synapse) {
          spatial::SpatialRule rule_spec;
          if (rule == "pairwise_bernoulli")
            rule_spec.kind = spatial::SpatialRule::Kind::pairwise_bernoulli;
          else if (rule == "fixed_indegree")
            rule_spec.kind = spatial::SpatialRule::Kind::fixed_indegree;
          else if (rule == "fixed_outdegree")
            rule_spec.kind = spatial::SpatialRule::Kind::fixed_outdegree;
          else
            throw BadParameterError("rule " + rule + " has no spatial form");
          rule_spec.use_on_source = use_on_source;
          rule_spec.sources = layer_of(source_layer);
          rule_spec.targets = layer_of(target_layer);
          rule_spec.mask = spatial::Mask(values_of(mask), rule_spec.sources.dims);
          for (size_t k = 0; k < mask_offset.size() && k < 3; ++k) rule_spec.mask_offset[k] = mask_offset[k];
          rule_spec.p = spatial::Parameter(values_of(p));
          rule_spec.weight = spatial::Parameter(values_of(weight));
          rule_spec.delay = spatial::Parameter(values_of(delay));
          rule_spec.degree = degree;
          ConnectRequest r;
          r.rule = rule;
          r.sources = {sources.data(), sources.data() + sources.shape(0)};
          r.targets = {targets.data(), targets.data() + targets.shape(0)};
          r.allow_autapses = autapses, r.allow_multapses = multapses;
          r.delay.p0 = valid_delay;  // the rule gives every delay itself; this one is never used
          r.synapse = synapse;
          nb::gil_scoped_release release;
          r.spatial = std::make_shared<spatial::SpatialConnect>(std::move(rule_spec));
          k.network().connect(r);
        });
}
