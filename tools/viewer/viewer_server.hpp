#pragma once
// The viewer's HTTP server (cpp-httplib): the page and its assets, embedded in the binary at
// build time, and the JSON API of viewer_api.hpp. Loopback only unless another host is asked
// for. Request bodies are limited in size and in time (a body that never ends is dropped after
// the read timeout), and requests run on a fixed pool of worker threads over shared worlds.

#include <chrono>
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
  /// Worker threads answering requests.
  int threads = 8;
  /// How long the server waits for more of a request before dropping the connection.
  std::chrono::seconds read_timeout{5};
  ApiLimits limits;
};

class ViewerServer {
 public:
  ViewerServer(WorldCatalog& catalog, ServerOptions options);
  ~ViewerServer();
  ViewerServer(const ViewerServer&) = delete;
  ViewerServer& operator=(const ViewerServer&) = delete;

  /// Binds the socket; returns the port. Throws std::runtime_error naming the host and port
  /// when it cannot (in use, no such address).
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

/// The page's files, embedded at build time (viewer_assets.cpp is generated from tools/viewer/web).
struct ViewerAsset {
  std::string_view path;  ///< "/", "/viewer.js", ...
  std::string_view content_type;
  std::string_view bytes;
};
/// The asset served at `path`, or null.
const ViewerAsset* find_viewer_asset(std::string_view path);

}  // namespace wayfinder::viewer
