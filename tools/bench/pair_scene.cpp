// Shared-mesh pair scenes; see pair_scene.h.
#include "tools/bench/pair_scene.h"

#include "tools/bench/bench_context.h"

namespace vkc::bench {

Result<std::unique_ptr<PairScene>> makePairScene(Context& context, const SharedMeshPair& pair) {
    auto meshes = loadMeshPair(pair);
    if (!meshes) return meshes.status();
    auto created = std::make_unique<PairScene>();
    created->meshes = std::move(meshes.value());
    auto scene = Scene::create(context, kVolumeMethodRequirements);
    if (!scene) return scene.status();
    created->scene = std::make_unique<Scene>(std::move(scene.value()));
    const MeshData* data[2] = {&created->meshes.a, &created->meshes.b};
    const glm::mat4 transforms[2] = {created->meshes.transformA, created->meshes.transformB};
    for (int i = 0; i < 2; ++i) {
        auto mesh = created->scene->addMesh({i == 0 ? pair.fileA : pair.fileB, data[i]});
        if (!mesh) return mesh.status();
        auto object = created->scene->addObject(mesh.value(), transforms[i]);
        if (!object) return object.status();
        created->pcs.worldBounds.push_back(placedMeshBounds(*data[i], transforms[i]));
    }
    created->pcs.pairs = {{0, 1}};
    created->pcs.pairCount = 1;
    return created;
}

PairScene* cachedPairScene(Context& context, PairSceneCache& cache, const SharedMeshPair& pair, std::string& error) {
    std::unique_ptr<PairScene>& cached = cache[pair.name];
    if (cached) return cached.get();
    auto created = makePairScene(context, pair);
    if (!created) {
        error = created.status().describe();
        return nullptr;
    }
    cached = std::move(created.value());
    return cached.get();
}

PairBench& pairBench() {
    static PairBench created = [] {
        PairBench b;
        auto context = createBenchContext();
        if (!context) b.error = context.status().describe();
        else b.context = std::move(context.value());
        return b;
    }();
    return created;
}

}  // namespace vkc::bench
