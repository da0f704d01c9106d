// Uploads a benchmark scene and runs the broadphase on it once (see candidate_scene.h).
#include "tools/bench/candidate_scene.h"

#include <utility>

namespace vkc::bench {

Result<std::unique_ptr<CandidateScene>> prepareCandidateScene(Context& context, Broadphase& broadphase,
                                                              SolidScene solids) {
    auto prepared = std::make_unique<CandidateScene>();
    prepared->solids = std::move(solids);
    auto scene = toScene(context, prepared->solids);
    if (!scene) return scene.status();
    prepared->scene = std::make_unique<Scene>(std::move(scene.value()));
    auto pcs = broadphase.run(*prepared->scene);
    if (!pcs) return pcs.status();
    prepared->pcs = std::move(pcs.value());
    return prepared;
}

}  // namespace vkc::bench
