// The interleaved vertex and index buffers; see host_meshes.h.
#include "tools/examples/host_meshes.h"

#include <glm/glm.hpp>

#include <cstring>

namespace vkc::example {
namespace {

// Area-weighted vertex normals: smooth shading is all the example needs.
std::vector<glm::vec3> vertexNormals(const MeshData& mesh) {
    std::vector<glm::vec3> normals(mesh.positions.size(), glm::vec3(0.0f));
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const uint32_t i0 = mesh.indices[t], i1 = mesh.indices[t + 1], i2 = mesh.indices[t + 2];
        const glm::vec3 n = glm::cross(mesh.positions[i1] - mesh.positions[i0], mesh.positions[i2] - mesh.positions[i0]);
        normals[i0] += n;
        normals[i1] += n;
        normals[i2] += n;
    }
    for (glm::vec3& n : normals) n = glm::length(n) > 0.0f ? glm::normalize(n) : glm::vec3(0.0f, 0.0f, 1.0f);
    return normals;
}

}  // namespace

HostMeshes createHostMeshes(const HostDevice& host, std::span<const MeshData* const> meshes, std::string& error) {
    HostMeshes out;
    uint32_t vertexCount = 0, indexCount = 0;
    for (const MeshData* mesh : meshes) {
        out.ranges.push_back({vertexCount, uint32_t(mesh->positions.size()), indexCount, uint32_t(mesh->indices.size())});
        vertexCount += uint32_t(mesh->positions.size());
        indexCount += uint32_t(mesh->indices.size());
    }
    out.vertices = createHostBuffer(host, VkDeviceSize(vertexCount) * kVertexStride,
                                    VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, error);
    if (error.empty())
        out.indices = createHostBuffer(host, VkDeviceSize(indexCount) * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, error);
    if (!error.empty()) return out;
    auto* vertices = static_cast<float*>(out.vertices.mapped);
    auto* indices = static_cast<uint32_t*>(out.indices.mapped);
    for (size_t m = 0; m < meshes.size(); ++m) {
        const MeshData& mesh = *meshes[m];
        const HostMeshRange& range = out.ranges[m];
        const std::vector<glm::vec3> normals = vertexNormals(mesh);
        for (uint32_t v = 0; v < range.vertexCount; ++v) {
            float* vertex = vertices + size_t(range.firstVertex + v) * (kVertexStride / 4);
            std::memcpy(vertex, &mesh.positions[v], 12);
            std::memcpy(vertex + 3, &normals[v], 12);
        }
        std::memcpy(indices + range.firstIndex, mesh.indices.data(), mesh.indices.size() * 4);
    }
    return out;
}

void destroyHostMeshes(const HostDevice& host, HostMeshes& meshes) {
    destroyHostBuffer(host, meshes.vertices);
    destroyHostBuffer(host, meshes.indices);
}

}  // namespace vkc::example
