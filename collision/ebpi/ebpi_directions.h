// Method `ebpi` (paper 5, Sec. 4.4): the three orthogonal ray directions of a pair, turned away
// from the meshes' faces. A face parallel to a ray direction is steep in that direction's image,
// where its bound is largest (ebpi_edge_terms.h), so the directions minimise Eq. 12,
//   e(R) = sum over texels i of sum over axes j of (n_i . a_j)^4,  a_j = R e_j,
// over the area-weighted normals n_i binned in a cube map (the Extended Gaussian Image): since
// sum_j (n . a_j)^2 = |n|^2 whatever R is, e is smallest when each normal leans on every axis alike
// and largest when a normal lies along one axis (its face then parallel to the two others).
// Minimised by Fletcher-Reeves conjugate gradients on rotations, with small random turns to leave
// local minima, warm-started from the previous frame's rotation (time coherence).
#pragma once

#include "vkcollide/mesh.h"

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

namespace vkc {

// A cube map of faceSize x faceSize texels per face (+x, -x, +y, -y, +z, -z), each the sum of
// area x unit normal of the triangles whose normal points into it.
struct EbpiNormalHistogram {
    uint32_t faceSize = 0;
    std::vector<glm::dvec3> texels;  // 6 x faceSize^2, face by face, rows of faceSize
};

EbpiNormalHistogram ebpiEmptyNormalHistogram(uint32_t faceSize);

// Adds `mesh`'s triangles placed by the linear part `linear` of a similarity transform (a rotation
// times a uniform scale: normals turn with it, areas scale with its square).
void ebpiAddToNormalHistogram(EbpiNormalHistogram& histogram, const MeshData& mesh, const glm::dmat3& linear);

// The texel of direction `n` (any length > 0): its cube face's major axis, then the two others.
uint32_t ebpiNormalTexel(const EbpiNormalHistogram& histogram, const glm::dvec3& n);

// Eq. 12 for the axes R e_0, R e_1, R e_2 (R's columns), and its gradient with respect to a turn
// R -> exp([w]x) R: sum_i sum_j 4 (n_i . a_j)^3 (a_j x n_i).
double ebpiDirectionCost(const EbpiNormalHistogram& histogram, const glm::dmat3& axes);
glm::dvec3 ebpiDirectionCostGradient(const EbpiNormalHistogram& histogram, const glm::dmat3& axes);

struct EbpiDirectionOptions {
    uint32_t maxIterations = 64;  // conjugate-gradient steps per descent
    uint32_t restarts = 8;        // random turns tried from the best rotation found
    double restartAngle = 0.3;    // radians: "small random steps" (Sec. 4.4)
    uint32_t seed = 1;            // the turns are reproducible
};

// Columns: the three ray directions, orthonormal and right-handed, at a local minimum of Eq. 12
// reached from `start` (the previous frame's axes, or identity), never costlier than `start`.
glm::dmat3 ebpiOptimizeDirections(const EbpiNormalHistogram& histogram, const glm::dmat3& start,
                                  const EbpiDirectionOptions& options = {});

}  // namespace vkc
