// Method `ebpi`, transient edges (paper 5, Sec. 5): where the surfaces of a pair cross, the inside
// length of both, g, bends along a curve that neither mesh has as an edge. The paper infers these
// edges from hit points and the EBPI's surface bounds and refines with 4 x 4 sub-rays, which
// bounds nothing it does not sample. Here the curve is computed exactly instead: every segment
// where a triangle of a meets a triangle of b inside the pair's overlap box. Along it g switches
// from one face's depth to the other's, so it bends by the difference of their depth gradients:
// the same crease term as a mesh edge (ebpiCreaseBound), rasterized into the pair's EBPI with the
// mesh edges. A crossing with a steep face (zero projected area) is skipped: g jumps there along
// the steep face's projection, which the wall terms of that face's own edges already cover.
// This is the CPU reference: the detector finds the crossings on the GPU (ebpi_transient_terms.comp)
// from the candidate triangle pairs of an aabb-tree traversal, with the same operations in the same
// coordinates, so that its terms equal these bit for bit.
#pragma once

#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_ray_mesh.h"
#include "collision/ebpi/ebpi_pair_views.h"
#include "vkcollide/mesh.h"

#include <glm/mat4x4.hpp>

#include <vector>

namespace vkc {

// One segment of the surfaces' intersection curve, in the pair's coordinates, with its two faces'
// unit normals.
struct EbpiSurfaceCrossing {
    glm::dvec3 p, q;
    glm::dvec3 normalA, normalB;
};

// Every crossing of a's and b's triangles whose boxes meet `box` and each other (sweep over x,
// then the exact segment of each pair of triangles that cross; coplanar and single-point contacts
// add nothing). Vertices are placed by ebpiLocalPoint (each object's float matrix into the pair's
// coordinates, in double), and `box` is in those coordinates.
std::vector<EbpiSurfaceCrossing> ebpiSurfaceCrossings(const MeshData& meshA, const glm::mat4& objectToLocalA,
                                                      const MeshData& meshB, const glm::mat4& objectToLocalB,
                                                      const EbpiBox& box);

// The crossings as crease terms of the view `rotation` (rays along its +z).
std::vector<EbpiEdgeTerm> ebpiTransientEdgeTerms(const std::vector<EbpiSurfaceCrossing>& crossings,
                                                 const EbpiRotation& rotation);

}  // namespace vkc
