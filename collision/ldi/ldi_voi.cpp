// Stage 1 of method `ldi` (paper 2, §3.1): see ldi_voi.h.
#include "collision/ldi/ldi_voi.h"

#include <algorithm>

namespace vkc {

std::optional<LdiVoi> computeLdiVoi(const Aabb& a, const Aabb& b) {
    Aabb overlap;
    for (int k = 0; k < 3; ++k) {
        // Empty or NaN boxes (std::max would swallow a NaN) have no volume.
        if (!(a.min[k] <= a.max[k]) || !(b.min[k] <= b.max[k])) return std::nullopt;
        overlap.min[k] = std::max(a.min[k], b.min[k]);
        overlap.max[k] = std::min(a.max[k], b.max[k]);
        if (!(overlap.min[k] < overlap.max[k])) return std::nullopt;
    }
    // Option (k, aFromMin): a's near plane is a.min[k] and b's is b.max[k] (or a.max[k] and
    // b.min[k]). Each plane lies on its own object's box, hence outside that object; it coincides
    // with the overlap's face unless one box is inside the other along k, and then the plane *is*
    // the Fig. 2b extension (the overlap's face moved out to touch the object's box). The depth
    // range of an option is therefore never shorter than the overlap's extent along k.
    std::optional<LdiVoi> best;
    bool bestExtended = true;
    float bestLength = 0.0f;
    for (uint32_t k = 0; k < 3; ++k) {
        for (bool aFromMin : {true, false}) {
            float lo = aFromMin ? a.min[k] : b.min[k];
            float hi = aFromMin ? b.max[k] : a.max[k];
            bool extended = lo < overlap.min[k] || hi > overlap.max[k];
            float length = hi - lo;
            // Eligible pairs of faces first (§3.1), then the shortest distance between them.
            if (best && (extended > bestExtended || (extended == bestExtended && length >= bestLength))) continue;
            LdiVoi voi;
            voi.overlap = overlap;
            voi.box = overlap;
            voi.box.min[k] = lo;
            voi.box.max[k] = hi;
            voi.axis = k;
            voi.aFromMin = aFromMin;
            voi.extended = extended;
            best = voi;
            bestExtended = extended;
            bestLength = length;
        }
    }
    return best;
}

}  // namespace vkc
