// LDI projections (paper 2, §3.2: orthographic, near plane = the outside face): see ldi_views.h.
#include "collision/ldi/ldi_views.h"

namespace vkc {

LdiView ldiView(const LdiVoi& voi, bool forA, uint32_t resolution) {
    const uint32_t u = (voi.axis + 1) % 3, v = (voi.axis + 2) % 3, d = voi.axis;
    const bool fromMin = forA == voi.aFromMin;
    LdiView view;
    // The depth range reaches a hair past the VOI's faces: a surface lying on the outside face
    // (the extreme vertices that bounded the box) must not fall to either side of the clip
    // plane by rounding, or its pixels lose a front face and read as an invalid order.
    const float pad = 1e-5f * (voi.box.max[d] - voi.box.min[d]);
    view.nearWorld = fromMin ? voi.box.min[d] - pad : voi.box.max[d] + pad;
    view.farWorld = fromMin ? voi.box.max[d] + pad : voi.box.min[d] - pad;
    view.entryIsFront = fromMin;
    const double width = voi.footprint().x, height = voi.footprint().y;
    const double depth = double(view.farWorld) - view.nearWorld;  // negative when the rays run toward -axis
    view.pixelU = width / resolution;
    view.pixelV = height / resolution;
    glm::dmat4 texel(0.0);  // texel[column][row]
    texel[u][0] = resolution / width;
    texel[3][0] = -double(voi.box.min[u]) * resolution / width;
    texel[v][1] = resolution / height;
    texel[3][1] = -double(voi.box.min[v]) * resolution / height;
    texel[d][2] = 1.0 / depth;
    texel[3][2] = -double(view.nearWorld) / depth;
    texel[3][3] = 1.0;
    view.worldToTexel = texel;
    glm::dmat4 toClip(1.0);  // texels -> clip: x, y from [0, res) to [-1, 1]
    toClip[0][0] = toClip[1][1] = 2.0 / resolution;
    toClip[3][0] = toClip[3][1] = -1.0;
    view.worldToClip = toClip * texel;
    return view;
}

}  // namespace vkc
