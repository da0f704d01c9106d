// Scene-level exact oracle: every colliding object pair (a < b) with its exact answers.
#pragma once

#include "collision/reference/pair_query.h"

#include <vkcollide/mesh.h>
#include <vkcollide/status.h>

#include <glm/mat4x4.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace vkc::reference {

struct SceneObject {
    const MeshData* mesh = nullptr; // not owned; must outlive the call
    glm::dmat4 transform{1.0};      // object to world, rigid + uniform scale
};

struct ScenePairResult {
    uint32_t a = 0; // object index (position in the input span), a < b
    uint32_t b = 0;
    PairResult result;
};

struct SceneSettings {
    bool computeVolumes = true;    // corefinement per colliding pair of closed meshes (slow); false skips
    bool keepTrianglePairs = true; // keep each pair's triangle pair list, not only the count
    VolumeSettings volume;
};

// Broad phase: closed world AABB overlap over all object pairs; narrow phase: exactPair().
// Returns the interfering pairs only, sorted by (a, b). Errors: InvalidArgument for a null mesh,
// toWorld's errors (naming the mesh) prefixed with the object index.
Result<std::vector<ScenePairResult>> exactScene(std::span<const SceneObject> objects,
                                                const SceneSettings& settings = {});

}  // namespace vkc::reference
