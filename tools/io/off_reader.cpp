// readOff(): line-by-line, one vertex or face per line as the format lays them out. The whole
// file is read first so that the announced counts can be checked against its size: a 22-byte
// file announcing 200,000,000 vertices must not allocate 2.4 GB before failing.
#include "tools/io/off_reader.h"

#include "tools/io/file_text.h"

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace vkc::io {
namespace {

// The shortest text a vertex ("0 0 0\n") and a face ("0\n") can take.
constexpr uint64_t kMinVertexBytes = 6;
constexpr uint64_t kMinFaceBytes = 2;

}  // namespace

Result<MeshData> readOff(const std::filesystem::path& path) {
    const std::string file = meshFileName(path);
    Result<std::string> bytes = readWholeFile(path);
    if (!bytes.ok()) return bytes.status();
    TextLines lines(*bytes, 1, '#');
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
    if (tokens.size() < first + 2 || !parseInteger(tokens[first], vertexCount) ||
        !parseInteger(tokens[first + 1], faceCount))
        return fail("expected \"vertices faces [edges]\" counts");
    if (vertexCount >= std::numeric_limits<uint32_t>::max() || faceCount >= std::numeric_limits<uint32_t>::max())
        return fail("counts too large");
    const uint64_t left = lines.bytesLeft();
    if (vertexCount * kMinVertexBytes + faceCount * kMinFaceBytes > left)
        return fail(std::to_string(vertexCount) + " vertices and " + std::to_string(faceCount) +
                    " faces announced, but the " + std::to_string(left) + " bytes left cannot hold them");

    MeshData mesh;
    mesh.name = path.string();
    mesh.positions.resize(vertexCount);
    for (uint64_t v = 0; v < vertexCount; ++v) {
        if (!lines.next(tokens))
            return failEof("after " + std::to_string(v) + " of " + std::to_string(vertexCount) + " vertices");
        glm::vec3& p = mesh.positions[v];
        if (tokens.size() < 3 || !parseFloat(tokens[0], p.x) || !parseFloat(tokens[1], p.y) || !parseFloat(tokens[2], p.z))
            return fail("vertex " + std::to_string(v) + ": expected 3 numbers");
    }
    std::vector<uint32_t> corners;
    for (uint64_t f = 0; f < faceCount; ++f) {
        if (!lines.next(tokens))
            return failEof("after " + std::to_string(f) + " of " + std::to_string(faceCount) + " faces");
        uint32_t size = 0;
        if (!parseInteger(tokens[0], size)) return fail("face " + std::to_string(f) + ": expected a corner count");
        if (tokens.size() < size_t(size) + 1)
            return fail("face " + std::to_string(f) + ": " + std::to_string(size) + " corners announced, " +
                        std::to_string(tokens.size() - 1) + " given");
        corners.resize(size);
        for (uint32_t k = 0; k < size; ++k) {
            if (!parseInteger(tokens[k + 1], corners[k]))
                return fail("face " + std::to_string(f) + ": corner " + std::to_string(k) + " is not a vertex index");
        }
        for (uint32_t k = 1; k + 1 < size; ++k) mesh.indices.insert(mesh.indices.end(), {corners[0], corners[k], corners[k + 1]});
    }
    return mesh;
}

}  // namespace vkc::io
