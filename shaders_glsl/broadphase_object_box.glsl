// An object's margin-expanded world box from the bounds buffer (broadphase_bounds.comp's
// encoding), for the passes that declare `bounds`.
#include "shared/float_order.h"
#include "broadphase_tree_box.glsl"

// An object with no vertices keeps the cleared "empty" encoding (min above max): an inverted
// infinite box, which overlaps nothing and leaves any union unchanged.
TreeBox objectBox(uint object, uint objectCount, float margin) {
    uint minSlot = object * 3u, maxSlot = (objectCount + object) * 3u;
    uvec3 encodedLo = uvec3(bounds[minSlot], bounds[minSlot + 1u], bounds[minSlot + 2u]);
    uvec3 encodedHi = uvec3(bounds[maxSlot], bounds[maxSlot + 1u], bounds[maxSlot + 2u]);
    if (any(greaterThan(encodedLo, encodedHi))) return TreeBox(vec3(kTreeInf), vec3(-kTreeInf));
    vec3 lo = vec3(decodeOrderedFloat(encodedLo.x), decodeOrderedFloat(encodedLo.y), decodeOrderedFloat(encodedLo.z));
    vec3 hi = vec3(decodeOrderedFloat(encodedHi.x), decodeOrderedFloat(encodedHi.y), decodeOrderedFloat(encodedHi.z));
    // The reference's rule is a.min - m <= b.max + m on every axis: expand each box by m once.
    return TreeBox(lo - vec3(margin), hi + vec3(margin));
}
