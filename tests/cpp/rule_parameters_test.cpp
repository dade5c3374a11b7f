// A rule's parameters are checked by the kernel from the rule's own declaration: names, kinds,
// defaults, the rule's check over the whole call and the shape of weight and delay arrays.
#include <gtest/gtest.h>

#include "connect/connection_rule.hpp"
#include "core/errors.hpp"

namespace ranvier {
namespace {

ConnectRequest request(const std::string& rule, size_t n_pre, size_t n_post, RuleParameters parameters) {
  ConnectRequest r;
  r.rule = rule;
  r.sources = GidList::range(1, n_pre), r.targets = GidList::range(1, n_post);  // the same nodes: autapses are possible
  r.rule_parameters = std::move(parameters);
  return r;
}

template <class Error>
std::string refusal(const ConnectRequest& r) {
  try {
    check_rule_parameters(r.rule, ConnectionRules::instance().at(r.rule, "connection rule"), r);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(RuleParameters, EveryRuleDeclaresItsParameters) {
  const ConnectionRule& rule = ConnectionRules::instance().at("fixed_indegree", "connection rule");
  ASSERT_EQ(rule.parameters.size(), 1u);
  EXPECT_EQ(rule.parameters[0].name, "indegree");
  EXPECT_EQ(rule.parameters[0].kind, RuleParameter::Kind::count_per_target);
  EXPECT_FALSE(rule.parameters[0].default_value);
}

TEST(RuleParameters, NamesAreCheckedAgainstTheDeclaration) {
  EXPECT_EQ(refusal<UnknownParameterError>(request("fixed_indegree", 5, 5, {{"indegree", 1}, {"p", 0.5}})),
            "rule fixed_indegree has no parameter p");
  EXPECT_EQ(refusal<BadParameterError>(request("pairwise_bernoulli", 5, 5, {})),
            "rule pairwise_bernoulli needs parameter p");
}

TEST(RuleParameters, KindsAreCheckedWithOneMessageForEveryRule) {
  EXPECT_EQ(refusal<BadParameterError>(request("fixed_outdegree", 5, 5, {{"outdegree", -1}})),
            "outdegree must be a non-negative integer, got outdegree = -1");
  EXPECT_EQ(refusal<BadParameterError>(request("fixed_total_number", 5, 5, {{"N", 2.5}})),
            "N must be a non-negative integer, got N = 2.5");
  EXPECT_EQ(refusal<BadParameterError>(request("pairwise_bernoulli", 5, 5, {{"p", 1.5}})),
            "p must be in [0, 1], got p = 1.5");
  EXPECT_EQ(refusal<BadParameterError>(request("pairwise_bernoulli", 5, 5, {{"p", true}})),
            "p must be in [0, 1], got p = True");
  EXPECT_EQ(refusal<BadParameterError>(request("fixed_indegree", 5, 3, {{"indegree", std::vector<int64_t>{1, 2}}})),
            "indegree per target must be 3 non-negative integers, got shape (2,)");
  EXPECT_EQ(refusal<BadParameterError>(request("pairwise_bernoulli", 5, 5, {{"p", 1}})), "");
}

TEST(RuleParameters, DegreesBeyondThePartnersWithoutMultapsesAreRefused) {
  ConnectRequest r = request("fixed_indegree", 5, 5, {{"indegree", 5}});
  r.allow_multapses = false;
  EXPECT_EQ(refusal<BadParameterError>(r), "");
  r.allow_autapses = false;  // sources and targets are the same nodes: one partner fewer
  EXPECT_EQ(refusal<BadParameterError>(r),
            "indegree = 5 exceeds the 4 possible partners without multapses (NEST: Indegree cannot be larger than "
            "population size.)");
  r = request("fixed_total_number", 3, 4, {{"N", 10}});
  r.allow_multapses = false, r.allow_autapses = false;  // 12 pairs, 3 of them autapses
  EXPECT_EQ(refusal<BadParameterError>(r),
            "N = 10 exceeds the 9 possible partners without multapses (NEST: Total number of connections cannot exceed "
            "product of source and target population sizes.)");
}

TEST(RuleParameters, WeightArraysHaveTheRulesShape) {
  ConnectRequest r = request("all_to_all", 2, 3, {});
  r.weight.kind = ValueSpec::Kind::array;
  r.weight.values.assign(6, 1.0);
  r.weight.shape = {3, 2};
  EXPECT_EQ(refusal<BadParameterError>(r), "");
  r.weight.shape = {2, 3};
  EXPECT_EQ(refusal<BadParameterError>(r), "weight array must have shape (3, 2) for rule all_to_all, got (2, 3)");
  r.rule = "pairwise_bernoulli", r.rule_parameters = {{"p", 0.5}};
  EXPECT_EQ(refusal<BadParameterError>(r), "weight as an array is not supported by rule pairwise_bernoulli");
}

TEST(RuleParameters, DefaultsFillWhatTheCallLeftOut) {
  const ConnectionRule rule{.parameters = {{"p", RuleParameter::Kind::probability, 0.25}}};
  const RuleParameters checked = check_rule_parameters("mine", rule, request("mine", 2, 2, {}));
  EXPECT_EQ(std::get<double>(checked.at("p")), 0.25);
}

}  // namespace
}  // namespace ranvier
