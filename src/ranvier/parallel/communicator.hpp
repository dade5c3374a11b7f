// The communication the kernel and the exchange methods need, behind one interface: a
// single-process implementation and an MPI one (when Ranvier is built with MPI and started
// under mpiexec). MPI appears nowhere else, so every exchange method builds, and runs on one
// process, without it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ranvier {

enum class ReduceOp { sum, min, max };

// Memory that other ranks write into with one-sided puts, synchronised by fences.
class Window {
 public:
  virtual ~Window() = default;
  virtual uint8_t* base() = 0;
  // Completes all puts to and from this window (collective).
  virtual void fence() = 0;
  // Copies `bytes` from `from` to `offset` in rank's window; done at the next fence.
  virtual void put(const uint8_t* from, size_t bytes, int rank, size_t offset) = 0;
};

// A non-blocking collective in flight. Its buffers stay untouched until it completes; MPI
// advances it only inside MPI calls, so whoever waits for it calls test() now and then.
class Request {
 public:
  virtual ~Request() = default;
  virtual bool test() = 0;  // advances the operation; true once it is complete
  virtual void wait() = 0;
};

// A collective set up once on fixed buffers and started again for every exchange (MPI-4
// persistent collectives): the MPI counterpart of the Record-Replay multicast of Hines et al.
// (2011), where the setup is paid once and each start is cheap.
class PersistentRequest : public Request {
 public:
  virtual void start() = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual void barrier() = 0;
  virtual void allreduce(std::vector<int64_t>& values, ReduceOp op) = 0;
  virtual void allreduce(std::vector<double>& values, ReduceOp op) = 0;
  // Concatenation of every rank's bytes in rank order; counts[r] is rank r's share.
  virtual std::vector<uint8_t> allgatherv(const std::vector<uint8_t>& mine, std::vector<size_t>& counts) = 0;
  // send[r] goes to rank r; returns what each rank sent here, by source rank.
  virtual std::vector<std::vector<uint8_t>> alltoallv(const std::vector<std::vector<uint8_t>>& send) = 0;
  virtual std::string broadcast(const std::string& value, int root) = 0;
  // Every rank's block of `bytes` bytes, in rank order, into `all`.
  virtual void allgather(const uint8_t* mine, size_t bytes, uint8_t* all) = 0;
  // Every rank's bytes when all counts are known (rank r's at displs[r] of `all`).
  virtual void allgatherv(const uint8_t* mine, const std::vector<int>& counts, const std::vector<int>& displs,
                          uint8_t* all) = 0;
  // Block r of `send` to rank r; block r of `recv` from rank r.
  virtual void alltoall(const uint8_t* send, size_t block, uint8_t* recv) = 0;
  // Non-blocking forms of the three above (MPI_Iallgather, MPI_Iallgatherv, MPI_Ialltoall) and
  // of alltoallv with known counts in bytes (MPI_Ialltoallv).
  virtual std::unique_ptr<Request> iallgather(const uint8_t* mine, size_t bytes, uint8_t* all) = 0;
  virtual std::unique_ptr<Request> iallgatherv(const uint8_t* mine, const std::vector<int>& counts,
                                               const std::vector<int>& displs, uint8_t* all) = 0;
  virtual std::unique_ptr<Request> ialltoall(const uint8_t* send, size_t block, uint8_t* recv) = 0;
  virtual std::unique_ptr<Request> ialltoallv(const uint8_t* send, const std::vector<int>& send_counts,
                                              const std::vector<int>& send_displs, uint8_t* recv,
                                              const std::vector<int>& recv_counts,
                                              const std::vector<int>& recv_displs) = 0;
  // Persistent forms of iallgather and ialltoall on the same buffers (collective, like them).
  virtual std::unique_ptr<PersistentRequest> allgather_init(const uint8_t* mine, size_t bytes, uint8_t* all) = 0;
  virtual std::unique_ptr<PersistentRequest> alltoall_init(const uint8_t* send, size_t block, uint8_t* recv) = 0;
  // Point to point: sends without waiting (the communicator keeps the words until
  // wait_sends), and receives one message of any source and tag if one has arrived.
  virtual void isend(std::vector<uint32_t>&& words, int rank, int tag) = 0;
  virtual bool poll(int& source, int& tag, std::vector<uint32_t>& words) = 0;
  virtual void wait_sends() = 0;
  // A window of `bytes` bytes on every rank (collective).
  virtual std::unique_ptr<Window> make_window(size_t bytes) = 0;
  // The ranks with the same color, ordered as here (MPI_Comm_split); collective.
  virtual std::shared_ptr<Communicator> split(int color) = 0;

  double max(double v) {
    std::vector<double> x{v};
    allreduce(x, ReduceOp::max);
    return x[0];
  }
};

// The communicator of this process: MPI_COMM_WORLD when started under an MPI launcher (or
// when MPI is already initialised, e.g. by mpi4py) and built with MPI, else a single rank.
std::shared_ptr<Communicator> world_communicator();
std::shared_ptr<Communicator> single_process_communicator();
bool built_with_mpi();
// Finalises MPI if Ranvier initialised it.
void finalize_mpi();

// Byte packing helpers for the collectives.
template <typename T>
void append_bytes(std::vector<uint8_t>& out, const T* data, size_t n) {
  const auto* p = reinterpret_cast<const uint8_t*>(data);
  out.insert(out.end(), p, p + n * sizeof(T));
}
template <typename T>
std::vector<T> from_bytes(const uint8_t* data, size_t n_bytes) {
  std::vector<T> out(n_bytes / sizeof(T));
  std::copy(data, data + out.size() * sizeof(T), reinterpret_cast<uint8_t*>(out.data()));
  return out;
}

// Every rank's items in rank order, on every rank (side channels beside the spikes: flush
// events, spike payloads).
template <typename T>
std::vector<T> allgather_items(Communicator& comm, const std::vector<T>& mine) {
  if (comm.size() == 1) return mine;
  std::vector<uint8_t> bytes;
  append_bytes(bytes, mine.data(), mine.size());
  std::vector<size_t> counts;
  const std::vector<uint8_t> all = comm.allgatherv(bytes, counts);
  return from_bytes<T>(all.data(), all.size());
}

}  // namespace ranvier
