// A shared-mesh pair of the meshes README (shared_mesh_pairs.h) as a scene of two closed solids
// with its one candidate pair and the objects' world boxes, for the volume benchmarks.
#pragma once

#include "tools/bench/shared_mesh_pairs.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/scene.h"

#include <memory>

namespace vkc::bench {

struct PairScene {
    LoadedMeshPair meshes;
    std::unique_ptr<Scene> scene;
    BroadphaseResults pcs;
};

// Errors: loading the meshes, or the scene refusing them (named).
Result<std::unique_ptr<PairScene>> makePairScene(Context& context, const SharedMeshPair& pair);

}  // namespace vkc::bench
