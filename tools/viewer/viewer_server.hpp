#pragma once
// The viewer's HTTP server (cpp-httplib): the page and its assets, embedded in the binary at
// build time, and the JSON API of viewer_api.hpp. Loopback only unless another host is asked
// for. Request bodies are limited in size (chunked or not) and in time (a body that never ends
// is dropped after the read timeout); request headers are checked against cross-site requests
// and DNS rebinding (request_checks.hpp); connections are served by workers started as they
// come, up to a cap (connection_pool.hpp). The limits are listed in docs/viewer.md.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "viewer/viewer_api.hpp"
#include "viewer/world_catalog.hpp"

namespace httplib {
class Server;
}

namespace wayfinder::viewer {

struct ServerOptions {
  std::string host = "127.0.0.1";
  /// 0: any free port (bind() says which).
  int port = 8080;
  /// Worker threads started with the server; each serves one connection at a time.
  int threads = 8;
  /// Most connections served at once: more workers are started, up to this many, while every
  /// worker is busy (idle keep-alive connections and slow clients hold one each until their
  /// timeouts); past it, new connections wait for a worker.
  int max_connections = 256;
  /// How long the server waits for more of a request (each read) or for the client to take
  /// more of the response (each write) before dropping the connection.
  std::chrono::seconds read_timeout{5};
  /// How long an open connection may wait for its next request.
  std::chrono::seconds keep_alive_timeout{2};
  /// Most requests served on one connection before it is closed.
  int keep_alive_max_requests = 32;
  /// Most bytes of a request's line and headers; past them the connection is closed (cpp-httplib
  /// alone would keep a header line of any length in memory).
  std::size_t max_request_head_bytes = std::size_t{64} << 10;
  ApiLimits limits;
};

class ViewerServer {
 public:
  ViewerServer(WorldCatalog& catalog, ServerOptions options);
  ~ViewerServer();
  ViewerServer(const ViewerServer&) = delete;
  ViewerServer& operator=(const ViewerServer&) = delete;

  /// Binds the socket; returns the port. Throws std::runtime_error naming the host and port
  /// when it cannot (in use, even by a server that allows sharing it, or no such address).
  int bind();
  /// Serves until stop() (from another thread). bind() first.
  void run();
  void stop();
  /// "http://host:port/"
  [[nodiscard]] std::string url() const;

 private:
  WorldCatalog& catalog_;
  ServerOptions options_;
  ViewerApi api_;
  int port_ = 0;
  std::unique_ptr<httplib::Server> server_;
};

/// The page's files, embedded at build time (viewer_assets.cpp is generated from tools/viewer/web
/// by embed_assets.cmake), each also gzipped then (RFC 1952), so that no request compresses it.
struct ViewerAsset {
  std::string_view path;  ///< "/", "/viewer.js", ...
  std::string_view content_type;
  std::string_view bytes;
  std::string_view gzip_bytes;  ///< `bytes` gzipped: sent with Content-Encoding: gzip
};
/// The asset served at `path`, or null.
const ViewerAsset* find_viewer_asset(std::string_view path);

}  // namespace wayfinder::viewer
