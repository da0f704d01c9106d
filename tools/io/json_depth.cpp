// See json_depth.h.
#include "tools/io/json_depth.h"

#include "tools/io/file_text.h"

#include <algorithm>

namespace vkc::io {

Status checkJsonDepth(std::string_view text, const std::string& what, ErrorCode code, size_t maxDepth) {
    size_t depth = 0, line = 1;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') ++line;
        if (inString) {
            if (c == '\\') ++i;  // the escaped character cannot end the string
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return makeError(code, what + ": line " + std::to_string(line) + ": JSON nested deeper than " +
                                           std::to_string(maxDepth) + " levels");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return Status::success();
}

std::string jsonLocation(std::string_view text, size_t byte) {
    byte = std::min(byte, text.size());
    size_t line = 1, column = 1;
    for (size_t i = 0; i + 1 < byte; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string jsonParseReason(std::string_view what) {
    if (const size_t colon = what.find(": "); colon != std::string_view::npos) what.remove_prefix(colon + 2);
    return printable(what, 120);
}

}  // namespace vkc::io
