// A registry refuses a second entry of one name: two files registering one model name would
// otherwise leave one of them silently unreachable.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/registry.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {
namespace {

TEST(Registry, RefusesADuplicateName) {
  Registry<int> r;
  EXPECT_TRUE(r.add("a", 1));
  EXPECT_THROW(r.add("a", 2), std::logic_error);
  EXPECT_EQ(*r.find("a"), 1);  // the first entry stays
  EXPECT_EQ(r.names(), std::vector<std::string>{"a"});
}

TEST(Registry, KernelRegistriesLoadedWithoutDuplicates) {
  // Every model registered itself at load time without throwing: a few are reachable by name.
  EXPECT_NE(NeuronModels::instance().find("iaf_psc_alpha"), nullptr);
  EXPECT_NE(NeuronModels::instance().find("cable_cell"), nullptr);
}

}  // namespace
}  // namespace ranvier
