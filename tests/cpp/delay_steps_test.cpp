// A connection's delay in steps: the range is checked before rounding, so a huge delay is
// called too large, never below the resolution (std::lround of it is undefined).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "connect/connection_sink.hpp"
#include "core/errors.hpp"

namespace ranvier {
namespace {

std::string refusal(double delay, double h) {
  try {
    ConnectionSink::steps_of(delay, h);
  } catch (const BadParameterError& e) {
    return e.what();
  }
  return "";
}

TEST(DelaySteps, RoundsToTheNearestStep) {
  EXPECT_EQ(ConnectionSink::steps_of(1.0, 0.1), 10u);
  EXPECT_EQ(ConnectionSink::steps_of(0.05, 0.1), 1u);  // half a step rounds up to one
  EXPECT_EQ(ConnectionSink::steps_of(6553.54, 0.1), 65535u);
}

TEST(DelaySteps, HugeDelaysAreCalledTooLarge) {
  for (double d : {6553.6, 1e19, 1e300, std::numeric_limits<double>::max()}) {
    const std::string what = refusal(d, 0.1);
    EXPECT_NE(what.find("at most 6553.5 ms (65535 steps)"), std::string::npos) << d << ": " << what;
  }
}

TEST(DelaySteps, SmallAndNonFiniteDelaysAreNamed) {
  EXPECT_NE(refusal(0.04, 0.1).find(">= the resolution"), std::string::npos);
  EXPECT_NE(refusal(-1e300, 0.1).find(">= the resolution"), std::string::npos);
  for (double d : {INFINITY, -INFINITY, NAN}) EXPECT_NE(refusal(d, 0.1).find("finite"), std::string::npos) << d;
}

}  // namespace
}  // namespace ranvier
