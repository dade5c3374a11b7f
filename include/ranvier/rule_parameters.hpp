// A connection rule's parameters by name: the conn_spec's keys besides the rule's name and
// the autapse and multapse flags. Each rule declares the ones it takes and checks their values
// (src/ranvier/connect/connection_rule.hpp); the kernel, the Python binding and this API pass
// them on without knowing any rule.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace ranvier {

// A number, a flag, an array of integers or of reals, or text: what the caller gave that is
// none of those (Python passes its repr), printed as it is in errors.
using RuleValue = std::variant<bool, int64_t, double, std::vector<int64_t>, std::vector<double>, std::string>;
using RuleParameters = std::map<std::string, RuleValue>;

}  // namespace ranvier
