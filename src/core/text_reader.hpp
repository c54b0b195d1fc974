#pragma once
// What a reader of a text format starts from: the text helpers (text_fields.hpp: lines, fields
// with their columns, strict numbers, quoting), reading a whole file (text_file.hpp) and
// LoadError, the one error every reader throws. The helpers' names that every reader uses
// unqualified are gathered in `text_reading`, which a reader's source opens with
// `using namespace text_reading;`. Internal to the library.

#include "text_fields.hpp"
#include "text_file.hpp"
#include "wayfinder/core/load_error.hpp"

namespace wayfinder::text_reading {

using text::Field;
using text::Line;
using text::NumberProblem;
using text::quoted;

}  // namespace wayfinder::text_reading
