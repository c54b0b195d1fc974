#pragma once
// Content negotiation for the page's embedded files: whether a request's Accept-Encoding lets the
// server send the gzipped copy (RFC 9110, section 12.5.3).

#include <string_view>

namespace wayfinder::viewer {

/// True when `accept_encoding` (the value of a request's Accept-Encoding header) accepts gzip:
/// it names `gzip` (or its alias `x-gzip`) with a weight above zero, or, naming neither, names
/// `*` with a weight above zero. Coding names and the `q` parameter are case-insensitive;
/// `gzip;q=0` refuses gzip, and an empty value accepts only the plain bytes. A request without
/// the header gets the plain bytes too (the caller's choice: any coding would be allowed).
/// An element whose weight is not a valid qvalue is taken as a refusal.
[[nodiscard]] bool accepts_gzip(std::string_view accept_encoding);

}  // namespace wayfinder::viewer
