// A triangle mesh as the CPU sees it: positions and a triangle index list. Used by scene
// loading, mesh checks, the exact oracle and uploads. Units are the mesh file's own.
#pragma once

#include <glm/vec3.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vkc {

struct MeshData {
    std::string name;                 // for messages; the file or scene key it came from
    std::vector<glm::vec3> positions; // object-space vertex positions
    std::vector<uint32_t> indices;    // three per triangle, counter-clockwise seen from outside

    size_t triangleCount() const { return indices.size() / 3; }
};

}  // namespace vkc
