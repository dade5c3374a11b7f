#include <algorithm>

#include "parallel/communicator.hpp"

namespace ranvier {
namespace {

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
  std::vector<std::vector<uint8_t>> alltoallv(const std::vector<std::vector<uint8_t>>& send) override {
    return send;
  }
  std::string broadcast(const std::string& value, int) override { return value; }
  std::shared_ptr<Communicator> split(int) override { return std::make_shared<SingleProcess>(); }
};

}  // namespace

std::shared_ptr<Communicator> single_process_communicator() {
  return std::make_shared<SingleProcess>();
}

}  // namespace ranvier
