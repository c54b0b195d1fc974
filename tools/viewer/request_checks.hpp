#pragma once
// Checks the viewer server makes on each request's headers before it reads the body, against
// other web pages the user has open rather than against the user:
//
// - DNS rebinding: a page of evil.example whose name is made to resolve to 127.0.0.1 reaches a
//   loopback server as if it were same-origin, but its requests say `Host: evil.example`. A
//   server listening on a loopback address answers only requests whose Host is a loopback
//   name or address (localhost, 127.x.x.x, [::1]) with the server's port.
// - Cross-site requests: any page may POST to 127.0.0.1 (a "simple" text/plain form or fetch
//   needs no permission). Requests that change something (POST, PUT, DELETE) are refused when
//   they carry an Origin other than the server's own (`http://` and the request's Host), and
//   JSON requests must say `Content-Type: application/json`, which a page of another origin
//   cannot send without the browser asking the server first (CORS preflight, never granted).
//
// Request bodies are limited apart from these checks (ViewerServer reads them in bounded
// pieces); encoded (compressed) bodies are refused, as their size once decoded is unknown.

#include <optional>
#include <string>
#include <string_view>

namespace wayfinder::viewer {

/// What the checks look at. A header absent from the request is nullopt.
struct RequestHeaders {
  std::string_view method;
  std::optional<std::string_view> host;
  std::optional<std::string_view> origin;
  std::optional<std::string_view> content_type;
  std::optional<std::string_view> content_encoding;
};

/// Why a request is refused: the HTTP status and the message.
struct RequestRefusal {
  int status = 400;
  std::string message;
};

/// True for the names and addresses of this machine's loopback interface: localhost,
/// 127.0.0.0/8, ::1 (with or without brackets).
bool is_loopback_host(std::string_view host);

/// The refusal for a request to a server listening on `listen_host`:`port`, or nullopt when the
/// request passes. Host is checked only when `listen_host` is a loopback address.
std::optional<RequestRefusal> check_request_headers(const RequestHeaders& request, std::string_view listen_host,
                                                    int port);

}  // namespace wayfinder::viewer
