#include <algorithm>
#include <cstring>
#include <deque>
#include <stdexcept>

#include "parallel/communicator.hpp"

namespace ranvier {
namespace {

// The one rank's window: puts go to its own memory.
class LocalWindow final : public Window {
 public:
  explicit LocalWindow(size_t bytes) : memory_(bytes) {}
  uint8_t* base() override { return memory_.data(); }
  void fence() override {}
  void put(const uint8_t* from, size_t bytes, int, size_t offset) override {
    std::memmove(memory_.data() + offset, from, bytes);
  }

 private:
  std::vector<uint8_t> memory_;
};

// With one rank a collective is a copy, done when it starts.
class DoneRequest final : public Request {
 public:
  bool test() override { return true; }
  void wait() override {}
};

// A persistent collective of one rank: each start copies the block.
class CopyRequest final : public PersistentRequest {
 public:
  CopyRequest(const uint8_t* from, size_t bytes, uint8_t* to) : from_(from), to_(to), bytes_(bytes) {}
  void start() override { std::memmove(to_, from_, bytes_); }
  bool test() override { return true; }
  void wait() override {}

 private:
  const uint8_t* from_;
  uint8_t* to_;
  size_t bytes_;
};

class SingleProcess final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override {}
  void allreduce(std::vector<int64_t>&, ReduceOp) override {}
  void allreduce(std::vector<double>&, ReduceOp) override {}
  std::vector<uint8_t> allgatherv(const std::vector<uint8_t>& mine, std::vector<size_t>& counts) override {
    counts = {mine.size()};
    return mine;
  }
  std::vector<std::vector<uint8_t>> alltoallv(const std::vector<std::vector<uint8_t>>& send) override { return send; }
  std::string broadcast(const std::string& value, int) override { return value; }
  std::shared_ptr<Communicator> split(int) override { return std::make_shared<SingleProcess>(); }
  void allgather(const uint8_t* mine, size_t bytes, uint8_t* all) override { std::memmove(all, mine, bytes); }
  void allgatherv(const uint8_t* mine, const std::vector<int>& counts, const std::vector<int>& displs,
                  uint8_t* all) override {
    std::memmove(all + displs[0], mine, size_t(counts[0]));
  }
  void alltoall(const uint8_t* send, size_t block, uint8_t* recv) override { std::memmove(recv, send, block); }
  std::unique_ptr<Request> iallgather(const uint8_t* mine, size_t bytes, uint8_t* all) override {
    allgather(mine, bytes, all);
    return std::make_unique<DoneRequest>();
  }
  std::unique_ptr<Request> iallgatherv(const uint8_t* mine, const std::vector<int>& counts,
                                       const std::vector<int>& displs, uint8_t* all) override {
    allgatherv(mine, counts, displs, all);
    return std::make_unique<DoneRequest>();
  }
  std::unique_ptr<Request> ialltoall(const uint8_t* send, size_t block, uint8_t* recv) override {
    alltoall(send, block, recv);
    return std::make_unique<DoneRequest>();
  }
  std::unique_ptr<Request> ialltoallv(const uint8_t* send, const std::vector<int>& send_counts,
                                      const std::vector<int>& send_displs, uint8_t* recv, const std::vector<int>&,
                                      const std::vector<int>& recv_displs) override {
    std::memmove(recv + recv_displs[0], send + send_displs[0], size_t(send_counts[0]));
    return std::make_unique<DoneRequest>();
  }
  std::unique_ptr<PersistentRequest> allgather_init(const uint8_t* mine, size_t bytes, uint8_t* all) override {
    return std::make_unique<CopyRequest>(mine, bytes, all);
  }
  std::unique_ptr<PersistentRequest> alltoall_init(const uint8_t* send, size_t block, uint8_t* recv) override {
    return std::make_unique<CopyRequest>(send, block, recv);
  }
  void isend(std::vector<uint32_t>&& words, int, int tag) override { inbox_.push_back({tag, std::move(words)}); }
  bool poll(int& source, int& tag, std::vector<uint32_t>& words) override {
    if (inbox_.empty()) return false;
    source = 0, tag = inbox_.front().first, words = std::move(inbox_.front().second);
    inbox_.pop_front();
    return true;
  }
  void wait_sends() override {}
  std::unique_ptr<Window> make_window(size_t bytes) override { return std::make_unique<LocalWindow>(bytes); }

 private:
  std::deque<std::pair<int, std::vector<uint32_t>>> inbox_;  // messages to itself
};

}  // namespace

std::shared_ptr<Communicator> single_process_communicator() { return std::make_shared<SingleProcess>(); }

}  // namespace ranvier
