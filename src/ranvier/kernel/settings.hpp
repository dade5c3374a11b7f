// The kernel's settings (SetKernelStatus / GetKernelStatus), each declared once: its name,
// type, unit, range or choices, whether it may change once nodes exist, where it lives in a
// KernelConfig (its default is that field's initialiser) and, if live, how a running kernel
// takes it. The bindings, Python's checks and the docs' settings table all read this table.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "kernel/config.hpp"

namespace ranvier {

class Kernel;

using SettingValue = std::variant<int64_t, double, bool, std::string>;

enum class SettingType { integer, real, boolean, text };

struct Setting {
  const char* name;
  SettingType type;
  const char* unit;  // "" without one
  // integer: the closed range [low, high]; real: (low, high]
  double low = 0.0, high = 0.0;
  // text: the values it takes (the exchange methods' names are read from their registry)
  std::vector<std::string> (*choices)() = nullptr;
  bool live = false;  // may change after nodes exist; others rebuild the empty kernel
  SettingValue (*get)(const KernelConfig&) = nullptr;
  void (*put)(KernelConfig&, const SettingValue&) = nullptr;
  void (*apply)(Kernel&, const SettingValue&) = nullptr;  // live ones: the running kernel's setter
  bool takes_whole_real = false;                          // integer: also a real with a whole value
  const char* alias = nullptr;                            // another name NEST accepts for it
  const char* doc = "";
};

// Every setting, in the order of the docs' table.
const std::vector<Setting>& kernel_settings();

// The setting of a name or alias; UnknownParameterError names it.
const Setting& kernel_setting(const std::string& name);

// What a value of the setting must be, for errors: "an integer in [1, 2]".
std::string setting_rule(const Setting& s);

// `value` checked against the setting's type and range (an integer given for a real is taken);
// BadParameterError names `given` (the name as the
// user wrote it) and the value.
SettingValue checked_setting(const Setting& s, const SettingValue& value, const std::string& given);

// Values given together (SetKernelStatus), each checked, under their settings' names; with
// NEST's rule between two of them: tics_per_ms only together with resolution.
std::vector<std::pair<std::string, SettingValue>> checked_settings(
    const std::vector<std::pair<std::string, SettingValue>>& given);

// A config whose named fields are those given (each checked), the others their defaults.
KernelConfig config_from(const std::vector<std::pair<std::string, SettingValue>>& values);

}  // namespace ranvier
