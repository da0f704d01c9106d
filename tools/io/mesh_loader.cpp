// loadMesh(): OBJ through tinyobjloader with the file's indices kept as they are (no
// triangulation by the parser, which silently drops faces with bad indices); OFF, PLY, STL and
// glTF through our own bounded readers (assimp's crashed, hung or overread on damaged files);
// STL welded exactly.
#include "tools/io/mesh_loader.h"

#include "tools/io/file_text.h"
#include "tools/io/gltf_reader.h"
#include "tools/io/mesh_weld.h"
#include "tools/io/off_reader.h"
#include "tools/io/ply_reader.h"
#include "tools/io/stl_reader.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <exception>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

namespace vkc::io {
namespace {

// tinyobjloader's messages end in newlines, may hold several lines and quote the offending
// line, however long; one short line reads better.
std::string oneLine(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    std::replace(text.begin(), text.end(), '\n', ' ');
    return printable(text, 200);
}

// mtllib lines are irrelevant here; reading them would only add "material not found" noise.
class NoMaterials final : public tinyobj::MaterialReader {
public:
    bool operator()(const std::string&, std::vector<tinyobj::material_t>*, std::map<std::string, int>*,
                    std::string*, std::string*) override {
        return true;
    }
};

// tinyobjloader reads "nan" and "inf" as 0, which would hide exactly the defect checkMesh looks
// for. Re-read the 'v' lines and put back any coordinate that spells a non-finite value.
void restoreNonFinite(const std::string& text, std::vector<glm::vec3>& positions) {
    size_t vertex = 0;
    for (size_t begin = 0; begin < text.size();) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        std::string_view line(text.data() + begin, end - begin);
        begin = end + 1;
        const size_t start = line.find_first_not_of(" \t");
        if (start == std::string_view::npos || line.size() < start + 2 || line[start] != 'v' ||
            (line[start + 1] != ' ' && line[start + 1] != '\t'))
            continue;
        if (vertex >= positions.size()) return;  // counts disagree: trust tinyobjloader
        line.remove_prefix(start + 2);
        for (int axis = 0; axis < 3; ++axis) {
            const size_t from = line.find_first_not_of(" \t\r");
            if (from == std::string_view::npos) break;
            line.remove_prefix(from);
            const size_t length = std::min(line.find_first_of(" \t\r"), line.size());
            float value = 0.0f;
            const auto result = std::from_chars(line.data(), line.data() + length, value);
            if (result.ec == std::errc() && !std::isfinite(value)) positions[vertex][axis] = value;
            line.remove_prefix(length);
        }
        ++vertex;
    }
}

// Vertex skin weights ("vw", a tinyobjloader extension vkcollide never reads) become comments
// before parsing: tinyobjloader converts their joint ids from float to int unchecked, undefined
// for ids beyond int's range (found by fuzz_mesh_obj). A line starts wherever tinyobjloader may
// start one: after '\n' or '\r'.
void commentOutVertexWeights(std::string& text) {
    for (size_t start = 0; start < text.size();) {
        const size_t first = text.find_first_not_of(" \t", start);
        if (first == std::string::npos) return;
        if (first + 2 < text.size() && text[first] == 'v' && text[first + 1] == 'w' &&
            (text[first + 2] == ' ' || text[first + 2] == '\t'))
            text[first] = '#';
        const size_t end = text.find_first_of("\n\r", first);
        if (end == std::string::npos) return;
        start = end + 1;
    }
}

Result<MeshData> loadObj(const std::filesystem::path& path) {
    Result<std::string> bytes = readWholeFile(path);
    if (!bytes.ok()) return bytes.status();
    commentOutVertexWeights(*bytes);
    const std::string& text = *bytes;
    std::istringstream stream(text);
    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warning, error;
    NoMaterials noMaterials;
    const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warning, &error, &stream, &noMaterials,
                                     /*triangulate=*/false, /*default_vcols_fallback=*/false);
    if (!ok || !error.empty())
        return makeError(ErrorCode::IoError, meshFileName(path) + ": parse error: " + oneLine(error.empty() ? warning : error));

    MeshData mesh;
    mesh.name = path.string();
    mesh.positions.resize(attrib.vertices.size() / 3);
    for (size_t v = 0; v < mesh.positions.size(); ++v)
        mesh.positions[v] = {attrib.vertices[3 * v], attrib.vertices[3 * v + 1], attrib.vertices[3 * v + 2]};
    restoreNonFinite(text, mesh.positions);
    // Negative results of tinyobj's index fix-up (bad relative indices) become an index that is
    // certainly out of range, so checkMesh reports them instead of this loader hiding them.
    auto toIndex = [](int index) { return index < 0 ? std::numeric_limits<uint32_t>::max() : uint32_t(index); };
    for (const tinyobj::shape_t& shape : shapes) {
        size_t offset = 0;
        for (unsigned faceSize : shape.mesh.num_face_vertices) {
            // Fan triangulation keeps every index of the face; faces with < 3 corners are skipped.
            for (unsigned k = 1; k + 1 < faceSize; ++k) {
                mesh.indices.push_back(toIndex(shape.mesh.indices[offset].vertex_index));
                mesh.indices.push_back(toIndex(shape.mesh.indices[offset + k].vertex_index));
                mesh.indices.push_back(toIndex(shape.mesh.indices[offset + k + 1].vertex_index));
            }
            offset += faceSize;
        }
    }
    return mesh;
}

}  // namespace

Result<MeshData> loadMesh(const std::filesystem::path& path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (!std::filesystem::exists(status)) return makeError(ErrorCode::NotFound, meshFileName(path) + ": not found");
    if (!std::filesystem::is_regular_file(status))
        return makeError(ErrorCode::IoError, meshFileName(path) + ": not a regular file");

    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    using Reader = Result<MeshData> (*)(const std::filesystem::path&);
    const std::pair<const char*, Reader> kReaders[] = {
        {".obj", loadObj}, {".off", readOff}, {".stl", readStl}, {".ply", readPly}, {".gltf", readGltf}, {".glb", readGltf}};
    const auto reader = std::find_if(std::begin(kReaders), std::end(kReaders),
                                     [&](const auto& entry) { return extension == entry.first; });
    if (reader == std::end(kReaders))
        return makeError(ErrorCode::Unsupported, meshFileName(path) + ": unknown extension \"" + extension +
                                                     "\" (supported: .obj .off .stl .ply .gltf .glb)");
    try {
        Result<MeshData> mesh = reader->second(path);
        // STL stores three corners per facet and nothing else: weld, or every edge looks open.
        if (mesh.ok() && extension == ".stl") mesh = weldExactDuplicates(*mesh);
        if (mesh.ok() && mesh->indices.empty())
            return makeError(ErrorCode::InvalidMesh, meshFileName(path) + ": no triangles");
        return mesh;
    } catch (const std::exception& e) {  // bad_alloc, or tinyobjloader throwing past its own handlers
        return makeError(ErrorCode::IoError, meshFileName(path) + ": " + e.what());
    }
}

Result<std::vector<glm::vec3>> loadVertexFile(const std::filesystem::path& path, size_t expectedCount) {
    Result<MeshData> mesh = loadMesh(path);
    if (!mesh.ok()) return mesh.status();
    if (mesh->positions.size() != expectedCount)
        return makeError(ErrorCode::InvalidMesh, "vertex file \"" + path.string() + "\": " +
                                                     std::to_string(mesh->positions.size()) +
                                                     " vertices, but the mesh it deforms has " +
                                                     std::to_string(expectedCount));
    return std::move(mesh->positions);
}

}  // namespace vkc::io
