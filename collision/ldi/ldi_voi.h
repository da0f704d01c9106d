// Method `ldi` (paper 2, Heidelberger, Teschner & Gross), stage 1: the volume of interest (VoI)
// of a potentially colliding pair and the outside faces its two LDIs are rendered from (§3.1).
// Both LDIs share the VoI's footprint (same pixel grid) and look along the same axis in opposite
// directions, so pixel (i, j) of one LDI and pixel (i, j) of the other cover the same column.
#pragma once

#include "vkcollide/broadphase.h"

#include <glm/vec2.hpp>

#include <cstdint>
#include <optional>

namespace vkc {

struct LdiVoi {
    Aabb overlap;          // intersection of the two world boxes (the paper's VoI before Fig. 2b)
    Aabb box;              // the VoI rendered: `overlap`, extended along `axis` when needed (Fig. 2b)
    uint32_t axis = 2;     // rays run along this world axis (0 x, 1 y, 2 z)
    bool aFromMin = true;  // a's outside face is box.min[axis] (a's rays run toward +axis), b's is
                           // box.max[axis]; false: the other way round
    bool extended = false; // Fig. 2b: no pair of opposite VoI faces lies on a's and b's boxes (one box
                           // inside the other along `axis`), so one face moved out to its object's box
    float depthExtent() const { return box.max[axis] - box.min[axis]; }
    // The rendered box across the rays, in double: along world axes (axis+1)%3 and (axis+2)%3, the
    // LDIs' pixel grid over it (a pixel is footprint() / resolution).
    glm::dvec2 footprint() const {
        const uint32_t u = (axis + 1) % 3, v = (axis + 2) % 3;
        return {double(box.max[u]) - box.min[u], double(box.max[v]) - box.min[v]};
    }
};

// The VoI of boxes `a` and `b` with its outside faces: each object is rendered from a face of the
// VoI that lies on its own box, so the near plane is outside the object and its sorted LDI
// alternates entry / leaving points starting with an entry. Among eligible opposite pairs the one
// with the smallest distance wins (the paper's depth-complexity heuristic); when none is eligible
// (containment), the opposite face of the VoI is moved out to the other object's box, again
// choosing the smallest resulting distance. nullopt when the boxes do not overlap with positive
// volume (touching boxes cannot hold an intersection volume).
std::optional<LdiVoi> computeLdiVoi(const Aabb& a, const Aabb& b);

}  // namespace vkc
