// Method `ldi` (paper 2): how one object's LDI over a VoI maps space, matching the CPU reference
// (collision/reference/ldi_cpu.h) sample for sample: pixel (i, j) covers cell i of world axis
// (axis+1)%3 and cell j of (axis+2)%3 across the VoI's footprint; depth 0 is the object's outside
// face (§3.1), depth 1 the opposite face.
#pragma once

#include "collision/ldi/ldi_voi.h"

#include <glm/mat4x4.hpp>

#include <cstdint>

namespace vkc {

struct LdiView {
    glm::dmat4 worldToClip{1.0};   // x, y in [-1, 1] over the footprint (+y = +j), z in [0, 1]
    glm::dmat4 worldToTexel{1.0};  // x, y in pixels [0, res), z in [0, 1]
    float nearWorld = 0.0f;        // world coordinate along the axis of depth 0
    float farWorld = 0.0f;         // ... of depth 1
    // Whether a front-facing triangle (counter-clockwise in framebuffer space, Vulkan's
    // VK_FRONT_FACE_COUNTER_CLOCKWISE) is an entry: the projection keeps orientation when the rays
    // run toward +axis, and mirrors it when they run toward -axis.
    bool entryIsFront = true;
    double pixelU = 0.0, pixelV = 0.0;  // world units
};

LdiView ldiView(const LdiVoi& voi, bool forA, uint32_t resolution);

}  // namespace vkc
