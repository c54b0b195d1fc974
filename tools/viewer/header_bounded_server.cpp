#include "viewer/header_bounded_server.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>

namespace wayfinder::viewer {

namespace {

// Waits up to `timeout` for the socket to become readable (POLLIN) or writable (POLLOUT).
bool wait_for(socket_t sock, short events, std::chrono::microseconds timeout) {
  pollfd descriptor{sock, events, 0};
  const auto milliseconds = static_cast<int>(
      std::min<std::chrono::microseconds::rep>(std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count(),
                                               std::numeric_limits<int>::max()));
  int ready = 0;
  do {
    ready = ::poll(&descriptor, 1, milliseconds);
  } while (ready < 0 && errno == EINTR);
  return ready > 0 && (descriptor.revents & (events | POLLHUP)) != 0;
}

void address_of(const sockaddr_storage& address, std::string& ip, int& port) {
  std::array<char, NI_MAXHOST> host{};
  std::array<char, NI_MAXSERV> service{};
  if (::getnameinfo(reinterpret_cast<const sockaddr*>(&address), sizeof address, host.data(), host.size(),
                    service.data(), service.size(), NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host.data();
    port = std::atoi(service.data());
  }
}

// A socket stream (read-ahead buffer, read and write timeouts) that counts the bytes of each
// request's head: from begin_request() to the first empty line. Past the limit a read fails.
class HeadBoundedStream final : public httplib::Stream {
 public:
  HeadBoundedStream(socket_t sock, std::chrono::microseconds read_timeout, std::chrono::microseconds write_timeout,
                    std::size_t max_head_bytes)
      : sock_(sock), read_timeout_(read_timeout), write_timeout_(write_timeout), max_head_bytes_(max_head_bytes) {}

  /// Whether bytes of a next request were read ahead (pipelined behind the last one).
  [[nodiscard]] bool has_buffered() const { return buffered_begin_ != buffered_end_; }

  void begin_request() {
    in_head_ = true;
    head_bytes_ = 0;
    line_length_ = 0;
  }

  bool is_readable() const override { return wait_for(sock_, POLLIN, read_timeout_); }
  bool is_writable() const override { return wait_for(sock_, POLLOUT, write_timeout_); }

  ssize_t read(char* ptr, std::size_t size) override {
    if (size == 0) return 0;
    if (buffered_begin_ == buffered_end_) {
      if (!is_readable()) return -1;
      ssize_t received = 0;
      do {
        received = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
      } while (received < 0 && errno == EINTR);
      if (received <= 0) return received;
      buffered_begin_ = 0;
      buffered_end_ = static_cast<std::size_t>(received);
    }
    std::size_t count = std::min(size, buffered_end_ - buffered_begin_);
    if (in_head_) {
      // Hand out the head byte by byte up to its end, so that the count stops exactly there.
      count = 0;
      while (count < size && buffered_begin_ + count < buffered_end_ && in_head_) {
        if (++head_bytes_ > max_head_bytes_) return -1;
        const char c = buffer_[buffered_begin_ + count++];
        if (c == '\n') {
          if (line_length_ == 0) in_head_ = false;  // the blank line that ends the head
          line_length_ = 0;
        } else if (c != '\r') {
          ++line_length_;
        }
      }
    }
    std::memcpy(ptr, buffer_.data() + buffered_begin_, count);
    buffered_begin_ += count;
    return static_cast<ssize_t>(count);
  }

  ssize_t write(const char* ptr, std::size_t size) override {
    if (!is_writable()) return -1;
    ssize_t sent = 0;
    do {
      sent = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(sock_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(sock_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  socket_t sock_;
  std::chrono::microseconds read_timeout_;
  std::chrono::microseconds write_timeout_;
  std::size_t max_head_bytes_;
  std::array<char, 4096> buffer_{};
  std::size_t buffered_begin_ = 0;
  std::size_t buffered_end_ = 0;
  bool in_head_ = true;
  std::size_t head_bytes_ = 0;
  std::size_t line_length_ = 0;  ///< characters of the current head line, line ends not counted
};

}  // namespace

bool HeaderBoundedServer::process_and_close_socket(socket_t sock) {
  using std::chrono::microseconds;
  using std::chrono::seconds;
  HeadBoundedStream stream(sock, seconds(read_timeout_sec_) + microseconds(read_timeout_usec_),
                           seconds(write_timeout_sec_) + microseconds(write_timeout_usec_), max_head_bytes_);
  // cpp-httplib's keep-alive loop: up to keep_alive_max_count_ requests, each awaited for at
  // most the keep-alive timeout, the last one answered with "Connection: close".
  bool served = false;
  for (std::size_t left = keep_alive_max_count_; left > 0 && svr_sock_ != INVALID_SOCKET; --left) {
    if (!stream.has_buffered() && !wait_for(sock, POLLIN, seconds(keep_alive_timeout_sec_))) break;
    stream.begin_request();
    bool connection_closed = false;
    served = process_request(stream, left == 1, connection_closed, nullptr);
    if (!served || connection_closed) break;
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return served;
}

}  // namespace wayfinder::viewer
