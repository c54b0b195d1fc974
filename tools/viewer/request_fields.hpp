#pragma once
// Reading a JSON request body of the viewer's API: the body parsed within the API's bounds, and
// each field read with a check whose message names the field. A failed check throws Refusal,
// which ViewerApi::handle turns into a 4xx response; nothing is changed before every field of a
// request has been read.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/world_json.hpp"
#include "viewer/viewer_api.hpp"

namespace wayfinder::viewer {

/// A request the API refuses: the status (400, 404, 405, 409, 413, 507) and why.
struct Refusal : std::runtime_error {
  Refusal(int status_code, const std::string& why) : std::runtime_error(why), status(status_code) {}
  int status;
};

[[noreturn]] void refuse(const std::string& why, int status = 400);

ApiResponse json_response(int status, const Json& json);
ApiResponse error_response(int status, const std::string& why);

/// The body as a JSON object, parsed within `limits`' values and depth (NaN and Infinity
/// literals are not JSON and are refused).
Json parse_body(std::string_view body, const ApiLimits& limits);

/// The member `key` of `object`, or null when it is missing or null.
const Json* member(const Json& object, const char* key);
std::string text_member(const Json& object, const char* key, const std::string& fallback);
/// A finite number; `what` names the field in the refusal.
double finite_number(const Json& value, const std::string& what);
std::optional<double> number_member(const Json& object, const char* key);
/// A finite number in [low, high], or `fallback` when the member is missing.
double number_in_range(const Json& object, const char* key, double low, double high, double fallback);
/// A whole number in [low, high].
long long whole_number(const Json& value, const std::string& what, long long low, long long high);
bool bool_member(const Json& object, const char* key, bool fallback);
/// A coordinate array of `size` entries: [x, y] or [x, y, z], whole numbers or finite ones.
std::vector<double> coordinates(const Json& object, const char* key, std::size_t size, bool whole);

}  // namespace wayfinder::viewer
