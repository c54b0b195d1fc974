// Fuzzes the server's reading of a request's Accept-Encoding header
// (tools/viewer/accept_encoding.cpp), which any HTTP client controls: any bytes must give an
// answer without crashing, hanging or tripping a sanitizer, and the answer must not depend on
// what RFC 9110 says does not matter: the letter case of coding names and of the `q` parameter,
// and whitespace before the first element. Built from the viewer's source with the target, since
// the fuzzer build leaves the tools out.

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "viewer/accept_encoding.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string header(reinterpret_cast<const char*>(data), size);
  const bool accepted = wayfinder::viewer::accepts_gzip(header);

  std::string upper = header;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (wayfinder::viewer::accepts_gzip(upper) != accepted) std::abort();  // case must not matter

  if (wayfinder::viewer::accepts_gzip(" \t" + header) != accepted) std::abort();  // nor leading whitespace
  return 0;
}
