#pragma once
// Output files that would overwrite a command's own input: `grid preprocess MAP -o MAP` would
// replace the map with its jump table and report success. Commands that write files check their
// outputs against their inputs here before reading anything.

#include <string>

namespace wayfinder::cli {

/// Whether the two paths name one file: the same existing file (std::filesystem::equivalent, so
/// "arena.map", "./arena.map", an absolute path or a link to it all count), or, when either does
/// not exist yet, the same path once made absolute and normalised.
bool same_file(const std::string& first, const std::string& second);

/// Throws CommandError (exit 2) when the output `output_path` (given with `output_flag`, e.g.
/// "-o") is the same file as `input_path` (what the command reads, named `input_name`, e.g.
/// "the map"), saying that writing it would overwrite that input.
void refuse_output_over(const std::string& output_flag, const std::string& output_path, const std::string& input_name,
                        const std::string& input_path);

}  // namespace wayfinder::cli
