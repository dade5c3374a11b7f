// MPI communicators as Communicators; without MPI, every process is a single rank.
#include <cstdlib>
#include <deque>
#include <stdexcept>

#include "parallel/communicator.hpp"
#ifdef RANVIER_HAVE_MPI
#include <mpi.h>
#endif

namespace ranvier {

#ifdef RANVIER_HAVE_MPI
namespace {

bool started_by_launcher() {
  for (const char* var : {"PMI_SIZE", "PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(var)) return true;
  return false;
}

bool we_initialised = false;

MPI_Datatype mpi_type(const std::vector<int64_t>&) { return MPI_INT64_T; }
MPI_Datatype mpi_type(const std::vector<double>&) { return MPI_DOUBLE; }
MPI_Op mpi_op(ReduceOp op) { return op == ReduceOp::sum ? MPI_SUM : op == ReduceOp::min ? MPI_MIN : MPI_MAX; }

class MpiWindow final : public Window {
 public:
  MpiWindow(size_t bytes, MPI_Comm comm) {
    MPI_Win_allocate(MPI_Aint(bytes), 1, MPI_INFO_NULL, comm, &base_, &window_);
  }
  ~MpiWindow() override {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (!finalised) MPI_Win_free(&window_);
  }
  uint8_t* base() override { return base_; }
  void fence() override { MPI_Win_fence(0, window_); }
  void put(const uint8_t* from, size_t bytes, int rank, size_t offset) override {
    MPI_Put(from, int(bytes), MPI_BYTE, rank, MPI_Aint(offset), int(bytes), MPI_BYTE, window_);
  }

 private:
  MPI_Win window_ = MPI_WIN_NULL;
  uint8_t* base_ = nullptr;
};

// One MPI request and the count arrays MPI reads until it completes.
class MpiRequest final : public Request {
 public:
  explicit MpiRequest(std::vector<std::vector<int>> arrays = {}) : arrays_(std::move(arrays)) {}
  ~MpiRequest() override {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (!finalised && request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
  }
  bool test() override {
    int done = 1;
    if (request_ != MPI_REQUEST_NULL) MPI_Test(&request_, &done, MPI_STATUS_IGNORE);
    return done != 0;
  }
  void wait() override { MPI_Wait(&request_, MPI_STATUS_IGNORE); }
  MPI_Request* handle() { return &request_; }
  const int* array(size_t k) const { return arrays_[k].data(); }

 private:
  MPI_Request request_ = MPI_REQUEST_NULL;
  std::vector<std::vector<int>> arrays_;
};

// A persistent collective: set up by MPI_*_init, started by MPI_Start, freed when dropped.
class MpiPersistentRequest final : public PersistentRequest {
 public:
  ~MpiPersistentRequest() override {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (finalised) return;
    MPI_Wait(&request_, MPI_STATUS_IGNORE);  // returns at once unless started and incomplete
    MPI_Request_free(&request_);
  }
  void start() override { MPI_Start(&request_); }
  bool test() override {
    int done = 1;
    MPI_Test(&request_, &done, MPI_STATUS_IGNORE);
    return done != 0;
  }
  void wait() override { MPI_Wait(&request_, MPI_STATUS_IGNORE); }
  MPI_Request* handle() { return &request_; }

 private:
  MPI_Request request_ = MPI_REQUEST_NULL;
};

class MpiWorld final : public Communicator {
 public:
  explicit MpiWorld(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiWorld() override {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (comm_ != MPI_COMM_WORLD && !finalised) MPI_Comm_free(&comm_);
  }
  std::shared_ptr<Communicator> split(int color) override {
    MPI_Comm part;
    MPI_Comm_split(comm_, color, rank_, &part);
    return std::make_shared<MpiWorld>(part);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void barrier() override { MPI_Barrier(comm_); }
  void allreduce(std::vector<int64_t>& v, ReduceOp op) override {
    MPI_Allreduce(MPI_IN_PLACE, v.data(), int(v.size()), mpi_type(v), mpi_op(op), comm_);
  }
  void allreduce(std::vector<double>& v, ReduceOp op) override {
    MPI_Allreduce(MPI_IN_PLACE, v.data(), int(v.size()), mpi_type(v), mpi_op(op), comm_);
  }
  std::vector<uint8_t> allgatherv(const std::vector<uint8_t>& mine, std::vector<size_t>& counts) override {
    std::vector<int64_t> all(static_cast<size_t>(size_), 0);
    int64_t n = int64_t(mine.size());
    MPI_Allgather(&n, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, comm_);
    std::vector<int> c(static_cast<size_t>(size_)), displ(static_cast<size_t>(size_), 0);
    counts.assign(size_t(size_), 0);
    for (int r = 0; r < size_; ++r) {
      c[size_t(r)] = int(all[size_t(r)]);
      counts[size_t(r)] = size_t(all[size_t(r)]);
      if (r) displ[size_t(r)] = displ[size_t(r - 1)] + c[size_t(r - 1)];
    }
    std::vector<uint8_t> out(size_t(displ.back() + c.back()));
    MPI_Allgatherv(mine.data(), int(mine.size()), MPI_BYTE, out.data(), c.data(), displ.data(), MPI_BYTE, comm_);
    return out;
  }
  std::vector<std::vector<uint8_t>> alltoallv(const std::vector<std::vector<uint8_t>>& send) override {
    const size_t m = size_t(size_);
    std::vector<int> send_counts(m), recv_counts(m), send_displ(m, 0), recv_displ(m, 0);
    for (size_t r = 0; r < m; ++r) send_counts[r] = int(send[r].size());
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_);
    std::vector<uint8_t> flat;
    for (size_t r = 0; r < m; ++r) {
      if (r) send_displ[r] = send_displ[r - 1] + send_counts[r - 1];
      if (r) recv_displ[r] = recv_displ[r - 1] + recv_counts[r - 1];
      flat.insert(flat.end(), send[r].begin(), send[r].end());
    }
    std::vector<uint8_t> in(size_t(recv_displ.back() + recv_counts.back()));
    MPI_Alltoallv(flat.data(), send_counts.data(), send_displ.data(), MPI_BYTE, in.data(), recv_counts.data(),
                  recv_displ.data(), MPI_BYTE, comm_);
    std::vector<std::vector<uint8_t>> out(m);
    for (size_t r = 0; r < m; ++r)
      out[r].assign(in.begin() + recv_displ[r], in.begin() + recv_displ[r] + recv_counts[r]);
    return out;
  }
  std::string broadcast(const std::string& value, int root) override {
    int64_t n = int64_t(value.size());
    MPI_Bcast(&n, 1, MPI_INT64_T, root, comm_);
    std::string out = value;
    out.resize(size_t(n));
    MPI_Bcast(out.data(), int(n), MPI_CHAR, root, comm_);
    return out;
  }
  void allgather(const uint8_t* mine, size_t bytes, uint8_t* all) override {
    MPI_Allgather(mine, int(bytes), MPI_BYTE, all, int(bytes), MPI_BYTE, comm_);
  }
  void allgatherv(const uint8_t* mine, const std::vector<int>& counts, const std::vector<int>& displs,
                  uint8_t* all) override {
    MPI_Allgatherv(mine, counts[size_t(rank_)], MPI_BYTE, all, counts.data(), displs.data(), MPI_BYTE, comm_);
  }
  void alltoall(const uint8_t* send, size_t block, uint8_t* recv) override {
    MPI_Alltoall(send, int(block), MPI_BYTE, recv, int(block), MPI_BYTE, comm_);
  }
  std::unique_ptr<Request> iallgather(const uint8_t* mine, size_t bytes, uint8_t* all) override {
    auto r = std::make_unique<MpiRequest>();
    MPI_Iallgather(mine, int(bytes), MPI_BYTE, all, int(bytes), MPI_BYTE, comm_, r->handle());
    return r;
  }
  std::unique_ptr<Request> iallgatherv(const uint8_t* mine, const std::vector<int>& counts,
                                       const std::vector<int>& displs, uint8_t* all) override {
    auto r = std::make_unique<MpiRequest>(std::vector<std::vector<int>>{counts, displs});
    MPI_Iallgatherv(mine, counts[size_t(rank_)], MPI_BYTE, all, r->array(0), r->array(1), MPI_BYTE, comm_, r->handle());
    return r;
  }
  std::unique_ptr<Request> ialltoall(const uint8_t* send, size_t block, uint8_t* recv) override {
    auto r = std::make_unique<MpiRequest>();
    MPI_Ialltoall(send, int(block), MPI_BYTE, recv, int(block), MPI_BYTE, comm_, r->handle());
    return r;
  }
  std::unique_ptr<Request> ialltoallv(const uint8_t* send, const std::vector<int>& send_counts,
                                      const std::vector<int>& send_displs, uint8_t* recv,
                                      const std::vector<int>& recv_counts,
                                      const std::vector<int>& recv_displs) override {
    auto r =
        std::make_unique<MpiRequest>(std::vector<std::vector<int>>{send_counts, send_displs, recv_counts, recv_displs});
    MPI_Ialltoallv(send, r->array(0), r->array(1), MPI_BYTE, recv, r->array(2), r->array(3), MPI_BYTE, comm_,
                   r->handle());
    return r;
  }
  std::unique_ptr<PersistentRequest> allgather_init(const uint8_t* mine, size_t bytes, uint8_t* all) override {
    auto r = std::make_unique<MpiPersistentRequest>();
    MPI_Allgather_init(mine, int(bytes), MPI_BYTE, all, int(bytes), MPI_BYTE, comm_, MPI_INFO_NULL, r->handle());
    return r;
  }
  std::unique_ptr<PersistentRequest> alltoall_init(const uint8_t* send, size_t block, uint8_t* recv) override {
    auto r = std::make_unique<MpiPersistentRequest>();
    MPI_Alltoall_init(send, int(block), MPI_BYTE, recv, int(block), MPI_BYTE, comm_, MPI_INFO_NULL, r->handle());
    return r;
  }
  void isend(std::vector<uint32_t>&& words, int rank, int tag) override {
    pending_.push_back(std::move(words));
    requests_.emplace_back();
    MPI_Isend(pending_.back().data(), int(pending_.back().size()), MPI_UINT32_T, rank, tag, comm_, &requests_.back());
  }
  bool poll(int& source, int& tag, std::vector<uint32_t>& words) override {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &status);
    if (!flag) return false;
    int n = 0;
    MPI_Get_count(&status, MPI_UINT32_T, &n);
    words.resize(size_t(n));
    MPI_Recv(words.data(), n, MPI_UINT32_T, status.MPI_SOURCE, status.MPI_TAG, comm_, MPI_STATUS_IGNORE);
    source = status.MPI_SOURCE, tag = status.MPI_TAG;
    return true;
  }
  void wait_sends() override {
    MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
    pending_.clear();
  }
  std::unique_ptr<Window> make_window(size_t bytes) override { return std::make_unique<MpiWindow>(bytes, comm_); }

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<MPI_Request> requests_;
  std::deque<std::vector<uint32_t>> pending_;  // words of unfinished sends, at stable addresses
};

}  // namespace

bool built_with_mpi() { return true; }

std::shared_ptr<Communicator> world_communicator() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    if (!started_by_launcher()) return single_process_communicator();
    int provided = 0;
    // Only the master thread calls MPI, between the threads' barriers.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    we_initialised = true;
  }
  static std::shared_ptr<Communicator> world = std::make_shared<MpiWorld>(MPI_COMM_WORLD);
  return world;
}

void finalize_mpi() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (we_initialised && !finalised) MPI_Finalize();
}

#else

bool built_with_mpi() { return false; }
std::shared_ptr<Communicator> world_communicator() { return single_process_communicator(); }
void finalize_mpi() {}

#endif

}  // namespace ranvier
