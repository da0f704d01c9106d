// A scan of JSON text for its nesting depth, run before nlohmann parses it: nlohmann's parser,
// its values' copies and destructors all recurse once per level, so ~100,000 nested brackets
// overflow the stack (a crash, not an error).
#pragma once

#include "vkcollide/status.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace vkc::io {

// Deeper than any scene or glTF file needs (theirs are under 10), far below what overflows.
constexpr size_t kMaxJsonDepth = 64;

// Ok when no array/object in `text` nests deeper than `maxDepth` (brackets inside strings do not
// count; the text need not be valid JSON otherwise). Error (InvalidScene, or `code`):
// `<what>: line N: JSON nested deeper than 64 levels`.
Status checkJsonDepth(std::string_view text, const std::string& what, ErrorCode code = ErrorCode::InvalidScene,
                      size_t maxDepth = kMaxJsonDepth);

// "line L, column C" of byte offset `byte` in `text` (nlohmann reports errors by byte), 1-based.
std::string jsonLocation(std::string_view text, size_t byte);

// nlohmann's parse_error text without its "[json.exception...] parse error at ...: " prefix, cut
// to one short printable line (its "last read" part may quote a megabyte-long token).
std::string jsonParseReason(std::string_view what);

}  // namespace vkc::io
