// The example's geometry as a renderer holds it: every mesh in one interleaved vertex buffer
// (position, normal: 24 bytes a vertex) and one index buffer. vkcollide reads the positions in
// place from that buffer; the deformer's compute pass rewrites one mesh's there every frame.
#pragma once

#include "tools/examples/host_buffer.h"
#include "vkcollide/mesh.h"

#include <span>
#include <string>
#include <vector>

namespace vkc::example {

inline constexpr uint32_t kVertexStride = 24;

struct HostMeshRange {
    uint32_t firstVertex = 0, vertexCount = 0;
    uint32_t firstIndex = 0, indexCount = 0;
};

struct HostMeshes {
    HostBuffer vertices;  // vertex + storage buffer
    HostBuffer indices;   // uint32
    std::vector<HostMeshRange> ranges;  // per mesh
};

// Empty `error` on success.
HostMeshes createHostMeshes(const HostDevice& host, std::span<const MeshData* const> meshes, std::string& error);
void destroyHostMeshes(const HostDevice& host, HostMeshes& meshes);

}  // namespace vkc::example
