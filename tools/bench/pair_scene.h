// A shared-mesh pair of the meshes README (shared_mesh_pairs.h) as a scene of two closed solids
// with its one candidate pair and the objects' world boxes, for the volume benchmarks.
#pragma once

#include "tools/bench/shared_mesh_pairs.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/scene.h"

#include <map>
#include <memory>
#include <string>

namespace vkc::bench {

struct PairScene {
    LoadedMeshPair meshes;
    std::unique_ptr<Scene> scene;
    BroadphaseResults pcs;
};

// Errors: loading the meshes, or the scene refusing them (named).
Result<std::unique_ptr<PairScene>> makePairScene(Context& context, const SharedMeshPair& pair);

// The pair's scene from `cache` (by pair name), made on first use; null with `error` set when it
// cannot be made. The cache must be destroyed before the context.
using PairSceneCache = std::map<std::string, std::unique_ptr<PairScene>>;
PairScene* cachedPairScene(Context& context, PairSceneCache& cache, const SharedMeshPair& pair, std::string& error);

// The process's context (`error` says why there is none) and its pair scenes, made on first use.
struct PairBench {
    Context context;
    PairSceneCache cases;  // destroyed before the context
    std::string error;
};
PairBench& pairBench();

}  // namespace vkc::bench
