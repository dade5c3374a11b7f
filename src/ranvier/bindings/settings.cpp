// The kernel settings' declarations as Python learns them, and SetKernelStatus's checks.
#include "bindings/settings.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include "core/errors.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

const char* type_name(SettingType t) {
  switch (t) {
    case SettingType::integer:
      return "integer";
    case SettingType::real:
      return "real";
    case SettingType::boolean:
      return "boolean";
    case SettingType::text:
      return "text";
  }
  return "";
}

const char* phase_name(SettingPhase p) {
  switch (p) {
    case SettingPhase::empty_kernel:
      return "empty_kernel";
    case SettingPhase::before_connections:
      return "before_connections";
    case SettingPhase::any_time:
      return "any_time";
  }
  return "";
}

// A numpy scalar's kind ('b', 'i', 'u', 'f'), 0 for anything else.
char numpy_kind(nb::handle h) {
  if (!nb::hasattr(h, "dtype") || !nb::hasattr(h, "item")) return 0;
  const std::string kind = nb::cast<std::string>(nb::str(h.attr("dtype").attr("kind")));
  return kind.size() == 1 ? kind[0] : 0;
}

SettingValue setting_value(const std::string& name, nb::handle h) {
  const char numpy = numpy_kind(h);
  const auto refuse = [&] {
    return BadParameterError(name + " must be " + setting_rule(kernel_setting(name)) + ", got " + name + " = " +
                             nb::cast<std::string>(nb::repr(h)));
  };
  try {
    if (nb::isinstance<nb::bool_>(h) || numpy == 'b') return nb::cast<bool>(h.attr("__bool__")());
    if (nb::isinstance<nb::int_>(h) || numpy == 'i' || numpy == 'u') return nb::cast<int64_t>(h.attr("__index__")());
    if (nb::isinstance<nb::float_>(h) || numpy == 'f') return nb::cast<double>(h.attr("__float__")());
    if (nb::isinstance<nb::str>(h)) return nb::cast<std::string>(h);
  } catch (const std::bad_cast&) {  // an integer beyond 64 bits
    throw refuse();
  }
  throw refuse();
}

nb::dict declarations() {
  nb::dict out;
  KernelConfig defaults;
  for (const Setting& s : kernel_settings()) {
    nb::dict d;
    d["type"] = type_name(s.type);
    d["unit"] = s.unit;
    d["default"] = s.get(defaults);
    if (s.type == SettingType::integer || s.type == SettingType::real) d["range"] = nb::make_tuple(s.low, s.high);
    if (s.choices) d["choices"] = nb::cast(s.choices());
    d["phase"] = phase_name(s.phase);
    d["alias"] = s.alias ? nb::object(nb::str(s.alias)) : nb::none();
    d["doc"] = s.doc;
    out[s.name] = d;
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, SettingValue>> setting_values(const nb::dict& values) {
  std::vector<std::pair<std::string, SettingValue>> out;
  for (const auto& [key, value] : values) {
    if (!nb::isinstance<nb::str>(key))
      throw BadParameterError("kernel settings are named by strings, got " + nb::cast<std::string>(nb::repr(key)));
    const std::string name = nb::cast<std::string>(key);
    out.emplace_back(name, setting_value(name, value));
  }
  return out;
}

void bind_settings(nb::module_& m) {
  m.def("kernel_settings", &declarations);
  // {name or alias: value} given together -> {name: checked value}.
  m.def("check_settings", [](const nb::dict& values) {
    nb::dict out;
    for (const auto& [name, value] : checked_settings(setting_values(values))) out[name.c_str()] = value;
    return out;
  });
}
