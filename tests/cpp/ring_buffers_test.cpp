// Ring buffers: input lands in the row of its step by sign, wraps around the ring, survives
// a reshape, and long-range input joins the row only when folded.
#include <gtest/gtest.h>

#include "models/ring_buffers.hpp"

namespace ranvier {
namespace {

TEST(RingBuffers, InputGoesToTheRowOfItsStepBySign) {
  RingBuffers b;
  b.resize(4, 3);
  b.add_weight(5, 1, 2.5);
  b.add_weight(5, 1, -1.0);
  b.add_current(5, 2, 7.0);
  b.add_weight(9, 0, 1.0);  // 9 mod 4 = 1: wraps to the slot of step 5
  const InputRow row = b.row(5);
  EXPECT_EQ(row.excitatory[1], 2.5);
  EXPECT_EQ(row.inhibitory[1], -1.0);
  EXPECT_EQ(row.current[2], 7.0);
  EXPECT_EQ(row.excitatory[0], 1.0);
  EXPECT_EQ(b.row(6).excitatory[1], 0.0);
  EXPECT_EQ(b.slot_after(b.slot(7), 2), b.slot(9));
}

TEST(RingBuffers, ReshapeKeepsTheInputScheduledFromNowOn) {
  RingBuffers b;
  b.resize(3, 2);
  b.add_weight(10, 1, 4.0);
  b.add_weight(11, 0, 5.0);
  b.reshape(7, 3, false, 10);
  EXPECT_EQ(b.row(10).excitatory[1], 4.0);
  EXPECT_EQ(b.row(11).excitatory[0], 5.0);
  EXPECT_EQ(b.row(11).excitatory[2], 0.0);
}

TEST(RingBuffers, LongRangeInputJoinsWhenFolded) {
  RingBuffers b;
  b.resize(4, 2, true);
  b.add_weight(3, 0, 1.0);
  b.add_at_slot(b.slot(3), 0, 2.0, true);
  EXPECT_EQ(b.row(3).excitatory[0], 1.0);
  b.fold_long(3);
  EXPECT_EQ(b.row(3).excitatory[0], 3.0);
  b.fold_long(3);  // folding twice adds nothing more
  EXPECT_EQ(b.row(3).excitatory[0], 3.0);
}

}  // namespace
}  // namespace ranvier
