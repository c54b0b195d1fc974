#include "viewer/viewer_server.hpp"

#include <httplib.h>

#include <stdexcept>

namespace wayfinder::viewer {

ViewerServer::ViewerServer(WorldCatalog& catalog, ServerOptions options)
    : catalog_(catalog), options_(std::move(options)), api_(catalog_, options_.limits),
      server_(std::make_unique<httplib::Server>()) {
  httplib::Server& server = *server_;
  const int threads = options_.threads < 1 ? 1 : options_.threads;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
  server.set_read_timeout(options_.read_timeout);
  server.set_write_timeout(options_.read_timeout);
  server.set_keep_alive_timeout(options_.read_timeout.count());
  // Longer bodies are refused (413) before they are read.
  server.set_payload_max_length(options_.limits.max_body_bytes);

  const auto api = [this](const httplib::Request& request, httplib::Response& response) {
    const ApiResponse answer = api_.handle(request.method, request.path, request.body);
    response.status = answer.status;
    response.set_header("Cache-Control", "no-store");
    response.set_content(answer.body, "application/json");
  };
  server.Get(R"(/api/.*)", api);
  server.Post(R"(/api/.*)", api);
  server.Put(R"(/api/.*)", api);
  server.Delete(R"(/api/.*)", api);
  server.Get(R"(/[^/]*)", [](const httplib::Request& request, httplib::Response& response) {
    const ViewerAsset* asset = find_viewer_asset(request.path);
    if (asset == nullptr) {
      response.status = 404;
      response.set_content("{\"error\":\"no such page\"}", "application/json");
      return;
    }
    response.set_content(std::string(asset->bytes), std::string(asset->content_type).c_str());
  });
  // Errors httplib decides itself (413 for a body over the limit, 400 for a malformed request)
  // get a JSON message too.
  server.set_error_handler([](const httplib::Request&, httplib::Response& response) {
    if (!response.body.empty()) return;
    std::string why = "the request was refused (HTTP " + std::to_string(response.status) + ")";
    if (response.status == 413) why = "the request body is over the server's size limit";
    response.set_content("{\"error\":\"" + why + "\"}", "application/json");
  });
}

ViewerServer::~ViewerServer() = default;

int ViewerServer::bind() {
  if (options_.port == 0) {
    port_ = server_->bind_to_any_port(options_.host);
  } else {
    port_ = server_->bind_to_port(options_.host, options_.port) ? options_.port : -1;
  }
  if (port_ < 0)
    throw std::runtime_error("cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                             " (in use, or not an address of this machine)");
  return port_;
}

void ViewerServer::run() { server_->listen_after_bind(); }

void ViewerServer::stop() { server_->stop(); }

std::string ViewerServer::url() const {
  const bool ipv6 = options_.host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + options_.host + "]" : options_.host) + ":" + std::to_string(port_) + "/";
}

}  // namespace wayfinder::viewer
