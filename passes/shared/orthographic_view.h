// One orthographic view of a frame, shared by the methods that render along an axis (stencil's
// three views, consistent-pairs' one): which way rays travel and the matrices both ways.
#pragma once

#include <glm/mat4x4.hpp>

#include <string>

namespace vkc {

struct OrthographicView {
    std::string axis;            // "z", "x", "y": the direction rays travel
    glm::mat4 worldToClip{1.0f};
    glm::mat4 clipToWorld{1.0f};
};

}  // namespace vkc
