// Test helpers for tests/aabb_tree: generated meshes (triangle counts not multiples of 64), seeded
// random rigid motions, and the brute-force reference (all triangle pairs x the same tri-tri).
#pragma once

#include "collision/aabb_tree/aabb_traversal_cpu.h"
#include "collision/aabb_tree/aabb_tree.h"
#include "shaders_glsl/shared/tri_tri.h"

#include <vkcollide/mesh.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>

#include <array>
#include <cmath>
#include <random>
#include <set>
#include <vector>

namespace vkc::aabbtest {

// Latitude-longitude sphere: 2 * slices * (stacks - 1) triangles.
inline MeshData uvSphere(uint32_t slices, uint32_t stacks, float radius) {
    MeshData mesh;
    mesh.name = "uv-sphere";
    const float pi = 3.14159265358979f;
    mesh.positions.push_back({0.0f, 0.0f, radius});
    for (uint32_t i = 1; i < stacks; ++i) {
        float theta = pi * float(i) / float(stacks);
        for (uint32_t j = 0; j < slices; ++j) {
            float phi = 2.0f * pi * float(j) / float(slices);
            mesh.positions.push_back(radius * glm::vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                                                        std::cos(theta)));
        }
    }
    mesh.positions.push_back({0.0f, 0.0f, -radius});
    auto ring = [&](uint32_t i, uint32_t j) { return 1 + (i - 1) * slices + (j % slices); };
    uint32_t south = uint32_t(mesh.positions.size() - 1);
    for (uint32_t j = 0; j < slices; ++j) mesh.indices.insert(mesh.indices.end(), {0u, ring(1, j), ring(1, j + 1)});
    for (uint32_t i = 1; i + 1 < stacks; ++i) {
        for (uint32_t j = 0; j < slices; ++j) {
            mesh.indices.insert(mesh.indices.end(), {ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)});
            mesh.indices.insert(mesh.indices.end(), {ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)});
        }
    }
    for (uint32_t j = 0; j < slices; ++j) mesh.indices.insert(mesh.indices.end(), {south, ring(stacks - 1, j + 1), ring(stacks - 1, j)});
    return mesh;
}

// Axis-aligned box with each face split into k x k quads: 12 k^2 triangles (unshared vertices).
inline MeshData subdividedBox(uint32_t k, glm::vec3 half) {
    MeshData mesh;
    mesh.name = "box";
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = -1; side <= 1; side += 2) {
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            uint32_t base = uint32_t(mesh.positions.size());
            for (uint32_t i = 0; i <= k; ++i) {
                for (uint32_t j = 0; j <= k; ++j) {
                    glm::vec3 p(0.0f);
                    p[axis] = float(side) * half[axis];
                    p[u] = (2.0f * float(i) / float(k) - 1.0f) * half[u];
                    p[v] = (2.0f * float(j) / float(k) - 1.0f) * half[v];
                    mesh.positions.push_back(p);
                }
            }
            for (uint32_t i = 0; i < k; ++i) {
                for (uint32_t j = 0; j < k; ++j) {
                    uint32_t a = base + i * (k + 1) + j, b = a + k + 1;
                    mesh.indices.insert(mesh.indices.end(), {a, b, b + 1, a, b + 1, a + 1});
                }
            }
        }
    }
    return mesh;
}

// Icosphere (20 * 4^level triangles) with every `dropEvery`-th triangle removed: an open mesh, as
// the aabb-tree method accepts, with a count that is no multiple of 64.
inline MeshData icosphere(uint32_t level, float radius, uint32_t dropEvery) {
    const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
    std::vector<glm::vec3> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                                {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    std::vector<uint32_t> f = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6,
                               7, 1, 8, 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7,
                               9, 8, 1};
    for (uint32_t l = 0; l < level; ++l) {
        std::vector<uint32_t> next;
        for (size_t i = 0; i < f.size(); i += 3) {
            uint32_t a = f[i], b = f[i + 1], c = f[i + 2];
            auto mid = [&](uint32_t x, uint32_t y) {
                v.push_back((v[x] + v[y]) * 0.5f);
                return uint32_t(v.size() - 1);
            };
            uint32_t ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
            next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        f = next;
    }
    MeshData mesh;
    mesh.name = "icosphere";
    for (glm::vec3 p : v) mesh.positions.push_back(glm::normalize(p) * radius);
    for (size_t i = 0; i < f.size(); i += 3) {
        if (dropEvery != 0 && (i / 3) % dropEvery == dropEvery - 1) continue;
        mesh.indices.insert(mesh.indices.end(), {f[i], f[i + 1], f[i + 2]});
    }
    return mesh;
}

inline MeshData tetrahedron(float size) {
    MeshData mesh;
    mesh.name = "tetrahedron";
    mesh.positions = {{size, size, size}, {size, -size, -size}, {-size, size, -size}, {-size, -size, size}};
    mesh.indices = {0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2};
    return mesh;
}

inline glm::mat4 randomRigid(std::mt19937& rng, float spread) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> uniform(-spread, spread);
    glm::quat q = glm::normalize(glm::quat(normal(rng), normal(rng), normal(rng), normal(rng)));
    glm::mat4 m = glm::mat4_cast(q);
    m[3] = glm::vec4(uniform(rng), uniform(rng), uniform(rng), 1.0f);
    return m;
}

struct TriPair {
    uint32_t pair, a, b;
    auto operator<=>(const TriPair&) const = default;
};

// Every triangle pair of every object pair tested with the shared tri-tri on exactly the inputs
// the traversal uses (A's positions, B's moved by the pair's bToA with aabbTransformPoint).
inline std::set<TriPair> bruteForce(const std::vector<MeshData>& meshes, std::span<const gpu::AabbPairGpu> pairs) {
    std::set<TriPair> result;
    for (uint32_t k = 0; k < pairs.size(); ++k) {
        const MeshData& a = meshes[pairs[k].treeA];
        const MeshData& b = meshes[pairs[k].treeB];
        std::vector<glm::vec3> moved(b.positions.size());
        for (size_t i = 0; i < moved.size(); ++i) moved[i] = gpu::aabbTransformPoint(pairs[k].bToA, b.positions[i]);
        for (uint32_t ta = 0; ta < a.triangleCount(); ++ta) {
            for (uint32_t tb = 0; tb < b.triangleCount(); ++tb) {
                if (gpu::triTriIntersect(a.positions[a.indices[3 * ta]], a.positions[a.indices[3 * ta + 1]],
                                         a.positions[a.indices[3 * ta + 2]], moved[b.indices[3 * tb]],
                                         moved[b.indices[3 * tb + 1]], moved[b.indices[3 * tb + 2]])) {
                    result.insert({k, ta, tb});
                }
            }
        }
    }
    return result;
}

}  // namespace vkc::aabbtest
