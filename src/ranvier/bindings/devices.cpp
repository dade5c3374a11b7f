#include "bindings/devices.hpp"
#include "bindings/cable.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <type_traits>

#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

std::string shown(nb::handle v) { return nb::cast<std::string>(nb::repr(v)); }

bool is_bool(nb::handle v) {
  const std::string type = nb::cast<std::string>(nb::str(v.type().attr("__name__")));
  return nb::isinstance<nb::bool_>(v) || type == "bool_" || type == "bool";
}

bool is_integer(nb::handle v) {
  const std::string type = nb::cast<std::string>(nb::str(v.type().attr("__name__")));
  return nb::isinstance<nb::int_>(v) || type.rfind("int", 0) == 0 || type.rfind("uint", 0) == 0;
}

double number(const std::string& name, nb::handle v) {
  double x = NAN;
  if (is_bool(v) || nb::isinstance<nb::str>(v) || !nb::try_cast<double>(v, x))
    throw bad_value(name, shown(v), "a number");
  if (std::isnan(x)) throw bad_value(name, shown(v), "a number, not NaN");
  return x;
}

// v as the type of the parameter's default.
DeviceValue converted(const std::string& name, const DeviceValue& like, nb::handle v) {
  return std::visit(
      [&](const auto& d) -> DeviceValue {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, double>) {
          return number(name, v);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          int64_t n = 0;
          if (is_bool(v) || !is_integer(v) || !nb::try_cast<int64_t>(v, n))
            throw bad_value(name, shown(v), "an integer");
          return n;
        } else if constexpr (std::is_same_v<T, bool>) {
          if (!is_bool(v)) throw bad_value(name, shown(v), "True or False");
          return bool(nb::cast<bool>(v));
        } else if constexpr (std::is_same_v<T, std::string>) {
          if (!nb::isinstance<nb::str>(v)) throw bad_value(name, shown(v), "a name");
          return nb::cast<std::string>(v);
        } else if constexpr (std::is_same_v<T, NodeIds>) {  // Python passes a NodeCollection's ids
          NodeIds ids;
          if (!nb::try_cast<std::vector<uint32_t>>(v, ids.ids)) throw bad_value(name, shown(v), "node ids");
          return ids;
        } else {
          using E = typename T::value_type;
          T out;
          if (nb::isinstance<nb::str>(v) || !nb::hasattr(v, "__iter__")) throw bad_value(name, shown(v), "a list");
          for (nb::handle x : nb::iter(v)) {
            if constexpr (std::is_same_v<E, double>) {
              double y = NAN;
              if (is_bool(x) || nb::isinstance<nb::str>(x) || !nb::try_cast<double>(x, y))
                throw bad_value(name, shown(v), "a list of numbers");
              out.push_back(y);
            } else {
              if (!nb::isinstance<nb::str>(x)) throw bad_value(name, shown(v), "a list of names");
              out.push_back(nb::cast<std::string>(x));
            }
          }
          return out;
        }
      },
      like);
}

// Sets params on d (a copy, so that a rejection leaves the device as it was) and checks them.
// (now: the kernel's current step.)
void apply(Device& d, const nb::dict& params, double h, int64_t tics_per_ms, int64_t now) {
  std::vector<size_t> changed;
  for (auto [key, value] : params) {
    const std::string name = nb::cast<std::string>(key);
    if (name == "origin")
      d.origin = grid_ms(name, number(name, value), h, tics_per_ms);
    else if (name == "start")
      d.start = grid_ms(name, number(name, value), h, tics_per_ms);
    else if (name == "stop")
      d.stop = grid_ms(name, number(name, value), h, tics_per_ms);
    else if (name == "location" && d.records(Records::samples))  // a cable cell's location, converted here
      d.location = nb::hasattr(value, "__len__") && nb::len(value) == 0
                       ? std::nullopt
                       : std::optional(cell_location(value, "location"));
    else {
      const int i = index_of(d, name);
      if (i < 0) throw UnknownParameterError("device has no parameter " + name);
      d.values[size_t(i)] = converted(name, d.values[size_t(i)], value);
      changed.push_back(size_t(i));
    }
  }
  validate(d, changed, h, tics_per_ms, now);
}

}  // namespace

nb::object python_value(const DeviceValue& value) {
  return std::visit(
      [](const auto& v) -> nb::object {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, NodeIds>)
          return nb::tuple(nb::cast(v.ids));
        else
          return nb::cast(v);
      },
      value);
}

nb::dict device_parameters(Kernel& k, uint32_t gid) {
  const Device& d = k.network().device_of(gid);
  nb::dict out;
  out["origin"] = d.origin, out["start"] = d.start, out["stop"] = d.stop;
  const std::vector<DeviceParameter> own = DeviceModel{d.stimulator, d.recorder}.own_parameters(k.resolution());
  for (size_t i = 0; i < own.size(); ++i) out[own[i].name.c_str()] = python_value(d.values[i]);
  if (d.location) {  // a sampler's location on a cable cell, as it was given (apply converted it)
    const CellLocation& at = *d.location;
    nb::list where;
    where.append(at.branch >= 0 ? std::string("branch") : at.region);
    if (at.branch >= 0) where.append(at.branch);
    where.append(at.x);
    out["location"] = where;
  }
  return out;
}

void configure_devices(Kernel& k, const std::vector<uint32_t>& gids, const nb::dict& params) {
  std::vector<Device> next;
  for (uint32_t gid : gids) {
    next.push_back(k.network().device_of(gid));
    apply(next.back(), params, k.resolution(), k.tics_per_ms(), k.step());
  }
  for (size_t i = 0; i < gids.size(); ++i) k.network().device_of(gids[i]) = std::move(next[i]);
}

void check_device(const std::string& model, const nb::dict& params, double resolution, int64_t tics_per_ms) {
  Device d = DeviceModels::instance().at(model, "model").device(0, resolution);
  apply(d, params, resolution, tics_per_ms, 0);
}
