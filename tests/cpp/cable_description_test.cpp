// validate() names the offending item of a bad description; the CV policies set n_cv as NEURON does.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "cable/description.hpp"
#include "cable/swc.hpp"
#include "cable_cells.hpp"
#include "core/errors.hpp"

namespace ranvier::cable {
namespace {

// validate() on a ball and stick spoiled by `spoil` throws BadParameterError whose message names `item`.
void expect_rejected(const std::function<void(Description&)>& spoil, const std::string& item) {
  Description d = testing::ball_and_stick(5);
  spoil(d);
  try {
    validate(d);
    ADD_FAILURE() << "no error for " << item;
  } catch (const BadParameterError& e) {
    EXPECT_NE(std::string(e.what()).find(item), std::string::npos) << e.what();
  }
}

TEST(CableDescription, ValidPasses) { EXPECT_NO_THROW(validate(testing::ball_and_stick(5))); }

TEST(CableDescription, BadItemsAreNamed) {
  expect_rejected([](Description& d) { d.densities[0].model = "kdr"; }, "kdr");
  expect_rejected([](Description& d) { d.densities[1].params["gbar"] = 1; }, "gbar");
  expect_rejected([](Description& d) { d.densities[1].branch = 7; }, "densities[1] ('pas').branch = 7");
  expect_rejected([](Description& d) { d.densities.push_back({"pas", 1, {}}); }, "densities[2] ('pas').branch");
  expect_rejected([](Description& d) { d.synapses[0].model = "nmda"; }, "nmda");
  expect_rejected([](Description& d) { d.synapses[1].params["tau"] = 1; },
                  "synapses[1] ('ampa') has no parameter 'tau'");
  expect_rejected([](Description& d) { d.synapses[0].params["tau"] = 0; }, "synapses[0] ('syn').tau = 0");
  expect_rejected([](Description& d) { d.synapses[1].name = "syn"; }, "synapses[1].name");
  expect_rejected([](Description& d) { d.synapses[0].location.x = 1.5; }, "synapses[0] ('syn').location.x = 1.5");
  expect_rejected([](Description& d) { d.synapses[0].location.branch = 2; }, "synapses[0] ('syn').location.branch = 2");
  expect_rejected([](Description& d) { d.detector.x = -0.1; }, "detector.x = -0.1");
  expect_rejected([](Description& d) { d.clamps[0].location.x = 2; }, "clamps[0].location.x = 2");
  expect_rejected([](Description& d) { d.clamps[0].duration = -1; }, "clamps[0].duration = -1");
  expect_rejected([](Description& d) { d.branches[1].parent = 1; }, "branches[1] ('dend').parent = 1");
  expect_rejected([](Description& d) { d.branches[0].parent = 0; }, "branches[0] ('soma').parent = 0");
  expect_rejected([](Description& d) { d.branches[1].parent_x = 1.2; }, "branches[1] ('dend').parent_x = 1.2");
  expect_rejected([](Description& d) { d.branches[1].n_cv = 0; }, "branches[1] ('dend').n_cv = 0");
  expect_rejected([](Description& d) { d.branches[1].length = 0; }, "branches[1] ('dend').length = 0");
  expect_rejected([](Description& d) { d.branches[0].diameter = -2; }, "branches[0] ('soma').diameter = -2");
  expect_rejected([](Description& d) { d.branches[1].taper = {{0, 1}, {1, 0}}; },
                  "branches[1] ('dend').taper[1].diameter = 0");
  expect_rejected([](Description& d) { d.branches[1].taper = {{0, 1}, {0.6, 1}, {0.5, 2}, {1, 1}}; },
                  "branches[1] ('dend').taper[2].x = 0.5");
  expect_rejected([](Description& d) { d.branches[1].taper = {{0, 1}, {0.9, 2}}; }, "taper.back().x = 0.9");
  expect_rejected([](Description& d) { d.branches.clear(); }, "branches.size()");
  expect_rejected([](Description& d) { d.dt = 0; }, "dt = 0");
  expect_rejected([](Description& d) { d.cm = -1; }, "cm = -1");
  expect_rejected([](Description& d) { d.Ra = 0; }, "Ra = 0");
  expect_rejected([](Description& d) { d.ion_e["ca"] = 120; }, "ca");
  expect_rejected([](Description& d) { d.branches[1].cm = 0; }, "cm['dend'] = 0");  // a region's own
  expect_rejected([](Description& d) { d.branches[0].Ra = -5; }, "Ra['soma'] = -5");
  expect_rejected([](Description& d) { d.branches[1].ion_e["na"] = NAN; }, "ions.na.e['dend'] = nan");
  expect_rejected([](Description& d) { d.branches[1].ion_e["ca"] = 120; }, "unknown ion 'ca'");
}

TEST(CableDescription, ARegionsOwnValuesOverrideTheCells) {
  Description d = testing::ball_and_stick(1);
  d.cm = 1.5, d.Ra = 80.0, d.ion_e["na"] = 55.0;
  d.branches[1].cm = 2.0, d.branches[1].ion_e["na"] = 45.0;
  EXPECT_EQ(d.cm_of(0), 1.5);
  EXPECT_EQ(d.cm_of(1), 2.0);
  EXPECT_EQ(d.Ra_of(1), 80.0);
  EXPECT_EQ(d.ion_e_of(0, "na"), 55.0);
  EXPECT_EQ(d.ion_e_of(1, "na"), 45.0);
  EXPECT_EQ(d.ion_e_of(1, "k"), -77.0);  // NEURON's default
}

TEST(CableDescription, TheAxonIsReplacedByAStubOnTheSomasMiddle) {
  Description d = testing::ball_and_stick(1);  // soma, dend
  d.branches.push_back({.name = "axon", .parent = 0, .parent_x = 0.0, .length = 500.0, .diameter = 1.0});
  d.branches.push_back({.name = "tag9", .parent = 2, .length = 50.0, .diameter = 0.5});  // below the axon
  d.branches.push_back({.name = "dend", .parent = 1, .length = 70.0, .diameter = 0.8});
  replace_axon(d.branches,
               {{.name = "axon", .length = 30.0, .diameter = 1.0}, {.name = "axon", .length = 30.0, .diameter = 1.0}});
  ASSERT_EQ(d.branches.size(), 5u);
  EXPECT_EQ(d.branches[2].name, "dend");
  EXPECT_EQ(d.branches[2].parent, 1);  // re-indexed
  EXPECT_EQ(d.branches[2].length, 70.0);
  EXPECT_EQ(d.branches[3].parent, 0);
  EXPECT_EQ(d.branches[3].parent_x, 0.5);
  EXPECT_EQ(d.branches[4].parent, 3);
  EXPECT_EQ(d.branches[4].parent_x, 1.0);
  EXPECT_NO_THROW(validate(d));
}

TEST(CableDescription, CvPolicies) {
  Description d = testing::ball_and_stick(1);
  cv_per_branch(d, {{"dend", 21}});
  EXPECT_EQ(d.branches[0].n_cv, 1u);
  EXPECT_EQ(d.branches[1].n_cv, 21u);
  EXPECT_THROW(cv_per_branch(d, {{"axon", 3}}), BadParameterError);
  EXPECT_THROW(cv_per_branch(d, {{"soma", 0}}), BadParameterError);
  cv_max_length(d, 30.0);
  EXPECT_EQ(d.branches[0].n_cv, 1u);  // 20 µm
  EXPECT_EQ(d.branches[1].n_cv, 7u);  // ceil(200 / 30)
  cv_max_length(d, 50.0);
  EXPECT_EQ(d.branches[1].n_cv, 4u);
  // d_lambda = 0.1 at 100 Hz: lambda_f = 1e5 sqrt(1 / (4 pi 100 * 100 * 1)) = 282.09 µm for the
  // dendrite, so L / (0.1 lambda_f) = 7.09 and nseg = int(7.99 / 2) * 2 + 1 = 7.
  cv_d_lambda(d, 0.1);
  EXPECT_EQ(d.branches[1].n_cv, 7u);
  EXPECT_EQ(d.branches[0].n_cv, 1u);
  // A truncated cone takes NEURON's lambda_f over its two 3D points, that of its mean diameter:
  // 0.3 -> 0.1 µm as 0.2 µm, L / (0.1 lambda_f) = 15.86, nseg 17 (0.3 µm alone would give 13).
  d.branches[1].taper = {{0.0, 0.3}, {1.0, 0.1}};
  cv_d_lambda(d, 0.1);
  EXPECT_EQ(d.branches[1].n_cv, 17u);
  EXPECT_THROW(cv_d_lambda(d, 0.0), BadParameterError);
  // AllenSDK's and BMTK's rule: 1 + 2 int(L / 40 um)
  cv_odd_per_length(d, 40.0);
  EXPECT_EQ(d.branches[0].n_cv, 1u);   // 20 µm
  EXPECT_EQ(d.branches[1].n_cv, 11u);  // 200 µm
  EXPECT_THROW(cv_odd_per_length(d, -1.0), BadParameterError);
}

}  // namespace
}  // namespace ranvier::cable
