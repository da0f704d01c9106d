// GLSL only: what every consistent-pairs draw stage declares (paper 3): set 0, the geometry
// (objects, the frame's view, vertex buffers read in place), and the push constants.
// Fragment stages add their set-1 bindings, then consistent_pairs_fragment.h.
#ifndef VKC_SHARED_CONSISTENT_PAIRS_SETS_H
#define VKC_SHARED_CONSISTENT_PAIRS_SETS_H

#include "consistent_pairs.h"

// Objects are rigid + uniform scale: triangle normals keep their direction.
layout(set = 0, binding = kConsistentPairsBindingObjects, std430) readonly buffer Objects { ObjectGpu objects[]; };
layout(set = 0, binding = kConsistentPairsBindingFrame, std430) readonly buffer Frame { ConsistentPairsFrameGpu frame; };

layout(push_constant) uniform Push { ConsistentPairsDrawPush push; };

#endif
