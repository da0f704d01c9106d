// A host program built against the installed vkcollide: creates a headless context and runs the
// GPU broadphase on two overlapping boxes, and views its results as a detector's candidate set,
// through the public headers only.
#include <vkcollide/broadphase.h>
#include <vkcollide/context.h>
#include <vkcollide/detector.h>
#include <vkcollide/scene.h>

#include <cstdio>

int main() {
    auto context = vkc::createHeadlessContext({});
    if (!context) {
        std::printf("consumer: %s\n", context.status().describe().c_str());
        return 1;
    }
    std::printf("consumer: device %s\n", vkc::deviceInfo(context.value()).name.c_str());

    vkc::MeshData box;
    box.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    box.indices = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                   2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    auto scene = vkc::Scene::create(context.value());
    auto mesh = scene->addMesh({"box", &box});
    if (!mesh) {
        std::printf("consumer: %s\n", mesh.status().describe().c_str());
        return 1;
    }
    (void)scene->addObject(mesh.value(), glm::mat4(1.0f));
    glm::mat4 shifted(1.0f);
    shifted[3] = glm::vec4(0.5f, 0.5f, 0.5f, 1.0f);
    (void)scene->addObject(mesh.value(), shifted);
    auto broadphase = vkc::Broadphase::create(context.value());
    auto results = broadphase->run(scene.value());
    if (!results || results->pairs.size() != 1) {
        std::printf("consumer: broadphase failed\n");
        return 1;
    }
    const vkc::CandidateSet candidates = results.value();  // what every detector's record() takes
    if (candidates.pairs.size() != 1 || candidates.worldBounds.size() != 2) {
        std::printf("consumer: candidate set does not view the broadphase's results\n");
        return 1;
    }
    std::printf("consumer: pair %u-%u\n", results->pairs[0].a, results->pairs[0].b);
    return 0;
}
