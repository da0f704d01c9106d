// Detector settings with images smaller than the defaults where those cost lavapipe time, for
// tests about frames, inputs, faults and memory rather than precision: smallSettings(&detector)
// or smallSettings(static_cast<Detector*>(nullptr)) picks the method's.
#pragma once

#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/stencil.h"

namespace vkc::test {

inline StencilSettings smallSettings(StencilDetector*) {
    StencilSettings settings;
    settings.resolution = 128;
    return settings;
}
inline ConsistentPairsSettings smallSettings(ConsistentPairsDetector*) {
    ConsistentPairsSettings settings;
    settings.resolution = 128;
    return settings;
}
inline LdiSettings smallSettings(LdiDetector*) {
    LdiSettings settings;
    settings.resolution = 64;
    return settings;
}
inline AabbTreeSettings smallSettings(AabbTreeDetector*) { return {}; }
// A loose tolerance (world units cubed, the method scenes' boxes are about unit size) and a coarse EBPI.
inline EbpiSettings smallSettings(EbpiDetector*) {
    EbpiSettings settings;
    settings.tolerance = 0.05;
    settings.resolution = 32;
    settings.maxRays = 1u << 16;
    settings.hitCapacity = 8;
    settings.maxPairs = 2;
    return settings;
}
inline BroadphaseSettings smallSettings(Broadphase*) { return {}; }

}  // namespace vkc::test
