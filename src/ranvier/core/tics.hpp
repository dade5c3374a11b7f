// Times reach the user as the double nearest to the decimal grid time: steps count tics
// (NEST's 1000 per ms, a tic of 1 µs), and one correctly rounded division turns them into ms.
#pragma once
#include <cstdint>

namespace ranvier {

inline constexpr int64_t tics_per_ms = 1000;

}  // namespace ranvier
