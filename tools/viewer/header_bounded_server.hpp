#pragma once
// cpp-httplib's server, with the request line and headers of each request held to a size.
// cpp-httplib 0.11 (Debian 12) reads a header line into a buffer that grows without bound, so one
// endless header line costs the server memory at the speed of the network. This server serves
// each connection itself (the same keep-alive loop as cpp-httplib's), through a stream that
// counts the bytes of a request's head and fails the read once they pass the limit:
// cpp-httplib then answers 400 or closes the connection, having kept at most the limit.

#include <cstddef>

#include <httplib.h>

namespace wayfinder::viewer {

class HeaderBoundedServer : public httplib::Server {
 public:
  /// `max_head_bytes`: the most bytes of a request's line and headers, their blank line included.
  explicit HeaderBoundedServer(std::size_t max_head_bytes) : max_head_bytes_(max_head_bytes) {}

 private:
  bool process_and_close_socket(socket_t sock) override;

  std::size_t max_head_bytes_;
};

}  // namespace wayfinder::viewer
