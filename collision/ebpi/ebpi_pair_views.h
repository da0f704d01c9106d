// Method `ebpi`: one candidate pair's three views. The host decides what the boxes alone decide (the
// pair's origin, its boxes in the pair's coordinates, the region); the GPU chooses the directions
// in the same frame (Sec. 4.4, ebpi_directions.h) and fits each view to its direction
// (shaders_glsl/shared/ebpi_view_fit.h: the overlap box seen along it as the window, the rays
// spanning both boxes' depth, square pixels with `resolution` along the longer side). This is the
// CPU reference of that fit, for given axes. The pair works in coordinates rebased on the centre
// of its overlap box (`origin`): the GPU's float rays and hits then round relative to the pair's
// size, not to its distance from the world origin. Only the mesh edges that meet the overlap box
// enter its EBPI (ebpi_edge_terms.h, EbpiEdgeRegion).
#pragma once

#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_ray_mesh.h"
#include "collision/ebpi/ebpi_window.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/mesh.h"

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include <array>
#include <optional>

namespace vkc {

struct EbpiPairView {
    glm::dvec3 direction{0.0, 0.0, 1.0};  // world, unit
    EbpiRotation rotation{};
    EbpiWindow window;
    double zMin = 0.0, zMax = 0.0;  // ray-frame depth range of both boxes, widened
    EbpiEdgeRegion region;          // the overlap box, widened: mesh edges that miss it add no term
};

// A world box in double (a float Aabb rounds to a millimetre 10 km from the origin).
struct EbpiBox {
    glm::dvec3 lo, hi;
};

struct EbpiPairViews {
    glm::dvec3 origin{0.0};  // world position of the pair's local origin; the views are relative to it
    EbpiBox overlap, both;   // the boxes' overlap and union, relative to the origin
    std::array<EbpiPairView, 3> views;
    double extent = 0.0;  // bounds any view's window diagonal and rays' length: sizes the fixed-point scales
};

// The object's world box: `candidate` (the candidate set's, float), tightened where the mesh's CPU
// positions are current (`placed`: its object-space box through the object's transform, in double;
// shaders_glsl/shared/ebpi_pair_setup.h, as the GPU's pair setup does).
EbpiBox ebpiObjectBox(const Aabb& candidate, const MeshData* placed, const glm::dmat4& objectToWorld);

// The region of a box overlap [lo, hi] (coordinates before `rotation`), grown by the views' margin:
// a fraction of its size and a float's worth of its coordinates.
EbpiEdgeRegion ebpiGrownRegion(const glm::dvec3& lo, const glm::dvec3& hi, const EbpiRotation& rotation);

// nullopt when the boxes do not overlap with a volume (no intersection volume to measure).
// `axes`' columns are the three directions (orthonormal).
std::optional<EbpiPairViews> ebpiPairViews(const EbpiBox& boxA, const EbpiBox& boxB, const glm::dmat3& axes,
                                           uint32_t resolution);

}  // namespace vkc
