#include "viewer/connection_pool.hpp"

#include <utility>

namespace wayfinder::viewer {

ConnectionPool::ConnectionPool(std::size_t initial_workers, std::size_t max_workers) : max_workers_(max_workers) {
  const std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < initial_workers && i < max_workers_; ++i) start_worker();
}

ConnectionPool::~ConnectionPool() { shutdown(); }

void ConnectionPool::start_worker() {
  ++idle_;
  workers_.emplace_back([this] { work(); });
}

void ConnectionPool::enqueue(std::function<void()> task) {
  {
    const std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
    // Every idle worker may already be claimed by a task queued before this one.
    if (idle_ < tasks_.size() && workers_.size() < max_workers_) start_worker();
  }
  ready_.notify_one();
}

void ConnectionPool::work() {
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping, and nothing left to do
      task = std::move(tasks_.front());
      tasks_.pop_front();
      --idle_;
    }
    task();
    const std::lock_guard lock(mutex_);
    ++idle_;
  }
}

void ConnectionPool::shutdown() {
  std::vector<std::thread> workers;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    workers.swap(workers_);
  }
  ready_.notify_all();
  for (std::thread& worker : workers) worker.join();
}

std::size_t ConnectionPool::workers() const {
  const std::lock_guard lock(mutex_);
  return workers_.size();
}

}  // namespace wayfinder::viewer
