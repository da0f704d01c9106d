// GLSL only: what every consistent-pairs draw stage declares (paper 3): set 0, the geometry
// (objects, the frame's limits and view, vertex buffers read in place), and the push constants.
// Fragment stages add their set-1 bindings, then consistent_pairs_fragment.h.
#ifndef VKC_SHARED_CONSISTENT_PAIRS_SETS_H
#define VKC_SHARED_CONSISTENT_PAIRS_SETS_H

#include "consistent_pairs.h"
#include "image_frame.h"

// Objects are rigid + uniform scale: triangle normals keep their direction.
layout(set = 0, binding = kConsistentPairsBindingObjects, std430) readonly buffer Objects { ObjectGpu objects[]; };
layout(set = 0, binding = kConsistentPairsBindingFrame, std430) readonly buffer Frame { ConsistentPairsFrameGpu frame; };
layout(set = 0, binding = kConsistentPairsBindingView, std430) readonly buffer View { ImageFrameGpu view; };

layout(push_constant) uniform Push { ConsistentPairsDrawPush push; };

// The view along z over the potentially colliding set (paper section 4), fitted on the GPU.
mat4 worldToClip() { return view.worldToClip[0]; }
mat4 clipToWorld() { return view.clipToWorld[0]; }
// The collision-point distance threshold in depth units (4.3, test 3): depth is linear in the ray
// axis, world units per unit of depth being 1 / worldToClip[z][z].
float thresholdDepth() { return frame.distanceThresholdPixels * view.pixelSize * view.worldToClip[0][2][2]; }

#endif
