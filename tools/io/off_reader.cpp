// readOff(): line-by-line, one vertex or face per line as the format lays them out.
#include "tools/io/off_reader.h"

#include <charconv>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace vkc::io {
namespace {

class Lines {
public:
    explicit Lines(std::istream& stream) : stream_(stream) {}

    // The next line with content, comments stripped, split into tokens; false at end of file.
    bool next(std::vector<std::string_view>& tokens) {
        while (std::getline(stream_, text_)) {
            ++number_;
            if (const size_t hash = text_.find('#'); hash != std::string::npos) text_.resize(hash);
            tokens.clear();
            std::string_view rest(text_);
            while (true) {
                const size_t begin = rest.find_first_not_of(" \t\r");
                if (begin == std::string_view::npos) break;
                rest.remove_prefix(begin);
                const size_t end = std::min(rest.find_first_of(" \t\r"), rest.size());
                tokens.push_back(rest.substr(0, end));
                rest.remove_prefix(end);
            }
            if (!tokens.empty()) return true;
        }
        return false;
    }
    size_t number() const { return number_; }

private:
    std::istream& stream_;
    std::string text_;
    size_t number_ = 0;
};

template <typename T>
bool parse(std::string_view token, T& value) {
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    return error == std::errc() && end == token.data() + token.size();
}

}  // namespace

Result<MeshData> readOff(const std::filesystem::path& path) {
    const std::string file = "mesh file \"" + path.string() + "\"";
    std::ifstream stream(path, std::ios::binary);
    if (!stream) return makeError(ErrorCode::IoError, file + ": cannot open");
    Lines lines(stream);
    auto fail = [&](const std::string& what) {
        return makeError(ErrorCode::IoError, file + ": line " + std::to_string(lines.number()) + ": " + what);
    };
    auto failEof = [&](const std::string& what) {
        return makeError(ErrorCode::IoError, file + ": unexpected end of file: " + what);
    };

    std::vector<std::string_view> tokens;
    if (!lines.next(tokens)) return failEof("no OFF header");
    size_t first = 0;
    const std::string_view header = tokens[0];
    if (header.size() >= 3 && header.substr(header.size() - 3) == "OFF") {
        if (tokens.size() > 1 && tokens[1] == "BINARY") return fail("binary OFF is not supported");
        first = 1;  // counts may follow the header on the same line
        if (tokens.size() == 1) {
            if (!lines.next(tokens)) return failEof("no vertex/face counts");
            first = 0;
        }
    }
    uint64_t vertexCount = 0, faceCount = 0;
    if (tokens.size() < first + 2 || !parse(tokens[first], vertexCount) || !parse(tokens[first + 1], faceCount))
        return fail("expected \"vertices faces [edges]\" counts");
    if (vertexCount >= std::numeric_limits<uint32_t>::max() || faceCount >= std::numeric_limits<uint32_t>::max())
        return fail("counts too large");

    MeshData mesh;
    mesh.name = path.string();
    mesh.positions.resize(vertexCount);
    for (uint64_t v = 0; v < vertexCount; ++v) {
        if (!lines.next(tokens))
            return failEof("after " + std::to_string(v) + " of " + std::to_string(vertexCount) + " vertices");
        glm::vec3& p = mesh.positions[v];
        if (tokens.size() < 3 || !parse(tokens[0], p.x) || !parse(tokens[1], p.y) || !parse(tokens[2], p.z))
            return fail("vertex " + std::to_string(v) + ": expected 3 numbers");
    }
    std::vector<uint32_t> corners;
    for (uint64_t f = 0; f < faceCount; ++f) {
        if (!lines.next(tokens))
            return failEof("after " + std::to_string(f) + " of " + std::to_string(faceCount) + " faces");
        uint32_t size = 0;
        if (!parse(tokens[0], size)) return fail("face " + std::to_string(f) + ": expected a corner count");
        if (tokens.size() < size_t(size) + 1)
            return fail("face " + std::to_string(f) + ": " + std::to_string(size) + " corners announced, " +
                        std::to_string(tokens.size() - 1) + " given");
        corners.resize(size);
        for (uint32_t k = 0; k < size; ++k) {
            if (!parse(tokens[k + 1], corners[k]))
                return fail("face " + std::to_string(f) + ": corner " + std::to_string(k) + " is not a vertex index");
        }
        for (uint32_t k = 1; k + 1 < size; ++k) mesh.indices.insert(mesh.indices.end(), {corners[0], corners[k], corners[k + 1]});
    }
    return mesh;
}

}  // namespace vkc::io
