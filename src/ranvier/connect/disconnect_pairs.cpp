// Disconnect by rule (PyNEST's Disconnect(pre, post, conn_spec)): the rules that declare their
// pairs, with their parameters checked as Connect checks them.
#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

// "the rules all_to_all and one_to_one": the registered rules Disconnect takes.
std::string disconnect_rules() {
  std::vector<std::string> names;
  for (const std::string& name : ConnectionRules::instance().names())
    if (ConnectionRules::instance().find(name)->disconnect_pairs) names.push_back(name);
  std::string out = names.size() == 1 ? "the rule " : "the rules ";
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> disconnect_pairs(const ConnectRequest& r) {
  const ConnectionRule* rule = ConnectionRules::instance().find(r.rule);
  if (!rule || !rule->disconnect_pairs)
    throw BadParameterError("Disconnect takes " + disconnect_rules() + ", got rule = '" + r.rule + "'");
  return rule->disconnect_pairs(RuleCall(r, check_rule_parameters(r.rule, *rule, r)));
}

}  // namespace ranvier
