// Method `ebpi` (paper 5, Sec. 4.4): the three orthogonal ray directions of a pair, turned away
// from the meshes' faces. A face parallel to a ray direction is steep in that direction's image,
// where its bound is largest (ebpi_edge_terms.h), so the directions minimise Eq. 12,
//   e(R) = sum over texels i of sum over axes j of (n_i . a_j)^4,  a_j = R e_j,
// over the area-weighted normals n_i binned in a cube map (the Extended Gaussian Image): since
// sum_j (n . a_j)^2 = |n|^2 whatever R is, e is smallest when each normal leans on every axis alike
// and largest when a normal lies along one axis (its face then parallel to the two others).
// The GPU builds the histogram and minimises e each frame (ebpi_normal_histogram.comp,
// ebpi_directions.comp); this is their CPU reference, on the arithmetic of
// shaders_glsl/shared/ebpi_directions.h (Fletcher-Reeves over rotations, fixed small turns to leave
// local minima, warm-started from the pair's last axes).
#pragma once

#include "vkcollide/mesh.h"

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

namespace vkc {

// A cube map of 8 x 8 texels per face (+x, -x, +y, -y, +z, -z), each the sum of area x unit normal
// of the triangles whose normal points into it (gpu::ebpiNormalTexel).
struct EbpiNormalHistogram {
    std::vector<glm::dvec3> texels = std::vector<glm::dvec3>(384, glm::dvec3(0.0));
};

// Adds `mesh`'s triangles placed by the linear part `linear` of a similarity transform (a rotation
// times a uniform scale: normals turn with it, areas scale with its square), unrounded.
void ebpiAddToNormalHistogram(EbpiNormalHistogram& histogram, const MeshData& mesh, const glm::dmat3& linear);

// The histogram as ebpi_normal_histogram.comp sums it for a pair: each mesh's vertices placed by its
// float matrix (ebpiLocalPoint), every triangle's area x normal rounded to whole quanta of
// 1 / `scale` per component and summed as 64-bit integers, then converted back as the GPU does.
EbpiNormalHistogram ebpiPairNormalHistogram(const MeshData& meshA, const glm::mat4& objectToLocalA,
                                            const MeshData& meshB, const glm::mat4& objectToLocalB, double scale);

// The power of two the detector takes for `scale`: a quantum of about 2^-40 of `size` squared
// (`size`: the pair's union box diagonal), so one triangle stays below 2^39 quanta.
double ebpiHistogramScale(double size);

// Eq. 12 for the axes R e_0, R e_1, R e_2 (R's columns) over the histogram normalised as the GPU
// normalises it (texels over the sum of their lengths), and its gradient with respect to a turn
// R -> (I + [w]x) R: sum_j a_j x grad q(a_j), q(a) = sum_i (n_i . a)^4.
double ebpiDirectionCost(const EbpiNormalHistogram& histogram, const glm::dmat3& axes);
glm::dvec3 ebpiDirectionCostGradient(const EbpiNormalHistogram& histogram, const glm::dmat3& axes);

// Columns: the three ray directions, orthonormal and right-handed, at a local minimum of Eq. 12
// reached from `start` (the previous frame's axes, or identity) and from `restarts` small turns of
// the best so far, never costlier than `start`, then turned off any significant face that minimum
// left parallel to a ray (ebpiLeanOffFaces in shaders_glsl/shared/ebpi_directions.h: the cost may
// then exceed the start's only where the start itself was that close to a face); bit for bit what
// ebpi_directions.comp computes.
glm::dmat3 ebpiOptimizeDirections(const EbpiNormalHistogram& histogram, const glm::dmat3& start,
                                  uint32_t restarts = 8);

// The smallest |n . a_j| over the histogram's significant texels' unit normals n and the axes:
// how close to parallel to a ray its largest faces come (1 without any).
double ebpiSmallestFaceLean(const EbpiNormalHistogram& histogram, const glm::dmat3& axes);

}  // namespace vkc
