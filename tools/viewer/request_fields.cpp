#include "viewer/request_fields.hpp"

#include <cmath>

namespace wayfinder::viewer {

void refuse(const std::string& why, int status) { throw Refusal(status, why); }

ApiResponse json_response(int status, const Json& json) { return {status, json.dump()}; }

ApiResponse error_response(int status, const std::string& why) {
  Json json;
  json["error"] = why;
  return json_response(status, json);
}

Json parse_body(std::string_view body, const ApiLimits& limits) {
  // A parsed value takes several times the bytes of its text (a 25 MB list of cells made nearly
  // 1 GB), so parsing stops as soon as the body has more values or deeper nesting than any
  // request of the API needs.
  std::size_t values = 0;
  const auto bound = [&](int depth, nlohmann::json::parse_event_t event, Json&) {
    if (depth > limits.max_json_depth)
      refuse("the request body nests deeper than " + std::to_string(limits.max_json_depth) + " levels");
    if (event != nlohmann::json::parse_event_t::key && event != nlohmann::json::parse_event_t::object_end &&
        event != nlohmann::json::parse_event_t::array_end && ++values > limits.max_json_values)
      refuse("the request body has more than " + std::to_string(limits.max_json_values) + " JSON values", 413);
    return true;
  };
  // The default parser rejects NaN and Infinity literals; numbers too large for a double
  // become infinities, which finite_number() refuses.
  Json json = Json::parse(body.begin(), body.end(), bound, /*allow_exceptions=*/false);
  if (json.is_discarded()) refuse("the request body is not valid JSON");
  if (!json.is_object()) refuse("the request body must be a JSON object");
  return json;
}

const Json* member(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found == object.end() || found->is_null() ? nullptr : &*found;
}

std::string text_member(const Json& object, const char* key, const std::string& fallback) {
  const Json* value = member(object, key);
  if (value == nullptr) return fallback;
  if (!value->is_string()) refuse(std::string("\"") + key + "\" must be a string");
  return value->get<std::string>();
}

double finite_number(const Json& value, const std::string& what) {
  if (!value.is_number()) refuse(what + " must be a number");
  const double number = value.get<double>();
  if (!std::isfinite(number)) refuse(what + " must be a finite number");
  return number;
}

std::optional<double> number_member(const Json& object, const char* key) {
  const Json* value = member(object, key);
  if (value == nullptr) return std::nullopt;
  return finite_number(*value, std::string("\"") + key + "\"");
}

long long whole_number(const Json& value, const std::string& what, long long low, long long high) {
  if (!value.is_number_integer() && !(value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>()))
    refuse(what + " must be a whole number");
  const double as_double = value.get<double>();
  if (!(as_double >= static_cast<double>(low) && as_double <= static_cast<double>(high)))
    refuse(what + " must be in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
  return value.is_number_integer() ? value.get<long long>() : static_cast<long long>(as_double);
}

double number_in_range(const Json& object, const char* key, double low, double high, double fallback) {
  const auto value = number_member(object, key);
  if (!value) return fallback;
  if (!(*value >= low && *value <= high))
    refuse(std::string("\"") + key + "\" must be in [" + Json(low).dump() + ", " + Json(high).dump() + "], not " +
           Json(*value).dump());
  return *value;
}

bool bool_member(const Json& object, const char* key, bool fallback) {
  const Json* value = member(object, key);
  if (value == nullptr) return fallback;
  if (!value->is_boolean()) refuse(std::string("\"") + key + "\" must be true or false");
  return value->get<bool>();
}

std::vector<double> coordinates(const Json& object, const char* key, std::size_t size, bool whole) {
  const Json* value = member(object, key);
  if (value == nullptr) refuse(std::string("\"") + key + "\" is missing");
  if (!value->is_array() || value->size() != size)
    refuse(std::string("\"") + key + "\" must be an array of " + std::to_string(size) + " numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < size; ++i) {
    const std::string what = std::string("\"") + key + "\"[" + std::to_string(i) + "]";
    out.push_back(whole ? static_cast<double>(whole_number((*value)[i], what, -(1LL << 31), (1LL << 31) - 1))
                        : finite_number((*value)[i], what));
  }
  return out;
}

}  // namespace wayfinder::viewer
