// Benchmark scenes of generated solids: a box, an icosphere (subdivision 2) and a torus cycled
// over `count` objects at seeded random rigid poses, in a cube that grows with the count so the
// density (and so the pairs per object) stays roughly constant. CPU-side only; see toScene().
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/scene.h"
#include "vkcollide/status.h"

#include <glm/mat4x4.hpp>

#include <cstdint>
#include <vector>

namespace vkc::bench {

struct SolidScene {
    std::vector<MeshData> meshes;
    std::vector<uint32_t> objectMesh;       // per object: index into meshes
    std::vector<glm::mat4> objectToWorld;   // per object

    size_t objectCount() const { return objectMesh.size(); }
    size_t triangleCount() const;           // over all objects
    size_t vertexCount() const;             // over all objects: what the bounds pass transforms
};

// World volume per object (units^3). The solids are about 1-2 units across, so this gives a few
// overlapping pairs per object: enough work for the pair test without the output dominating.
inline constexpr float kVolumePerObject = 10.0f;

SolidScene randomSolidScene(uint32_t count, uint32_t seed);

// Adds `count` objects cycling through scene.meshes at seeded random rigid poses in a cube of
// volume kVolumePerObject * count.
void placeAtRandom(SolidScene& scene, uint32_t count, uint32_t seed);

// Two icospheres of radius 1 at `subdivisions`, overlapping (centres 1.5 apart): vertex scaling.
SolidScene spherePairScene(uint32_t subdivisions);

// Uploads the meshes and places the objects (blocking; setup, not timed).
Result<Scene> toScene(Context& context, const SolidScene& solids);

}  // namespace vkc::bench
