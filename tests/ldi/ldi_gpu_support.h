// Helpers of the GPU ldi tests: a scene of two placed meshes run through LdiDetector with the
// tests' own world boxes (placedMeshBounds, the boxes the CPU reference uses, so both build the
// same VoI), and the CPU reference volume of the same pair.
#pragma once

#include "collision/reference/ldi_cpu.h"
#include "tests/ldi/ldi_test_support.h"
#include "vkcollide/ldi.h"
#include "vkcollide/scene.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace vkc::ldi_test {

struct Placed {
    const MeshData* mesh;
    glm::mat4 transform;
};

inline Result<Scene> makeScene(Context& context, std::span<const Placed> objects,
                               const MeshRequirements& requirements = kObjectSpaceMethodRequirements) {
    auto scene = Scene::create(context, requirements);
    if (!scene) return scene.status();
    for (const Placed& p : objects) {
        auto mesh = scene->addMesh({p.mesh->name.empty() ? "mesh" : p.mesh->name.c_str(), p.mesh});
        if (!mesh) return mesh.status();
        auto object = scene->addObject(mesh.value(), p.transform);
        if (!object) return object.status();
    }
    return scene;
}

// Every pair of `objects` as candidates, with the tests' world boxes.
inline BroadphaseResults allPairs(std::span<const Placed> objects) {
    BroadphaseResults pcs;
    for (const Placed& p : objects) pcs.worldBounds.push_back(placedMeshBounds(*p.mesh, p.transform));
    for (uint32_t a = 0; a < objects.size(); ++a)
        for (uint32_t b = a + 1; b < objects.size(); ++b) pcs.pairs.push_back({a, b});
    pcs.pairCount = uint32_t(pcs.pairs.size());
    return pcs;
}

struct GpuPair {
    FrameResults results;
    LdiFrameDetails details;
};

// Runs one frame over the pair (a, b); failures are test failures.
inline std::optional<GpuPair> runPair(Context& context, LdiDetector& detector, const MeshData& a, const glm::mat4& ta,
                                      const MeshData& b, const glm::mat4& tb) {
    const Placed objects[2] = {{&a, ta}, {&b, tb}};
    auto scene = makeScene(context, objects);
    EXPECT_TRUE(scene) << scene.status().describe();
    if (!scene) return std::nullopt;
    GpuPair out;
    auto results = detector.run(scene.value(), allPairs(objects), &out.details);
    EXPECT_TRUE(results) << results.status().describe();
    if (!results) return std::nullopt;
    out.results = std::move(results.value());
    return out;
}

inline LdiSettings settingsAt(uint32_t resolution, uint32_t layerCap = 16) {
    LdiSettings settings;
    settings.resolution = resolution;
    settings.layerCap = layerCap;
    settings.maxPairs = 4;
    settings.framesInFlight = 1;
    settings.insideCapacity = 1 << 16;
    return settings;
}

}  // namespace vkc::ldi_test
