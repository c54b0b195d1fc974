#include "viewer/request_checks.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace wayfinder::viewer {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_ipv4_loopback(std::string_view host) {
  // Four dotted decimal numbers of at most 255, the first 127.
  int parts = 0;
  while (true) {
    int value = 0;
    const auto [end, error] = std::from_chars(host.data(), host.data() + host.size(), value);
    if (error != std::errc{} || end == host.data() || value > 255 || end - host.data() > 3) return false;
    if (parts == 0 && value != 127) return false;
    ++parts;
    host.remove_prefix(static_cast<std::size_t>(end - host.data()));
    if (host.empty()) return parts == 4;
    if (host.front() != '.' || parts == 4) return false;
    host.remove_prefix(1);
  }
}

/// Splits "name:port" or "[v6]:port"; nullopt for a missing or malformed port.
struct HostAndPort {
  std::string_view host;
  int port = 0;
};
std::optional<HostAndPort> split_host_port(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const std::string_view host = text.substr(0, colon);
  if (host.find(':') != std::string_view::npos && !(host.front() == '[' && host.back() == ']')) return std::nullopt;
  const std::string_view digits = text.substr(colon + 1);
  int port = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (error != std::errc{} || end != digits.data() + digits.size() || digits.empty() || port < 1 || port > 65535)
    return std::nullopt;
  return HostAndPort{host, port};
}

bool changes_state(std::string_view method) { return method == "POST" || method == "PUT" || method == "DELETE"; }

}  // namespace

bool is_loopback_host(std::string_view host) {
  const std::string name = lower(host);
  if (name == "localhost" || name == "localhost.") return true;
  if (name == "::1" || name == "[::1]") return true;
  return is_ipv4_loopback(name);
}

std::optional<RequestRefusal> check_request_headers(const RequestHeaders& request, std::string_view listen_host,
                                                    int port) {
  if (is_loopback_host(listen_host)) {
    const auto host = request.host ? split_host_port(*request.host) : std::nullopt;
    if (!host || !is_loopback_host(host->host) || host->port != port)
      return RequestRefusal{403, "this server answers only requests for this machine's loopback address with its port "
                                 "(Host: 127.0.0.1:" + std::to_string(port) + " or localhost:" + std::to_string(port) +
                                     "), not Host: " + std::string(request.host.value_or("(none)"))};
  }
  if (!changes_state(request.method)) return std::nullopt;
  if (request.origin) {
    const std::string own = "http://" + lower(request.host.value_or(""));
    if (lower(*request.origin) != own)
      return RequestRefusal{403, "requests that change something are accepted only from the viewer's own page (" + own +
                                     "), not from Origin " + std::string(*request.origin)};
  }
  if (request.content_encoding && lower(*request.content_encoding) != "identity")
    return RequestRefusal{415, "encoded request bodies (Content-Encoding: " + std::string(*request.content_encoding) +
                                   ") are not accepted"};
  const std::string type = lower(request.content_type.value_or(""));
  const std::string_view media = std::string_view(type).substr(0, type.find(';'));
  const std::size_t last = media.find_last_not_of(" \t");
  if (last == std::string_view::npos || media.substr(0, last + 1) != "application/json")
    return RequestRefusal{415, "the request body must be JSON sent with Content-Type: application/json, not " +
                                   (request.content_type ? std::string(*request.content_type) : std::string("none"))};
  return std::nullopt;
}

}  // namespace wayfinder::viewer
