#pragma once
// A thread that is joined when it is destroyed: std::jthread where the standard library has it,
// else a std::thread joined by the destructor (the libc++ of emscripten 3.1.6 lacks std::jthread;
// the WebAssembly build runs no threads, but compiles the code that would).

#include <thread>
#include <utility>
#include <version>

namespace wayfinder {

#if defined(__cpp_lib_jthread)
using JoiningThread = std::jthread;
#else
class JoiningThread {
 public:
  template <class Function, class... Arguments>
  explicit JoiningThread(Function&& function, Arguments&&... arguments)
      : thread_(std::forward<Function>(function), std::forward<Arguments>(arguments)...) {}
  JoiningThread(JoiningThread&&) noexcept = default;
  JoiningThread& operator=(JoiningThread&&) = delete;
  JoiningThread(const JoiningThread&) = delete;
  JoiningThread& operator=(const JoiningThread&) = delete;
  ~JoiningThread() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread thread_;
};
#endif

}  // namespace wayfinder
