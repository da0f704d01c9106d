// readStl(): binary by its fixed record size, ASCII as a sequence of keyword lines.
#include "tools/io/stl_reader.h"

#include "tools/io/file_text.h"

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace vkc::io {
namespace {

constexpr size_t kBinaryHeaderBytes = 84;  // 80-byte comment + uint32 facet count
constexpr size_t kBinaryFacetBytes = 50;   // normal, 3 vertices (12 floats), uint16 attribute

uint64_t binaryFacetCount(std::string_view bytes) {
    uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);  // little endian, like every machine we build for
    return count;
}

Result<MeshData> readBinary(const std::filesystem::path& path, std::string_view bytes) {
    const std::string file = meshFileName(path) + ": binary STL: ";
    if (bytes.size() < kBinaryHeaderBytes)
        return makeError(ErrorCode::IoError, file + std::to_string(bytes.size()) + " bytes, shorter than the 84-byte header");
    const uint64_t facets = binaryFacetCount(bytes);
    const uint64_t expected = kBinaryHeaderBytes + kBinaryFacetBytes * facets;
    if (bytes.size() != expected)
        return makeError(ErrorCode::IoError, file + std::to_string(facets) + " facets announced, which take 84 + 50 x " +
                                                 std::to_string(facets) + " = " + std::to_string(expected) +
                                                 " bytes, but the file has " + std::to_string(bytes.size()));
    MeshData mesh;
    mesh.name = path.string();
    mesh.positions.resize(3 * facets);
    mesh.indices.resize(3 * facets);
    for (uint64_t f = 0; f < facets; ++f) {
        const char* record = bytes.data() + kBinaryHeaderBytes + kBinaryFacetBytes * f;
        std::memcpy(&mesh.positions[3 * f], record + 12, 36);  // skips the normal
        for (uint32_t k = 0; k < 3; ++k) mesh.indices[3 * f + k] = uint32_t(3 * f + k);
    }
    return mesh;
}

Result<MeshData> readAscii(const std::filesystem::path& path, std::string_view bytes) {
    const std::string file = meshFileName(path);
    TextLines lines(bytes);
    std::vector<std::string_view> tokens;
    auto fail = [&](const std::string& what) {
        return makeError(ErrorCode::IoError, file + ": line " + std::to_string(lines.number()) + ": " + what);
    };
    // The next line, which must start with `keyword` and have `count` tokens (0: any number).
    auto expect = [&](std::string_view keyword, size_t count, const std::string& context) -> Status {
        if (!lines.next(tokens))
            return makeError(ErrorCode::IoError, file + ": end of file " + context + ", expected \"" +
                                                     std::string(keyword) + "\"");
        if (tokens[0] != keyword || (count != 0 && tokens.size() != count))
            return fail("expected \"" + std::string(keyword) + "\"" + (count > 1 ? " with " + std::to_string(count - 1) + " values" : "") +
                        " " + context + ", found " + quotedToken(tokens[0]));
        return Status::success();
    };

    MeshData mesh;
    mesh.name = path.string();
    VKC_TRY(expect("solid", 0, "at the start"));
    size_t facet = 0;
    while (true) {
        if (!lines.next(tokens)) return makeError(ErrorCode::IoError, file + ": end of file before \"endsolid\"");
        if (tokens[0] == "endsolid") {
            if (!lines.next(tokens)) return mesh;
            if (tokens[0] != "solid") return fail("expected \"solid\" or the end of the file after \"endsolid\"");
            continue;
        }
        const std::string context = "in facet " + std::to_string(facet);
        if (tokens[0] != "facet" || tokens.size() != 5 || tokens[1] != "normal")
            return fail("expected \"facet normal nx ny nz\" or \"endsolid\", found " + quotedToken(tokens[0]));
        float normal = 0.0f;
        for (size_t k = 2; k < 5; ++k)
            if (!parseFloat(tokens[k], normal)) return fail(context + ": normal: " + quotedToken(tokens[k]) + " is not a number");
        VKC_TRY(expect("outer", 2, context));
        if (tokens[1] != "loop") return fail("expected \"outer loop\" " + context);
        for (int corner = 0; corner < 3; ++corner) {
            VKC_TRY(expect("vertex", 4, context + " (a facet has exactly 3 vertices)"));
            glm::vec3 p;
            for (int axis = 0; axis < 3; ++axis)
                if (!parseFloat(tokens[axis + 1], p[axis]))
                    return fail(context + ": " + quotedToken(tokens[axis + 1]) + " is not a number");
            mesh.indices.push_back(uint32_t(mesh.positions.size()));
            mesh.positions.push_back(p);
        }
        if (!lines.next(tokens)) return makeError(ErrorCode::IoError, file + ": end of file " + context);
        if (tokens[0] == "vertex") return fail(context + ": a 4th vertex (a facet has exactly 3)");
        if (tokens[0] != "endloop" || tokens.size() != 1) return fail("expected \"endloop\" " + context + ", found " + quotedToken(tokens[0]));
        VKC_TRY(expect("endfacet", 1, context));
        ++facet;
    }
}

}  // namespace

Result<MeshData> readStl(const std::filesystem::path& path) {
    Result<std::string> bytes = readWholeFile(path);
    if (!bytes.ok()) return bytes.status();
    const std::string_view text = *bytes;
    const bool sizeIsBinary =
        text.size() >= kBinaryHeaderBytes && text.size() == kBinaryHeaderBytes + kBinaryFacetBytes * binaryFacetCount(text);
    // Binary headers often start with "solid" too; a NUL byte (in the count or the floats) tells.
    const size_t start = text.find_first_not_of(" \t\r\n");
    const bool looksAscii = start != std::string_view::npos && text.substr(start, 5) == "solid" &&
                            text.find('\0') == std::string_view::npos;
    return !sizeIsBinary && looksAscii ? readAscii(path, text) : readBinary(path, text);
}

}  // namespace vkc::io
