// The README's reference pairs as data, and their loading (see shared_mesh_pairs.h).
#include "tools/bench/shared_mesh_pairs.h"

#include "tools/io/mesh_loader.h"

#include <glm/gtc/matrix_transform.hpp>

#include <cstdlib>
#include <limits>

namespace vkc::bench {

std::span<const SharedMeshPair> sharedMeshPairs() {
    // Copied from /work/shared/meshes/README.md, smallest first; keep the two in step.
    static const SharedMeshPair kPairs[] = {
        {"cube", "cube.stl", "cube.stl", {0.5f, 0.5f, 0.5f}, 0.125, false},
        {"sphere_ico4", "sphere_ico4.stl", "sphere_ico4.stl", {1.0f, 0.0f, 0.0f}, 1.29100111077, false},
        {"pinion_gear", "pinion_gear.off", "pinion_gear.off", {0.0f, 0.0f, 0.4f}, 0.213922950923, false},
        {"ballA_ballB", "ballA.off", "ballB.off", {0.0f, 0.0f, 0.0f}, 324.549994167, false},
        {"knot", "knot.off", "knot.off", {0.1f, 0.0f, 0.0f}, 0.0349967844596, false},
        {"hull_body_mask", "hull-body.obj", "hull-mask.obj", {0.0f, 0.0f, 0.0f}, 3299571.401, false},
        {"torus", "torus.stl", "torus.stl", {1.5f, 0.0f, 0.0f}, 1.38331932222, false},
        {"fandisk", "fandisk.obj", "fandisk.obj", {1.0f, 0.0f, 0.0f}, 12.0632932633, false},
        {"rocker_arm", "rocker-arm.obj", "rocker-arm.obj", {0.1f, 0.0f, 0.0f}, 0.017582749187, false},
        {"bunny_60k", "bunny_60k.obj", "bunny_60k.obj", {0.5f, 0.0f, 0.0f}, 0.323436872305, false},
        {"armadillo_86k_sub2", "armadillo_86k_sub2.ply", "armadillo_86k_sub2.ply", {0.2f, 0.0f, 0.0f},
         0.0174630523506, true},
    };
    return kPairs;
}

const SharedMeshPair& dragonPair() {
    static const SharedMeshPair kDragon = {"dragon", "dragon_vrip_welded.ply", "dragon_vrip_welded.ply",
                                           {0.02f, 0.0f, 0.0f}, std::numeric_limits<double>::quiet_NaN(), true};
    return kDragon;
}

std::filesystem::path sharedMeshDir() {
    const char* env = std::getenv("VKC_SHARED_DIR");
    const std::filesystem::path shared = env != nullptr && *env != '\0' ? env : VKC_DEFAULT_SHARED_DIR;
    return shared / "meshes";
}

Result<LoadedMeshPair> loadMeshPair(const SharedMeshPair& pair) {
    LoadedMeshPair loaded;
    auto a = io::loadMesh(sharedMeshDir() / pair.fileA);
    if (!a) return a.status();
    auto b = io::loadMesh(sharedMeshDir() / pair.fileB);
    if (!b) return b.status();
    loaded.a = std::move(a.value());
    loaded.b = std::move(b.value());
    loaded.transformB = glm::translate(glm::mat4(1.0f), pair.offsetB);
    return loaded;
}

}  // namespace vkc::bench
