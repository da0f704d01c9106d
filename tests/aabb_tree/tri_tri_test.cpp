// Tri-tri (Guigue-Devillers, shared GLSL/C++ text) against an independent exact reference on
// integer-snapped coordinates: orientation predicates in int64 (coordinates |c| <= 1024, so every
// determinant is exact), closed triangles, edge-against-triangle formulation. Non-degenerate random
// pairs must agree exactly; touching and coplanar cases follow the documented closed policy.
#include "aabb_test_support.h"
#include "collision/aabb_tree/tri_tri.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

namespace vkc {
namespace {

using I3 = std::array<int64_t, 3>;

I3 sub(const I3& a, const I3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
I3 cross(const I3& a, const I3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
int64_t dot(const I3& a, const I3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
int64_t orient3d(const I3& a, const I3& b, const I3& c, const I3& d) { return dot(cross(sub(b, a), sub(c, a)), sub(d, a)); }
int sign(int64_t v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

struct I2 {
    int64_t x, y;
};
int64_t orient2d(I2 a, I2 b, I2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }
bool onSegment(I2 a, I2 b, I2 p) {  // p collinear with ab
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}
bool segmentsExact(I2 a, I2 b, I2 c, I2 d) {
    int o1 = sign(orient2d(a, b, c)), o2 = sign(orient2d(a, b, d)), o3 = sign(orient2d(c, d, a)), o4 = sign(orient2d(c, d, b));
    if (o1 * o2 < 0 && o3 * o4 < 0) return true;
    return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) || (o3 == 0 && onSegment(c, d, a)) ||
           (o4 == 0 && onSegment(c, d, b));
}
bool pointInTriangleExact(I2 p, I2 a, I2 b, I2 c) {
    int s0 = sign(orient2d(a, b, p)), s1 = sign(orient2d(b, c, p)), s2 = sign(orient2d(c, a, p));
    return !((s0 < 0 || s1 < 0 || s2 < 0) && (s0 > 0 || s1 > 0 || s2 > 0));
}
I2 project(const I3& p, int drop) { return drop == 0 ? I2{p[1], p[2]} : (drop == 1 ? I2{p[0], p[2]} : I2{p[0], p[1]}); }
int dominantAxis(const I3& n) {
    int64_t x = std::llabs(n[0]), y = std::llabs(n[1]), z = std::llabs(n[2]);
    return x >= y && x >= z ? 0 : (y >= z ? 1 : 2);
}

using Tri = std::array<I3, 3>;

bool coplanarExact(const Tri& a, const Tri& b, int drop) {
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            if (segmentsExact(project(a[i], drop), project(a[(i + 1) % 3], drop), project(b[j], drop), project(b[(j + 1) % 3], drop))) {
                return true;
            }
        }
    }
    return pointInTriangleExact(project(a[0], drop), project(b[0], drop), project(b[1], drop), project(b[2], drop)) ||
           pointInTriangleExact(project(b[0], drop), project(a[0], drop), project(a[1], drop), project(a[2], drop));
}

// Closed segment pq against closed (non-degenerate) triangle t.
bool segmentTriangleExact(const I3& p, const I3& q, const Tri& t) {
    int o1 = sign(orient3d(t[0], t[1], t[2], p)), o2 = sign(orient3d(t[0], t[1], t[2], q));
    if (o1 * o2 > 0) return false;
    if (o1 == 0 && o2 == 0) {  // the segment lies in the triangle's plane
        int drop = dominantAxis(cross(sub(t[1], t[0]), sub(t[2], t[0])));
        I2 a = project(t[0], drop), b = project(t[1], drop), c = project(t[2], drop), pp = project(p, drop), qq = project(q, drop);
        return segmentsExact(pp, qq, a, b) || segmentsExact(pp, qq, b, c) || segmentsExact(pp, qq, c, a) ||
               pointInTriangleExact(pp, a, b, c);
    }
    int s1 = sign(orient3d(p, q, t[0], t[1])), s2 = sign(orient3d(p, q, t[1], t[2])), s3 = sign(orient3d(p, q, t[2], t[0]));
    return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

// Two non-parallel closed triangles meet iff an edge of one meets the other (the ends of their
// common segment lie on edges); coplanar ones are settled in 2D.
bool triTriExact(const Tri& a, const Tri& b) {
    I3 normal = cross(sub(a[1], a[0]), sub(a[2], a[0]));
    bool coplanar = orient3d(a[0], a[1], a[2], b[0]) == 0 && orient3d(a[0], a[1], a[2], b[1]) == 0 &&
                    orient3d(a[0], a[1], a[2], b[2]) == 0;
    if (coplanar) return coplanarExact(a, b, dominantAxis(normal));
    for (int i = 0; i < 3; ++i) {
        if (segmentTriangleExact(a[i], a[(i + 1) % 3], b) || segmentTriangleExact(b[i], b[(i + 1) % 3], a)) return true;
    }
    return false;
}

bool degenerate(const Tri& t) {
    I3 n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    return n[0] == 0 && n[1] == 0 && n[2] == 0;
}

// Non-degenerate: every orientation of four of the six points is clearly non-zero relative to
// the configuration's scale (6 * largest coordinate difference^3 bounds every term sum the float
// code forms), so no decision of either algorithm is within float rounding of zero.
bool wellConditioned(const Tri& a, const Tri& b) {
    std::array<I3, 6> p = {a[0], a[1], a[2], b[0], b[1], b[2]};
    int64_t spread = 0;
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            for (int k = 0; k < 3; ++k) spread = std::max<int64_t>(spread, std::llabs(p[i][k] - p[j][k]));
        }
    }
    long double bound = 6.0L * spread * spread * spread;
    for (int i = 0; i < 6; ++i) {
        for (int j = i + 1; j < 6; ++j) {
            for (int k = j + 1; k < 6; ++k) {
                for (int l = k + 1; l < 6; ++l) {
                    if (std::llabs(orient3d(p[i], p[j], p[k], p[l])) < 1e-4L * bound) return false;
                }
            }
        }
    }
    return true;
}

glm::vec3 toFloat(const I3& p) { return glm::vec3(float(p[0]), float(p[1]), float(p[2])); }
bool triTriFloat(const Tri& a, const Tri& b) {
    return triTriIntersect(toFloat(a[0]), toFloat(a[1]), toFloat(a[2]), toFloat(b[0]), toFloat(b[1]), toFloat(b[2]));
}

TEST(TriTri, AgreesWithExactReferenceOnRandomNonDegenerateTriangles) {
    std::mt19937 rng(4);
    int intersecting = 0, separate = 0, skipped = 0;
    for (int trial = 0; trial < 200000; ++trial) {
        // Triangles of varied size around nearby centres: about half of the pairs intersect.
        int64_t scale = int64_t(1) << (trial % 8 + 3);  // 8 .. 1024
        std::uniform_int_distribution<int64_t> coord(-scale, scale);
        std::uniform_int_distribution<int64_t> shift(-1024 + scale, 1024 - scale);
        I3 center = {shift(rng), shift(rng), shift(rng)};
        Tri a, b;
        for (Tri* t : {&a, &b}) {
            for (I3& v : *t) {
                for (int k = 0; k < 3; ++k) v[k] = std::clamp<int64_t>(center[k] + coord(rng), -1024, 1024);
            }
        }
        if (degenerate(a) || degenerate(b) || !wellConditioned(a, b)) {
            ++skipped;
            continue;
        }
        bool exact = triTriExact(a, b);
        (exact ? intersecting : separate) += 1;
        ASSERT_EQ(triTriFloat(a, b), exact) << "trial " << trial;
        // Symmetric, and independent of the vertex order within each triangle.
        ASSERT_EQ(triTriFloat(b, a), exact) << "trial " << trial;
        ASSERT_EQ(triTriFloat({a[1], a[2], a[0]}, {b[0], b[2], b[1]}), exact) << "trial " << trial;
    }
    std::printf("[ tri-tri ] exact agreement: %d intersecting, %d separate, %d skipped as ill-conditioned\n",
                intersecting, separate, skipped);
    EXPECT_GT(intersecting, 20000);
    EXPECT_GT(separate, 20000);
    EXPECT_LT(skipped, 60000);
}

struct ContactCase {
    const char* name;
    Tri a, b;
    bool intersects;  // under the closed policy: touching counts
};

TEST(TriTri, TouchingAndCoplanarCasesFollowTheClosedPolicy) {
    const Tri base = {I3{0, 0, 0}, I3{10, 0, 0}, I3{0, 10, 0}};
    const ContactCase cases[] = {
        {"shared vertex only", base, {I3{0, 0, 0}, I3{-5, 3, 7}, I3{-2, -6, 4}}, true},
        {"shared edge, folded", base, {I3{0, 0, 0}, I3{10, 0, 0}, I3{3, 0, 9}}, true},
        {"vertex on face interior", base, {I3{2, 2, 0}, I3{2, 2, 8}, I3{6, -1, 5}}, true},
        {"vertex on edge", base, {I3{5, 0, 0}, I3{5, -4, 6}, I3{8, -3, 2}}, true},
        {"edge crossing edge", base, {I3{5, -3, 0}, I3{5, 3, 0}, I3{5, 0, 7}}, true},
        {"proper crossing", base, {I3{2, 2, -5}, I3{2, 2, 5}, I3{3, 9, 0}}, true},
        {"just above, parallel", base, {I3{0, 0, 1}, I3{10, 0, 1}, I3{0, 10, 1}}, false},
        {"one unit away", base, {I3{6, 6, 0}, I3{6, 6, 8}, I3{9, 9, 4}}, false},
        {"coplanar overlapping", base, {I3{2, 2, 0}, I3{12, 2, 0}, I3{2, 12, 0}}, true},
        {"coplanar contained", base, {I3{1, 1, 0}, I3{3, 1, 0}, I3{1, 3, 0}}, true},
        {"coplanar edge touching", base, {I3{0, 0, 0}, I3{0, -10, 0}, I3{-10, 0, 0}}, true},
        {"coplanar collinear edges overlapping", base, {I3{5, 0, 0}, I3{15, 0, 0}, I3{8, -6, 0}}, true},
        {"coplanar disjoint", base, {I3{6, 6, 0}, I3{16, 6, 0}, I3{6, 16, 0}}, false},
        {"coplanar collinear edges apart", base, {I3{11, 0, 0}, I3{20, 0, 0}, I3{15, -4, 0}}, false},
        {"coplanar, tilted plane", {I3{0, 0, 0}, I3{10, 0, 10}, I3{0, 10, 0}}, {I3{2, 1, 2}, I3{9, 1, 9}, I3{2, 8, 2}}, true},
        {"degenerate (collinear) never intersects", base, {I3{1, 1, -3}, I3{1, 1, 0}, I3{1, 1, 3}}, false},
    };
    for (const ContactCase& c : cases) {
        if (!degenerate(c.b)) {
            EXPECT_EQ(triTriExact(c.a, c.b), c.intersects) << "reference disagrees with the table: " << c.name;
        }
        EXPECT_EQ(triTriFloat(c.a, c.b), c.intersects) << c.name;
        EXPECT_EQ(triTriFloat(c.b, c.a), c.intersects) << c.name << " (swapped)";
    }
    // Decided exactly, as the oracle decides: the float nearest to (1/3, 1/3, 1/3) lies 3e-8 above
    // the plane x + y + z = 1 (far outside the 2^-48 touching band of the double predicates), so a
    // triangle hanging above it from there is apart and one reaching below it crosses the plane.
    glm::vec3 p(1, 0, 0), q(0, 1, 0), r(0, 0, 1), n(1, 1, 1);
    glm::vec3 c(1.0f / 3.0f);
    EXPECT_GT(double(c.x) + double(c.y) + double(c.z), 1.0);  // really above the plane in float
    EXPECT_FALSE(triTriIntersect(p, q, r, c, c + n, c + n + glm::vec3(1, -1, 0)));
    EXPECT_TRUE(triTriIntersect(p, q, r, c, c - n, c - n + glm::vec3(1, -1, 0)));
    // Exactly on the plane (dyadic coordinates): touching counts.
    glm::vec3 on(0.25f, 0.25f, 0.5f);
    EXPECT_TRUE(triTriIntersect(p, q, r, on, on + n, on + n + glm::vec3(1, -1, 0)));
    glm::vec3 off = c + 1e-3f * n;
    EXPECT_FALSE(triTriIntersect(p, q, r, off, off + n, off + n + glm::vec3(1, -1, 0)));
}

}  // namespace
}  // namespace vkc
