// What the example draws and how, shared with its test so that the test can find each object in
// the PNGs: the image size, the deformed mesh's scale per frame, the camera, the colours.
#pragma once

#include "vkcollide/mesh.h"

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>

namespace vkc::example {

inline constexpr uint32_t kImageWidth = 320, kImageHeight = 240;
inline constexpr glm::vec3 kPlainColor{0.7f, 0.7f, 0.7f};
inline constexpr glm::vec3 kCollidingColor{0.95f, 0.15f, 0.1f};  // tint of an object in a colliding pair
inline constexpr glm::vec3 kMarkerColor{1.0f, 0.9f, 0.05f};        // a contact or edge point
inline constexpr glm::vec3 kNormalColor{0.05f, 0.8f, 1.0f};        // a point's normal, one marker along it
inline constexpr glm::vec3 kVolumeBarColor{0.2f, 0.35f, 1.0f};     // a pair's measured volume

// Whether an RGB pixel of the PNG is a point marker (yellow: nothing else drawn is).
inline bool isMarkerPixel(const uint8_t* rgb) { return rgb[0] > 60 && rgb[1] > rgb[0] / 2 && rgb[2] < rgb[1] / 3; }

// The deformed mesh's scale about its object-space origin in `frame`: it grows by `growth` a frame.
inline float deformScale(uint64_t frame, float growth) { return 1.0f + growth * float(frame); }

struct PlacedMesh {
    const MeshData* mesh;
    glm::dmat4 objectToWorld;
};

// The camera's margin around the rest boxes: room for `frames` of growth.
inline float cameraMargin(float growth, uint32_t frames) { return 0.1f + growth * float(frames); }

// The objects' rest box in world space: its min and max corners.
inline std::pair<glm::vec3, glm::vec3> restBox(std::span<const PlacedMesh> objects) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const PlacedMesh& o : objects)
        for (const glm::vec3& p : o.mesh->positions) {
            const glm::vec3 w = glm::vec3(o.objectToWorld * glm::dvec4(glm::dvec3(p), 1.0));
            lo = glm::min(lo, w);
            hi = glm::max(hi, w);
        }
    return {lo, hi};
}

// An orthographic camera looking down -z at every object's rest box, grown by `margin` of the
// scene's size on each side (room for the deformation): world -> Vulkan clip space.
inline glm::mat4 cameraWorldToClip(std::span<const PlacedMesh> objects, float margin) {
    const auto [lo, hi] = restBox(objects);
    const glm::vec3 center = 0.5f * (lo + hi);
    const float aspect = float(kImageWidth) / float(kImageHeight);
    const float size = std::max(hi.x - lo.x, (hi.y - lo.y) * aspect) * (0.5f + margin);
    const float depth = (hi.z - lo.z) * (1.0f + 2.0f * margin) + 1e-3f;
    glm::mat4 projection = glm::orthoRH_ZO(-size, size, -size / aspect, size / aspect, 0.0f, 2.0f * depth);
    projection[1][1] *= -1.0f;  // Vulkan's y points down
    const glm::vec3 eye = center + glm::vec3(0.0f, 0.0f, depth);
    return projection * glm::lookAtRH(eye, center, glm::vec3(0.0f, 1.0f, 0.0f));
}

// The pixel a world point lands on.
inline glm::ivec2 pixelOf(const glm::mat4& worldToClip, const glm::dvec3& world) {
    const glm::vec4 clip = worldToClip * glm::vec4(glm::vec3(world), 1.0f);
    return {int((clip.x / clip.w * 0.5f + 0.5f) * kImageWidth), int((clip.y / clip.w * 0.5f + 0.5f) * kImageHeight)};
}

}  // namespace vkc::example
