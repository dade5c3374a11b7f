// The kernel's settings (SetKernelStatus) and the stopwatches of its phases, shared by its parts.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "core/tics.hpp"
#include "core/timers.hpp"

namespace ranvier {

struct KernelConfig {
  int threads = 1;
  double resolution = 0.1;
  int64_t tics_per_ms = default_tics_per_ms;  // NEST's time representation; resolution is a multiple of a tic
  uint32_t seed = 12345;
  std::string placement = "round_robin";
  std::string exchange = "auto";  // local on one process, alltoall under MPI, dry_run in a dry run
  int dry_run = 0;                // > 0: build and simulate rank 0 of that many ranks
  int multisend_phases = 1;
  bool sync_barrier = true;  // a barrier before each exchange, timed as synchronize
  bool record_cycle_times = false;
  int max_D = 1 << 20;               // cap on D, the cycles between global (long-range) exchanges
  bool overlap_exchange = false;     // exchange the first half of each cycle while the second updates
  int multisend_subintervals = 1;    // 2: multisend's first half-cycle travels while the second updates
  bool persistent_exchange = false;  // allgather's and alltoall's fixed blocks by persistent collectives
  // Delivery into queues per arrival step ("on"), straight into the input rows ("off"), or
  // queued where a thread's rows outgrow the cache ("auto"); spikes are identical either way.
  std::string queued_input = "auto";
  // Waveform relaxation of instantaneous rate connections (NEST's): whether it is used, the
  // cycle it iterates over (ms; the resolution without it), the change below which a rate has
  // settled, and the most passes per cycle. The interpolation order is gap junctions', which
  // Ranvier does not have yet.
  bool use_wfr = true;
  double wfr_comm_interval = 1.0;
  double wfr_tol = 1e-4;
  int wfr_max_iterations = 15;
  int wfr_interpolation_order = 3;
  double rate_comm_interval() const { return use_wfr ? wfr_comm_interval : resolution; }
  // NEST's original e-prop (the _bsshslm_2020 models): its synapses learn once per update
  // interval from the last learning_window of it, and the neurons may reset at each update.
  double eprop_update_interval = 1000.0;
  double eprop_learning_window = 1000.0;
  bool eprop_reset_neurons_on_update = true;
  // NEST's structural plasticity updates the connectivity at cycles whose time is a multiple of this (ms).
  double structural_plasticity_update_interval = 10000.0;
  // NEST's delay extrema set by the user before connections, ms (0: those of the connections).
  double min_delay = 0.0, max_delay = 0.0;
  // In steps of the resolution, as NEST keeps them: min_delay rounded down, max_delay up (a
  // tic's tolerance, so that 0.3 / 0.1 is 3).
  int64_t min_delay_steps() const { return int64_t(std::floor(min_delay / resolution + 1e-9)); }
  int64_t max_delay_steps() const { return int64_t(std::ceil(max_delay / resolution - 1e-9)); }
};

struct PhaseTimes {
  Stopwatch create, connect, prepare, simulate, deliver, stimulate, relax, update, collocate;
  Stopwatch structural;  // structural plasticity's updates of the connectivity
  // Exchanges among all ranks (global) and among the ranks sharing areas (local).
  Stopwatch synchronize_global, communicate_global, synchronize_local, communicate_local;
  // Overlapped exchanges (overlap_exchange) in flight while the cells updated, until seen
  // complete: the short-range pathway's and the long-range one's, which may be hidden together.
  Stopwatch communicate_hidden, communicate_hidden_long;
};

}  // namespace ranvier
