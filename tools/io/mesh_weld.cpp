// weldExactDuplicates(): one hash map from position bits to the new vertex index.
#include "tools/io/mesh_weld.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace vkc::io {
namespace {

struct PositionKey {
    uint32_t x, y, z;
    bool operator==(const PositionKey&) const = default;
};

struct PositionHash {
    size_t operator()(const PositionKey& k) const {
        uint64_t h = (uint64_t(k.x) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(k.y) * 0xC2B2AE3D27D4EB4Full);
        h ^= uint64_t(k.z) * 0x165667B19E3779F9ull;
        return size_t(h ^ (h >> 29));
    }
};

// +0 and -0 are the same point; adding 0.0f turns -0 into +0 and leaves every other value alone.
uint32_t bitsOf(float value) { return std::bit_cast<uint32_t>(value + 0.0f); }

}  // namespace

MeshData weldExactDuplicates(const MeshData& mesh) {
    MeshData out;
    out.name = mesh.name;
    out.positions.reserve(mesh.positions.size() / 4);
    std::vector<uint32_t> remap(mesh.positions.size());
    std::unordered_map<PositionKey, uint32_t, PositionHash> first;
    first.reserve(mesh.positions.size());
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
        const glm::vec3& p = mesh.positions[v];
        const uint32_t next = uint32_t(out.positions.size());
        if (!(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))) {
            remap[v] = next;
            out.positions.push_back(p);
            continue;
        }
        auto [it, inserted] = first.try_emplace(PositionKey{bitsOf(p.x), bitsOf(p.y), bitsOf(p.z)}, next);
        if (inserted) out.positions.push_back(p);
        remap[v] = it->second;
    }
    out.indices.reserve(mesh.indices.size());
    // Out-of-range indices stay out of range (checkMesh must still see them).
    for (uint32_t index : mesh.indices)
        out.indices.push_back(index < remap.size() ? remap[index] : uint32_t(-1));
    return out;
}

}  // namespace vkc::io
