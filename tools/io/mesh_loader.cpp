// loadMesh(): OBJ through tinyobjloader with the file's indices kept as they are (no
// triangulation by the parser, which silently drops faces with bad indices); OFF through our own
// reader; PLY/glTF through assimp, which keeps their indexing too; STL through assimp + exact weld.
#include "tools/io/mesh_loader.h"

#include "tools/io/mesh_weld.h"
#include "tools/io/off_reader.h"
#include "tools/io/ply_check.h"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <exception>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

namespace vkc::io {
namespace {

std::string quoted(const std::filesystem::path& path) { return "mesh file \"" + path.string() + "\""; }

// tinyobjloader's messages end in newlines and may hold several lines; one line reads better.
std::string oneLine(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
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

Result<MeshData> loadObj(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return makeError(ErrorCode::IoError, quoted(path) + ": cannot open");
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::istringstream stream(text);
    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warning, error;
    NoMaterials noMaterials;
    const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warning, &error, &stream, &noMaterials,
                                     /*triangulate=*/false, /*default_vcols_fallback=*/false);
    if (!ok || !error.empty())
        return makeError(ErrorCode::IoError, quoted(path) + ": parse error: " + oneLine(error.empty() ? warning : error));

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

void appendNode(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, MeshData& out,
                std::vector<bool>& used) {
    const aiMatrix4x4 transform = parent * node.mTransformation;
    // A mirroring transform turns counter-clockwise into clockwise; swap two corners to undo it.
    const bool mirrored = transform.Determinant() < 0.0f;
    const bool identity = transform.IsIdentity();
    for (unsigned m = 0; m < node.mNumMeshes; ++m) {
        const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
        used[node.mMeshes[m]] = true;
        const uint32_t base = uint32_t(out.positions.size());
        for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
            const aiVector3D p = identity ? mesh.mVertices[v] : transform * mesh.mVertices[v];
            out.positions.emplace_back(p.x, p.y, p.z);
        }
        // An index past this mesh's vertices would land in the next merged mesh; make it plainly
        // out of range instead, so that checkMesh reports it.
        auto index = [&](unsigned i) {
            return i < mesh.mNumVertices ? base + i : std::numeric_limits<uint32_t>::max();
        };
        for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
            const aiFace& face = mesh.mFaces[f];
            // Fans, here rather than aiProcess_Triangulate: that step ai_asserts (aborts) on the
            // malformed faces some readers produce from truncated files. Points and lines are skipped.
            for (unsigned k = 1; k + 1 < face.mNumIndices; ++k) {
                out.indices.push_back(index(face.mIndices[0]));
                out.indices.push_back(index(face.mIndices[mirrored ? k + 1 : k]));
                out.indices.push_back(index(face.mIndices[mirrored ? k : k + 1]));
            }
        }
    }
    for (unsigned c = 0; c < node.mNumChildren; ++c) appendNode(scene, *node.mChildren[c], transform, out, used);
}

Result<MeshData> loadWithAssimp(const std::filesystem::path& path) {
    Assimp::Importer importer;
    // No post-processing at all. Not aiProcess_JoinIdenticalVertices: assimp's PLY and glTF
    // readers keep the file's indexing, and its weld is fuzzy (a few ULPs), which made two
    // degenerate triangles in the welded dragon; STL is welded exactly by the caller instead.
    // Not aiProcess_FindDegenerates: degenerate faces must stay visible to checkMesh. Not
    // aiProcess_Triangulate: see appendNode.
    const aiScene* scene = importer.ReadFile(path.string(), 0);
    if (scene == nullptr)
        return makeError(ErrorCode::IoError, quoted(path) + ": parse error: " + oneLine(importer.GetErrorString()));

    MeshData mesh;
    mesh.name = path.string();
    std::vector<bool> used(scene->mNumMeshes, false);
    if (scene->mRootNode != nullptr) appendNode(*scene, *scene->mRootNode, aiMatrix4x4(), mesh, used);
    // Meshes that no node places (possible in glTF) are still part of the file: take them as is.
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        if (used[m]) continue;
        aiNode single;
        unsigned index = m;
        single.mNumMeshes = 1;
        single.mMeshes = &index;
        appendNode(*scene, single, aiMatrix4x4(), mesh, used);
        single.mMeshes = nullptr;  // not owned: keep ~aiNode from deleting it
        single.mNumMeshes = 0;
    }
    return mesh;
}

}  // namespace

Result<MeshData> loadMesh(const std::filesystem::path& path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (!std::filesystem::exists(status)) return makeError(ErrorCode::NotFound, quoted(path) + ": not found");
    if (!std::filesystem::is_regular_file(status))
        return makeError(ErrorCode::IoError, quoted(path) + ": not a regular file");

    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    const bool viaAssimp = extension == ".stl" || extension == ".ply" || extension == ".gltf" || extension == ".glb";
    if (extension != ".obj" && extension != ".off" && !viaAssimp)
        return makeError(ErrorCode::Unsupported, quoted(path) + ": unknown extension \"" + extension +
                                                     "\" (supported: .obj .off .stl .ply .gltf .glb)");
    try {
        if (extension == ".ply") VKC_TRY(checkAsciiPlyComplete(path));
        Result<MeshData> mesh = viaAssimp ? loadWithAssimp(path) : (extension == ".off" ? readOff(path) : loadObj(path));
        // STL stores three corners per facet and nothing else: weld, or every edge looks open.
        if (mesh.ok() && extension == ".stl") mesh = weldExactDuplicates(*mesh);
        if (mesh.ok() && mesh->indices.empty())
            return makeError(ErrorCode::InvalidMesh, quoted(path) + ": no triangles");
        return mesh;
    } catch (const std::exception& e) {  // bad_alloc, or a parser that throws past its own handlers
        return makeError(ErrorCode::IoError, quoted(path) + ": " + e.what());
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
