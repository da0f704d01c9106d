// Shared pieces of the mesh readers, which take untrusted files: the whole file in memory (so
// every count a header announces can be checked against the bytes really there before anything
// is allocated), strict number parsing, and text split into line-numbered tokens.
#pragma once

#include "vkcollide/status.h"

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace vkc::io {

// `mesh file "p"`, the prefix of every reader's messages.
std::string meshFileName(const std::filesystem::path& path);

// `text` for a message: at most `maxChars` characters (then "..."), anything unprintable as '?'
// (an attacker's file may put control characters or a megabyte on one line).
std::string printable(std::string_view text, size_t maxChars);

// printable(token, 32) in double quotes.
std::string quotedToken(std::string_view token);

// The file's bytes. IoError (naming the file) when it cannot be opened or read, or is not a
// regular file (a FIFO or device would never end).
Result<std::string> readWholeFile(const std::filesystem::path& path);

// The whole token must be a number: "1.5", "-2e3", "+4", "nan", "inf". Out of float range is
// not an error: it gives ±inf (or ±0) as a C parser would, so checkMesh reports the coordinate.
bool parseFloat(std::string_view token, float& value);
bool parseDouble(std::string_view token, double& value);

// The whole token must be a decimal integer in T's range (a leading '+' is allowed).
template <typename T>
bool parseInteger(std::string_view token, T& value) {
    static_assert(std::is_integral_v<T>);
    if (token.size() > 1 && token[0] == '+' && token[1] != '-') token.remove_prefix(1);
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    return error == std::errc() && end == token.data() + token.size() && !token.empty();
}

// Non-empty lines of a text, split at blanks, with their 1-based line numbers. Accepts \n, \r\n
// and \r line ends. `comment` (if not '\0') starts a comment that runs to the end of the line.
class TextLines {
public:
    explicit TextLines(std::string_view text, size_t firstLine = 1, char comment = '\0')
        : text_(text), comment_(comment), next_(firstLine) {}

    // The next line with tokens; false at the end of the text.
    bool next(std::vector<std::string_view>& tokens);
    size_t number() const { return number_; }             // line of the tokens last returned
    size_t bytesLeft() const { return text_.size() - at_; }  // after the line last returned

private:
    std::string_view text_;
    char comment_;
    size_t at_ = 0;
    size_t number_ = 0;
    size_t next_;
};

}  // namespace vkc::io
