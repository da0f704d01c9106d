// Reference for method `ldi` (paper 2) on the CPU: stages 2 and 3 with a software rasterizer that samples like
// the GPU does (pixel centres, 8-bit sub-pixel vertex snapping, top-left fill rule), so it is the
// reference the GPU passes are compared with, and it carries the stated error bound.
// Stage 2 (§3.2): per pixel, every crossing of the pixel-centre ray with the object's surface
// inside the VoI's depth range, sorted from the object's outside face (the sorted LDI; its length
// per pixel is the depth complexity n_p). Stage 3 (§3.3): intersection volume of two LDIs and
// vertex-in-volume against one LDI.
#pragma once

#include "collision/ldi/ldi_error_bound.h"  // ldiVolumeErrorBound: the bound these volumes meet
#include "collision/ldi/ldi_voi.h"
#include "vkcollide/mesh.h"

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace vkc {

// One object's sorted LDI over a VoI's footprint: resolution x resolution pixels, pixel (i, j)
// covering axis (axis+1)%3 cell i and axis (axis+2)%3 cell j.
struct CpuLdi {
    uint32_t resolution = 0;
    uint32_t axis = 2;
    bool fromMin = true;             // rendered from box.min[axis] (depths ascending) or box.max
    double near = 0.0, far = 0.0;    // world coordinates along `axis` of the near and far planes
    double uMin = 0.0, vMin = 0.0;   // footprint origin
    double pixelU = 0.0, pixelV = 0.0;  // pixel sides in world units
    std::vector<uint32_t> offsets;   // resolution^2 + 1: pixel p's layers are [offsets[p], offsets[p+1])
    std::vector<double> depths;      // world coordinate along `axis`, sorted from the near plane
    std::vector<int8_t> facing;      // parallel to depths: +1 front face (entry), -1 back face (leaving)
    uint32_t maxDepthComplexity = 0; // n_max of the paper

    // Inside intervals of pixel p along the axis, as world coordinate pairs (lo <= hi): layers
    // alternate entry / leaving from the near plane; an odd count closes at the far plane (the
    // object reaches beyond the VoI, which clipping cut off).
    void insideIntervals(uint32_t pixel, std::vector<std::pair<double, double>>& out) const;
    // Whether a world point lies in an inside interval of its pixel; false outside the (closed)
    // footprint or the depth range.
    bool contains(const glm::dvec3& point) const;
    // Self-collision (the paper's §7 idea): pixels whose sorted layers do not alternate front,
    // back, front, ... from the near plane. A closed, outward-oriented solid without
    // self-intersections never breaks the order; a region inside twice (two parts of the surface
    // passing through each other) or an inverted part does, on every ray through it.
    uint32_t invalidOrderPixels() const;
};

// Rasterizes `mesh` placed by `transform` into the VoI from object a's outside face (forA) or b's.
// resolution >= 1. Memory: 12 B per crossing plus a vector per pixel while building.
CpuLdi buildCpuLdi(const MeshData& mesh, const glm::mat4& transform, const LdiVoi& voi, bool forA,
                   uint32_t resolution);

// Pixelwise intersection of the inside intervals of two LDIs over the same VoI (§3.3a):
// sum over pixels of the overlap length times the pixel area.
double cpuLdiIntersectionVolume(const CpuLdi& a, const CpuLdi& b);

}  // namespace vkc
