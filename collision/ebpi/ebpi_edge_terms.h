// Method `ebpi` (paper 5, Sec. 4.1, Alg. 1-2): each mesh edge's share of the midpoint-quadrature
// error of any tile its projection touches, for one ray direction (+z of the ray frame).
//
// Why it bounds the error: the depth span f(p) (total inside length of the ray at p) is piecewise
// linear over the image plane, and a tile's error is the integral over the tile of f - A for any
// affine A equal to f at the tile centre c (the linear part integrates to 0 about c). Take A = f's
// affine piece at c; walking from c to p, f - A changes only where the walk crosses a projected
// edge, by that edge's change of affine piece, so each edge's share is bounded over the part of
// the tile beyond its line, which is largest when the line passes through c.
// Edges between two faces that are not steep: f is continuous there and changes slope by the
// jump k of the faces' depth gradients, so the share is |k| x distance to the line: Eq. 7 with
// the paper's k|alpha| replaced by the gradient jump (Alg. 1's signs are not conservative: a
// symmetric ridge, alpha and -alpha, gets 0). Edges between a steep face (projected area 0) and
// a face i: f jumps by face i's depth; a crossing meets a steep wall's faces with signed counts
// summing to 0, so depths count from the wall's mid-depth: the share is at most
// (w h / 2) (d / 2 + |grad z_i| (w + h)), d the depth range of the connected steep wall.
#pragma once

#include "collision/ebpi/ebpi_bound_polynomial.h"
#include "collision/ebpi/ebpi_mesh_edges.h"
#include "collision/ebpi/ebpi_ray_mesh.h"

#include <glm/vec2.hpp>

#include <limits>
#include <vector>

namespace vkc {

// One edge: its projected segment and the bound it adds to every tile that segment touches.
struct EbpiEdgeTerm {
    glm::dvec2 a, b;
    EbpiBoundPolynomial bound;
};

// Bound of the tile-error share of an edge whose faces' depth gradients differ by `gradientJump`,
// over a tile of w x h with the edge's line anywhere across it: half the integral of
// |gradientJump . (p - c)| over the tile, evaluated with the case of Alg. 2 that suits the edge
// (both cases bound it for every w, h since A^2 + t^2 >= 2 A |t|; this one stays finite).
EbpiBoundPolynomial ebpiCreaseBound(const glm::dvec2& gradientJump);

// The depth range d of the steep wall beside an edge. The wall's own range (its steep triangles
// joined through shared edges, union-find) is the tightest; the mesh's whole depth extent along
// the rays contains every wall's range, so its bound is larger and sound too, and the GPU takes it
// (one reduction per view instead of a union-find; shaders_glsl/ebpi_depth_extent.comp).
enum class EbpiSteepWallDepth { ConnectedWall, MeshDepthExtent };

// A box that holds the pair's intersection (its grown overlap box), in the pair's coordinates
// before `rotation` took them into the ray frame. The intersection's depth span bends only along
// the intersection's own edges: parts of a mesh's edges inside the other solid, and the transient
// edges. So a mesh edge that misses the box bends nothing the rays measure and adds no term, with
// one exception kept whole: an edge beside a steep face, whose interior can cross the box while
// its edges miss it. The default box holds everything.
struct EbpiEdgeRegion {
    EbpiRotation rotation{{glm::dvec3(1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1)}};
    glm::dvec3 lo{-std::numeric_limits<double>::infinity()};
    glm::dvec3 hi{std::numeric_limits<double>::infinity()};
};

// Whether the segment between ray-frame points `a` and `b` meets `region` (slab test in the
// region's coordinates, each rotated back by the rotation's columns). Rounding moves the answer
// only for segments within a few ulps of the box, which the box's growth keeps away from the
// intersection. shaders_glsl/ebpi_edge_terms.comp repeats it operation for operation.
bool ebpiSegmentMeetsRegion(const glm::dvec3& a, const glm::dvec3& b, const EbpiEdgeRegion& region);

// Every edge of `mesh` with a nonzero bound that meets `region` or borders a steep face. The mesh
// must be closed and manifold (each edge in exactly two triangles); faces are steep when their
// projection has zero area, exactly.
std::vector<EbpiEdgeTerm> ebpiEdgeTerms(const EbpiRayMesh& mesh,
                                        EbpiSteepWallDepth wallDepth = EbpiSteepWallDepth::ConnectedWall,
                                        const EbpiEdgeRegion& region = {});

}  // namespace vkc
