// Ring buffers: input lands in the row of its step by sign, wraps around the ring, survives
// a reshape, and long-range input joins the row only when its step is settled; queued input
// joins when its step is settled, with every element's sums in the order of the adds; event
// ports keep each spike apart, in the order made, long-range ones after the others.
#include <gtest/gtest.h>

#include "models/ring_buffers.hpp"

namespace ranvier {
namespace {

TEST(RingBuffers, InputGoesToTheRowOfItsStepBySign) {
  RingBuffers b;
  b.resize(4, 3);
  b.add_at_slot(b.slot(5), 1, 2.5, false);
  b.add_at_slot(b.slot(5), 1, -1.0, false);
  b.add_current(5, 2, 7.0);
  b.add_at_slot(b.slot(9), 0, 1.0, false);  // 9 mod 4 = 1: wraps to the slot of step 5
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
  b.add_at_slot(b.slot(10), 1, 4.0, false);
  b.add_at_slot(b.slot(11), 0, 5.0, false);
  b.reshape(7, 3, false, 10, true);
  EXPECT_EQ(b.row(10).excitatory[1], 4.0);
  EXPECT_EQ(b.row(11).excitatory[0], 5.0);
  EXPECT_EQ(b.row(11).excitatory[2], 0.0);
  b.add_at_slot(b.slot(16), 2, 6.0, false);
  b.reshape(2, 3, false, 11, true);  // fewer slots asked for: the input on its way stays
  EXPECT_EQ(b.row(16).excitatory[2], 6.0);
  EXPECT_EQ(b.row(11).excitatory[0], 5.0);
}

TEST(RingBuffers, EventPortsKeepEachSpikeInItsSlotInOrder) {
  RingBuffers b;
  b.reshape(4, 1, true, 0, false, {0, 1, 1});  // column 0 sums, 1 and 2 take events (and have no rows)
  b.add_at_slot(b.slot(2), 0, 1.5, false, 7);
  b.add_at_slot(b.slot(2), 2, 0.5, true, 3);  // long-range
  b.add_at_slot(b.slot(2), 1, -2.0, false, 9);
  b.add_spikes(b.slot(2), 2, 2.0, 0.25);  // a generator's two spikes: two events
  b.add_spikes(b.slot(3), 0, 2.0, 0.25);  // summed: their weights
  EXPECT_EQ(b.row(2).excitatory[0], 1.5);
  EXPECT_EQ(b.row(3).excitatory[0], 0.5);
  b.settle(2);
  const std::vector<InputEvent>& events = b.events(2);
  ASSERT_EQ(events.size(), 4u);
  const auto is = [](const InputEvent& e, uint32_t column, double offset, double weight) {
    return e.column == column && e.offset == offset && e.weight == weight;
  };
  EXPECT_TRUE(is(events[0], 1, 9, -2.0));
  EXPECT_TRUE(is(events[1], 2, 0, 0.25));
  EXPECT_TRUE(is(events[2], 2, 0, 0.25));
  EXPECT_TRUE(is(events[3], 2, 3, 0.5));  // long-range, joined when settled
  EXPECT_TRUE(b.events(3).empty());
  b.add_at_slot(b.slot(5), 1, 4.0, false);
  b.reshape(9, 1, true, 3, false, {0, 1, 1});  // the events on their way move with their steps
  ASSERT_EQ(b.events(5).size(), 1u);
  EXPECT_TRUE(is(b.events(5)[0], 1, 0, 4.0));
  b.clear_events(5);
  EXPECT_TRUE(b.events(5).empty());
}

TEST(RingBuffers, LongRangeInputJoinsWhenSettled) {
  RingBuffers b;
  b.resize(4, 2, true);
  b.add_at_slot(b.slot(3), 0, 1.0, false);
  b.add_at_slot(b.slot(3), 0, 2.0, true);
  EXPECT_EQ(b.row(3).excitatory[0], 1.0);
  b.settle(3);
  EXPECT_EQ(b.row(3).excitatory[0], 3.0);
  b.settle(3);  // settling twice adds nothing more
  EXPECT_EQ(b.row(3).excitatory[0], 3.0);
}

// Adds whose sum depends on their order (1e16 + 1 - 1e16 is 0, 1e16 - 1e16 + 1 is 1).
void add_order_sensitive(RingBuffers& b, int64_t step) {
  b.add_at_slot(b.slot(step), 1, 1e16, false);
  b.add_at_slot(b.slot(step), 1, 1.0, false);
  b.add_at_slot(b.slot(step), 1, -3.0, false);
  b.add_signed(b.slot(step), 1, 1.0, -1e16, false);  // a synapse's sign chooses the row
  b.add_at_slot(b.slot(step), 1, 2.0, false);
}

TEST(RingBuffers, QueuedInputJoinsWhenSettledInTheOrderOfItsAdds) {
  RingBuffers direct, queued;
  direct.resize(5, 3);
  queued.resize(5, 3);
  queued.queue_input(true);
  add_order_sensitive(direct, 7);
  add_order_sensitive(queued, 7);
  EXPECT_EQ(queued.row(7).excitatory[1], 0.0);  // waiting in its queue
  queued.settle(7);
  EXPECT_EQ(queued.row(7).excitatory[1], direct.row(7).excitatory[1]);
  EXPECT_EQ(queued.row(7).inhibitory[1], direct.row(7).inhibitory[1]);
  EXPECT_EQ(direct.row(7).excitatory[1], 2.0);  // (1e16 + 1 - 1e16) + 2, not 1 + 2
  queued.settle(7);
  EXPECT_EQ(queued.row(7).excitatory[1], 2.0);
}

TEST(RingBuffers, DirectAccessToARowTakesItsQueueFirst) {
  RingBuffers b;
  b.resize(4, 2);
  b.queue_input(true);
  b.add_at_slot(b.slot(6), 0, 1e16, false);
  b.row_for(b.slot(6), 1.0, false)[0] += 1.0;  // a generator adding straight into the row
  b.add_signed(b.slot(6), 0, 1.0, -1e16, false);
  b.settle(6);
  EXPECT_EQ(b.row(6).excitatory[0], 0.0);  // (1e16 + 1) - 1e16, in the order of the adds
}

TEST(RingBuffers, QueuedInputSurvivesAReshapeAndTurningQueuesOff) {
  RingBuffers b;
  b.resize(3, 2);
  b.queue_input(true);
  b.add_at_slot(b.slot(10), 1, 4.0, false);
  b.add_at_slot(b.slot(11), 0, -5.0, false);
  b.reshape(7, 3, false, 10, true);
  EXPECT_TRUE(b.queued());
  b.add_at_slot(b.slot(11), 0, -1.0, false);
  b.queue_input(false);  // what was queued joins its rows
  EXPECT_EQ(b.row(10).excitatory[1], 4.0);
  EXPECT_EQ(b.row(11).inhibitory[0], -6.0);
}

TEST(RingBuffers, WithoutCurrentsEveryStepSharesOneCurrentRow) {
  RingBuffers b;
  b.resize(4, 2, false, false);
  EXPECT_EQ(b.row(5).current, b.row(6).current);
  EXPECT_EQ(b.bytes(), (2 * 4 * 2 + 2) * sizeof(double));
  b.add_at_slot(b.slot(6), 1, 3.0, false);
  b.reshape(5, 2, false, 6, true);  // currents from now on; the spike input stays
  EXPECT_NE(b.row(6).current, b.row(7).current);
  b.add_current(7, 0, 2.0);
  b.reshape(5, 2, false, 6, false);  // current input on its way keeps its rows
  EXPECT_EQ(b.row(7).current[0], 2.0);
  EXPECT_EQ(b.row(6).excitatory[1], 3.0);
}

}  // namespace
}  // namespace ranvier
