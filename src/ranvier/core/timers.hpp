// Wall-clock phase timers and resident-memory probes.
#pragma once
#include <chrono>
#include <cstdio>
#include <cstring>

namespace ranvier {

class Stopwatch {
 public:
  void start() { begin_ = clock::now(); }
  void stop() { total_ += std::chrono::duration<double>(clock::now() - begin_).count(); }
  double seconds() const { return total_; }
  // Time since the last start, without stopping.
  double lap() const { return std::chrono::duration<double>(clock::now() - begin_).count(); }
  void reset() { total_ = 0.0; }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point begin_{};
  double total_ = 0.0;
};

// Adds the time of a scope to a stopwatch.
class ScopedTimer {
 public:
  explicit ScopedTimer(Stopwatch& w) : w_(w) { w_.start(); }
  ~ScopedTimer() { w_.stop(); }

 private:
  Stopwatch& w_;
};

// VmRSS / VmHWM of this process in bytes (0 where /proc is missing).
inline double proc_status_bytes(const char* field) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0.0;
  char line[256];
  double kib = 0.0;
  const size_t n = std::strlen(field);
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, field, n) == 0 && line[n] == ':') {
      kib = std::atof(line + n + 1);
      break;
    }
  }
  std::fclose(f);
  return kib * 1024.0;
}

}  // namespace ranvier
