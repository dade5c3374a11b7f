// A request's rule parameters checked against the rule's declaration, for every rule alike:
// unknown and missing names, each value's kind, then the rule's own check and the shape of
// weight and delay arrays.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

std::string number_text(double v) {  // the shortest text that reads back as v, as Python's repr
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return std::string(buffer, end);
}

bool is_count(const RuleValue& v) { return std::holds_alternative<int64_t>(v) && std::get<int64_t>(v) >= 0; }

void check_kind(const RuleParameter& p, const RuleValue& v, const ConnectRequest& r) {
  switch (p.kind) {
    case RuleParameter::Kind::count:
      if (!is_count(v)) throw bad_value(p.name, text_of(v), "a non-negative integer");
      return;
    case RuleParameter::Kind::count_per_target: {
      if (std::holds_alternative<int64_t>(v) ||
          !(std::holds_alternative<std::vector<int64_t>>(v) || std::holds_alternative<std::vector<double>>(v))) {
        if (!is_count(v)) throw bad_value(p.name, text_of(v), "a non-negative integer");
        return;
      }
      const auto* counts = std::get_if<std::vector<int64_t>>(&v);
      const bool ok = counts && counts->size() == r.targets.size() &&
                      std::all_of(counts->begin(), counts->end(), [](int64_t d) { return d >= 0; });
      if (!ok) {
        const size_t given = counts ? counts->size() : std::get<std::vector<double>>(v).size();
        throw BadParameterError(p.name + " per target must be " + std::to_string(r.targets.size()) +
                                " non-negative integers, got shape " + shape_text({given}));
      }
      return;
    }
    case RuleParameter::Kind::probability:
    case RuleParameter::Kind::mean: {
      const double* real = std::get_if<double>(&v);
      const int64_t* integer = std::get_if<int64_t>(&v);
      const double x = real ? *real : integer ? double(*integer) : NAN;
      if (p.kind == RuleParameter::Kind::probability && !(x >= 0.0 && x <= 1.0))
        throw bad_value(p.name, text_of(v), "in [0, 1]");
      if (p.kind == RuleParameter::Kind::mean && !(x >= 0.0 && std::isfinite(x)))
        throw bad_value(p.name, text_of(v), "a finite number >= 0");
      return;
    }
  }
}

const RuleValue& value_of(const RuleParameters& parameters, const std::string& name) {
  const auto it = parameters.find(name);
  if (it == parameters.end()) throw KernelStateError("the rule did not declare parameter " + name);
  return it->second;
}

void check_array(const char* name, const ValueSpec& spec, const std::string& rule,
                 const std::optional<std::vector<uint64_t>>& shape) {
  if (spec.kind != ValueSpec::Kind::array) return;
  if (!shape) throw BadParameterError(std::string(name) + " as an array is not supported by rule " + rule);
  const std::vector<uint64_t> given = spec.shape.empty() ? std::vector<uint64_t>{spec.values.size()} : spec.shape;
  uint64_t size = 1;
  for (uint64_t n : given) size *= n;
  if (given != *shape || size != spec.values.size())
    throw BadParameterError(std::string(name) + " array must have shape " + shape_text(*shape) + " for rule " + rule +
                            ", got " + shape_text(given));
}

}  // namespace

std::string text_of(const RuleValue& value) {
  struct Text {
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return number_text(d); }
    std::string operator()(const std::vector<int64_t>& a) const {
      return "an array of shape " + shape_text({a.size()});
    }
    std::string operator()(const std::vector<double>& a) const { return "an array of shape " + shape_text({a.size()}); }
    std::string operator()(const std::string& s) const { return s; }
  };
  return std::visit(Text{}, value);
}

std::string shape_text(const std::vector<uint64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

uint64_t RuleCall::count(const std::string& name) const {
  return uint64_t(std::get<int64_t>(value_of(parameters, name)));
}

double RuleCall::real(const std::string& name) const {
  const RuleValue& v = value_of(parameters, name);
  return std::holds_alternative<int64_t>(v) ? double(std::get<int64_t>(v)) : std::get<double>(v);
}

const std::vector<int64_t>* RuleCall::per_target(const std::string& name) const {
  return std::get_if<std::vector<int64_t>>(&value_of(parameters, name));
}

uint64_t RuleCall::shared() const {
  const GidList &a_ = request.sources, &b_ = request.targets;
  const auto contiguous = [](const GidList& v) { return v.back() - v.front() + 1 == v.size(); };
  if (a_.empty() || b_.empty()) return 0;
  const bool ascending = std::is_sorted(a_.begin(), a_.end()) && std::is_sorted(b_.begin(), b_.end());
  if (ascending && contiguous(a_) && contiguous(b_)) {  // Create's ranges: arithmetic
    const uint32_t lo = std::max(a_.front(), b_.front()), hi = std::min(a_.back(), b_.back());
    return hi >= lo ? uint64_t(hi - lo) + 1 : 0;
  }
  std::vector<uint32_t> sources = a_.to_vector(), targets = b_.to_vector();
  std::sort(sources.begin(), sources.end());
  std::sort(targets.begin(), targets.end());
  uint64_t n = 0;
  for (auto a = sources.begin(), b = targets.begin(); a != sources.end() && b != targets.end();) {
    if (*a < *b)
      ++a;
    else if (*b < *a)
      ++b;
    else
      ++n, ++a, ++b;
  }
  return n;
}

RuleParameters check_rule_parameters(const std::string& name, const ConnectionRule& rule, const ConnectRequest& r) {
  RuleParameters checked;
  for (const auto& [key, value] : r.rule_parameters) {
    const auto declared = std::find_if(rule.parameters.begin(), rule.parameters.end(),
                                       [&](const RuleParameter& p) { return p.name == key; });
    if (declared == rule.parameters.end()) throw UnknownParameterError("rule " + name + " has no parameter " + key);
  }
  for (const RuleParameter& p : rule.parameters) {
    const auto given = r.rule_parameters.find(p.name);
    if (given == r.rule_parameters.end() && !p.default_value)
      throw BadParameterError("rule " + name + " needs parameter " + p.name);
    const RuleValue& value = given != r.rule_parameters.end() ? given->second : *p.default_value;
    check_kind(p, value, r);
    checked.emplace(p.name, value);
  }
  const RuleCall call(r, checked);
  if (rule.check) rule.check(call);
  const auto shape = rule.array_shape ? rule.array_shape(call) : std::nullopt;
  check_array("weight", r.weight, name, shape);
  check_array("delay", r.delay, name, shape);
  return checked;
}

}  // namespace ranvier
