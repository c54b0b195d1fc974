#pragma once
// The viewer server's workers. cpp-httplib hands each accepted connection to a task queue and a
// worker then serves it for as long as the connection stays (every keep-alive request, and the
// waits between them). With a fixed pool of a few workers, a few idle or slow connections hold
// them all and nobody else is answered. This pool starts workers as connections come, up to a
// cap, so that idle connections only wait out their own timeouts; past the cap, connections wait
// in line for a free worker. Workers stay until shutdown() (at most `max_workers` threads).

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <httplib.h>

namespace wayfinder::viewer {

class ConnectionPool final : public httplib::TaskQueue {
 public:
  /// Starts `initial_workers` workers now; more are started, up to `max_workers`, whenever a
  /// connection arrives and none is idle. Preconditions: 1 <= initial_workers <= max_workers.
  ConnectionPool(std::size_t initial_workers, std::size_t max_workers);
  ~ConnectionPool() override;
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  void enqueue(std::function<void()> task) override;
  /// Runs the tasks already queued, then joins every worker.
  void shutdown() override;

  /// Workers started so far.
  [[nodiscard]] std::size_t workers() const;

 private:
  void start_worker();  // with mutex_ held
  void work();

  const std::size_t max_workers_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> workers_;
  std::size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace wayfinder::viewer
