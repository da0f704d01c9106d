// Triangle-triangle intersection on the CPU: compiles the shader's shared source
// (shaders_glsl/shared/tri_tri.h, Guigue-Devillers 2003) so both sides run one algorithm.
// Inputs: six vertices. Output: closed-set intersection with the shared tolerance policy.
// Invariant: no code of its own here; any change goes to the shared header.
#include "collision/aabb_tree/tri_tri.h"

#include "shaders_glsl/shared/tri_tri.h"

namespace vkc {

bool triTriIntersect(const glm::vec3& p1, const glm::vec3& q1, const glm::vec3& r1,
                     const glm::vec3& p2, const glm::vec3& q2, const glm::vec3& r2) {
    return gpu::triTriIntersect(p1, q1, r1, p2, q2, r2);
}

}  // namespace vkc
