// The mesh pairs of the shared meshes README, "Reference intersection volumes": which files, the
// offset applied to B, and the exact volume(A ∩ B) that CGAL gave. Loaded with vkc::io::loadMesh
// from $VKC_SHARED_DIR/meshes (default: the shared/ folder beside the source tree).
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <filesystem>
#include <span>

namespace vkc::bench {

struct SharedMeshPair {
    const char* name;        // benchmark name suffix
    const char* fileA;       // under meshes/
    const char* fileB;       // the same as fileA for a mesh against a translated copy of itself
    glm::vec3 offsetB;       // world translation of B; A stays at the origin
    double referenceVolume;  // volume(A ∩ B) from the README (units^3 of the files); NaN: none
    bool large;              // over a million triangles: minutes per volume, so opt-in
};

std::span<const SharedMeshPair> sharedMeshPairs();

// Not a README reference pair (the dragon self-intersects: no CGAL volume), but its 871k triangles
// fill the gap between bunny_60k and the 1.38M armadillo. It is ~0.2 units long: a copy 0.02 along
// x overlaps it over its length. Large.
const SharedMeshPair& dragonPair();

std::filesystem::path sharedMeshDir();

// Both meshes of a pair, loaded once, and B's transform.
struct LoadedMeshPair {
    MeshData a;
    MeshData b;
    glm::mat4 transformA{1.0f};
    glm::mat4 transformB{1.0f};
};

// Errors: loadMesh's (NotFound names the file when the shared folder is missing).
Result<LoadedMeshPair> loadMeshPair(const SharedMeshPair& pair);

}  // namespace vkc::bench
