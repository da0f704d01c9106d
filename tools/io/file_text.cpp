// See file_text.h.
#include "tools/io/file_text.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace vkc::io {

std::string meshFileName(const std::filesystem::path& path) { return "mesh file \"" + path.string() + "\""; }

std::string printable(std::string_view text, size_t maxChars) {
    std::string out;
    for (size_t i = 0; i < text.size() && i < maxChars; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        out += c >= 0x20 && c < 0x7F ? char(c) : '?';
    }
    return text.size() > maxChars ? out + "..." : out;
}

std::string quotedToken(std::string_view token) { return "\"" + printable(token, 32) + "\""; }

Result<std::string> readWholeFile(const std::filesystem::path& path) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return makeError(ErrorCode::IoError, meshFileName(path) + ": not a regular file");
    std::ifstream file(path, std::ios::binary);
    if (!file) return makeError(ErrorCode::IoError, meshFileName(path) + ": cannot open");
    std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (file.bad()) return makeError(ErrorCode::IoError, meshFileName(path) + ": read error");
    return bytes;
}

namespace {

// from_chars does not take a leading '+'; files written by printf("%+f") have one.
std::string_view withoutPlus(std::string_view token) {
    if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+') token.remove_prefix(1);
    return token;
}

template <typename T>
bool parseReal(std::string_view token, T& value) {
    token = withoutPlus(token);
    if (token.empty()) return false;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (end != token.data() + token.size()) return false;
    if (error == std::errc()) return true;
    if (error != std::errc::result_out_of_range) return false;
    // The syntax is valid (from_chars consumed it all); strtod gives the value C would: ±HUGE_VAL
    // for overflow, a denormal or 0 for underflow.
    const std::string copy(token);
    value = T(std::strtod(copy.c_str(), nullptr));
    return true;
}

}  // namespace

bool parseFloat(std::string_view token, float& value) { return parseReal(token, value); }
bool parseDouble(std::string_view token, double& value) { return parseReal(token, value); }

bool TextLines::next(std::vector<std::string_view>& tokens) {
    while (at_ < text_.size()) {
        size_t end = text_.find_first_of("\r\n", at_);
        if (end == std::string_view::npos) end = text_.size();
        std::string_view line = text_.substr(at_, end - at_);
        at_ = end;
        if (at_ < text_.size()) at_ += (text_[at_] == '\r' && at_ + 1 < text_.size() && text_[at_ + 1] == '\n') ? 2 : 1;
        number_ = next_++;
        if (comment_ != '\0') line = line.substr(0, line.find(comment_));
        tokens.clear();
        while (true) {
            const size_t begin = line.find_first_not_of(" \t\f\v");
            if (begin == std::string_view::npos) break;
            line.remove_prefix(begin);
            const size_t length = std::min(line.find_first_of(" \t\f\v"), line.size());
            tokens.push_back(line.substr(0, length));
            line.remove_prefix(length);
        }
        if (!tokens.empty()) return true;
    }
    return false;
}

}  // namespace vkc::io
