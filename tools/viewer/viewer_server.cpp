#include "viewer/viewer_server.hpp"

#include <sys/socket.h>

#include <httplib.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <stdexcept>

#include "common/world_json.hpp"
#include "viewer/accept_encoding.hpp"
#include "viewer/connection_pool.hpp"
#include "viewer/header_bounded_server.hpp"
#include "viewer/request_checks.hpp"

namespace wayfinder::viewer {

namespace {

std::optional<std::string_view> header(const httplib::Request& request, const char* name) {
  if (!request.has_header(name)) return std::nullopt;
  // Valid until the request is destroyed: the headers are not changed while it is served.
  const auto found = request.headers.find(name);
  return std::string_view(found->second);
}

std::string error_json(const std::string& why) { return Json{{"error", why}}.dump(); }

void refuse(httplib::Response& response, int status, const std::string& why) {
  response.status = status;
  response.set_header("Cache-Control", "no-store");
  // The rest of a refused request is not read, so the connection cannot carry another one.
  response.set_header("Connection", "close");
  response.set_content(error_json(why), "application/json");
}

/// The asset's gzipped copy, made at build time, to a client that accepts gzip, else its plain
/// bytes. Both go through a content provider with their length: cpp-httplib (Debian's 0.11.4,
/// as later versions) compresses a response's body, or a chunked provider's output, when the
/// type is text/*, JSON or the like and Accept-Encoding names br or gzip, with no per-response
/// switch; a provider of known length it sends as it is. So the type stays the standard one,
/// the stored copy is never compressed again, and three.js is never compressed on a request
/// (brotli took seconds for it). The bytes are the asset table's, which outlives the server.
void serve_asset(const ViewerAsset& asset, std::optional<std::string_view> accept_encoding,
                 httplib::Response& response) {
  const bool gzip = accept_encoding && accepts_gzip(*accept_encoding);
  const std::string_view bytes = gzip ? asset.gzip_bytes : asset.bytes;
  const std::string content_type(asset.content_type);
  response.set_header("Vary", "Accept-Encoding");
  if (bytes.empty()) {  // a provider must have something to send
    response.set_content("", content_type);
    return;
  }
  if (gzip) response.set_header("Content-Encoding", "gzip");
  response.set_content_provider(bytes.size(), content_type,
                                [bytes](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                                  return sink.write(bytes.data() + offset, length);
                                });
}

}  // namespace

ViewerServer::ViewerServer(WorldCatalog& catalog, ServerOptions options)
    : catalog_(catalog), options_(std::move(options)), api_(catalog_, options_.limits),
      server_(std::make_unique<HeaderBoundedServer>(options_.max_request_head_bytes)) {
  httplib::Server& server = *server_;
  const auto threads = static_cast<std::size_t>(std::max(options_.threads, 1));
  const auto max_connections = std::max(threads, static_cast<std::size_t>(std::max(options_.max_connections, 1)));
  server.new_task_queue = [threads, max_connections] { return new ConnectionPool(threads, max_connections); };
  // cpp-httplib's default sets SO_REUSEPORT, with which a second server binds a port another
  // one listens on and the two share its connections. SO_REUSEADDR alone still lets a
  // restarted server take its port back at once, but not a port someone listens on.
  server.set_socket_options([](socket_t socket) {
    int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.set_read_timeout(options_.read_timeout);
  server.set_write_timeout(options_.read_timeout);
  server.set_keep_alive_timeout(options_.keep_alive_timeout.count());
  server.set_keep_alive_max_count(static_cast<std::size_t>(std::max(options_.keep_alive_max_requests, 1)));
  // Bodies announced longer than this are refused (413) without being kept.
  server.set_payload_max_length(options_.limits.max_body_bytes);

  // Before any body is read: the checks of request_checks.hpp, and only the methods the server
  // has (cpp-httplib reads the body of other methods before finding no handler for them).
  server.set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
    if (request.method != "GET" && request.method != "HEAD" && request.method != "POST") {
      refuse(response, 405, request.method + " is not allowed (GET or POST)");
      return httplib::Server::HandlerResponse::Handled;
    }
    const RequestHeaders headers{request.method, header(request, "Host"), header(request, "Origin"),
                                 header(request, "Content-Type"), header(request, "Content-Encoding")};
    if (const auto refusal = check_request_headers(headers, options_.host, port_)) {
      refuse(response, refusal->status, refusal->message);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  const auto answer = [this](const httplib::Request& request, httplib::Response& response, std::string_view body) {
    const ApiResponse api_answer = api_.handle(request.method, request.path, body);
    response.status = api_answer.status;
    response.set_header("Cache-Control", "no-store");
    response.set_content(api_answer.body, "application/json");
  };
  server.Get(R"(/api/.*)", [answer](const httplib::Request& request, httplib::Response& response) {
    answer(request, response, "");
  });
  // Bodies are read here, in pieces, so that a chunked body (which announces no length) is
  // held to the same limit as one with a Content-Length.
  server.Post(R"(/api/.*)", [this, answer](const httplib::Request& request, httplib::Response& response,
                                           const httplib::ContentReader& content_reader) {
    const std::size_t limit = options_.limits.max_body_bytes;
    std::string body;
    bool too_long = false;
    const bool read = content_reader([&](const char* data, std::size_t length) {
      if (length > limit - body.size()) {
        too_long = true;
        return false;
      }
      body.append(data, length);
      return true;
    });
    if (too_long || response.status == 413) {
      refuse(response, 413, "the request body is over the server's size limit of " + std::to_string(limit) + " bytes");
      return;
    }
    if (!read) {
      refuse(response, 400, "the request body could not be read");
      return;
    }
    answer(request, response, body);
  });
  server.Get(R"(/[^/]*)", [](const httplib::Request& request, httplib::Response& response) {
    const ViewerAsset* asset = find_viewer_asset(request.path);
    if (asset == nullptr) {
      response.status = 404;
      response.set_content(error_json("no such page"), "application/json");
      return;
    }
    serve_asset(*asset, header(request, "Accept-Encoding"), response);
  });
  // Errors httplib decides itself (413 for a body over the limit, 400 for a malformed request)
  // get a JSON message too.
  server.set_error_handler([](const httplib::Request&, httplib::Response& response) {
    if (!response.body.empty()) return;
    std::string why = "the request was refused (HTTP " + std::to_string(response.status) + ")";
    if (response.status == 413) why = "the request body is over the server's size limit";
    response.set_content(error_json(why), "application/json");
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
                             " (the port is taken by another program, or the host is not an address of this machine)");
  return port_;
}

void ViewerServer::run() { server_->listen_after_bind(); }

void ViewerServer::stop() { server_->stop(); }

std::string ViewerServer::url() const {
  const bool ipv6 = options_.host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + options_.host + "]" : options_.host) + ":" + std::to_string(port_) + "/";
}

}  // namespace wayfinder::viewer
