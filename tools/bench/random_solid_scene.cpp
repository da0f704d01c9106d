// Builds the broadphase benchmark scenes (see random_solid_scene.h): seeded, so every run and both
// the GPU and CPU paths see the same poses.
#include "tools/bench/random_solid_scene.h"

#include "collision/scene/generated_solids.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/quaternion.hpp>

#include <cmath>
#include <random>
#include <string>

namespace vkc::bench {

size_t SolidScene::triangleCount() const {
    size_t triangles = 0;
    for (uint32_t mesh : objectMesh) triangles += meshes[mesh].triangleCount();
    return triangles;
}

size_t SolidScene::vertexCount() const {
    size_t vertices = 0;
    for (uint32_t mesh : objectMesh) vertices += meshes[mesh].positions.size();
    return vertices;
}

SolidScene randomSolidScene(uint32_t count, uint32_t seed) {
    SolidScene scene;
    scene.meshes = {solids::box({1.0f, 0.5f, 2.0f}), solids::sphere(0.6f, 2), solids::torus(0.8f, 0.2f, 12)};
    placeAtRandom(scene, count, seed);
    return scene;
}

void placeAtRandom(SolidScene& scene, uint32_t count, uint32_t seed) {
    const float side = std::cbrt(kVolumePerObject * float(count));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> position(-side / 2, side / 2), unit(-1.0f, 1.0f);
    for (uint32_t i = 0; i < count; ++i) {
        const glm::quat rotation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
        const glm::vec3 translation{position(rng), position(rng), position(rng)};
        scene.objectMesh.push_back(i % uint32_t(scene.meshes.size()));
        scene.objectToWorld.push_back(glm::translate(glm::mat4(1.0f), translation) * glm::toMat4(rotation));
    }
}

SolidScene spherePairScene(uint32_t subdivisions) {
    SolidScene scene;
    scene.meshes = {solids::sphere(1.0f, subdivisions)};
    scene.objectMesh = {0, 0};
    scene.objectToWorld = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), {1.5f, 0.0f, 0.0f})};
    return scene;
}

Result<Scene> toScene(Context& context, const SolidScene& solids) {
    auto scene = Scene::create(context);
    if (!scene) return scene.status();
    std::vector<MeshId> ids;
    for (size_t i = 0; i < solids.meshes.size(); ++i) {
        const std::string name = "bench mesh " + std::to_string(i);
        auto id = scene->addMesh({name.c_str(), &solids.meshes[i]});
        if (!id) return id.status();
        ids.push_back(id.value());
    }
    for (size_t i = 0; i < solids.objectCount(); ++i) {
        auto object = scene->addObject(ids[solids.objectMesh[i]], solids.objectToWorld[i]);
        if (!object) return object.status();
    }
    return scene;
}

}  // namespace vkc::bench
