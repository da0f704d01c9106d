#include "aabb_detector_support.h"
#include "shaders_glsl/shared/aabb_tree.h"
#include "shaders_glsl/shared/tri_tri.h"
#include "/tmp/tridist.h"
namespace vkc { namespace {
using namespace aabbtest;
TEST(Diag, NearTouch) {
    auto pinion = loadSharedMesh("pinion_gear.off");
    auto bunny = loadSharedMesh("bunny_npm.obj");
    auto ico = loadSharedMesh("sphere_ico4.stl");
    auto knot = loadSharedMesh("knot.off");
    std::mt19937 rng(20261122);
    std::vector<glm::mat4> T;
    for (int o = 0; o < 4; ++o) T.push_back(randomRigidMotion(rng, 0.3f));
    const MeshData& A = *pinion; const MeshData& B = *knot;
    uint32_t ta = 225, tb = 2908;
    glm::mat4 bToA = glm::inverse(T[0]) * T[3];
    glm::vec3 a[3], b[3];
    for (int k = 0; k < 3; ++k) { a[k] = A.positions[A.indices[3*ta+k]]; b[k] = gpu::aabbTransformPoint(bToA, B.positions[B.indices[3*tb+k]]); }
    bool f = gpu::triTriIntersect(a[0],a[1],a[2],b[0],b[1],b[2]);
    MeshData ma; ma.name="a"; ma.positions={a[0],a[1],a[2]}; ma.indices={0,1,2};
    MeshData mb; mb.name="b"; mb.positions={b[0],b[1],b[2]}; mb.indices={0,1,2};
    auto exactOnFloatInputs = reference::intersectingTrianglePairs(ma, glm::mat4(1), mb, glm::mat4(1));
    MeshData wa; wa.name="wa"; wa.positions={A.positions[A.indices[3*ta]],A.positions[A.indices[3*ta+1]],A.positions[A.indices[3*ta+2]]}; wa.indices={0,1,2};
    MeshData wb; wb.name="wb"; wb.positions={B.positions[B.indices[3*tb]],B.positions[B.indices[3*tb+1]],B.positions[B.indices[3*tb+2]]}; wb.indices={0,1,2};
    auto exactWorld = reference::intersectingTrianglePairs(wa, T[0], wb, T[3]);
    std::printf("float tri-tri %d, exact on float A-space inputs %zu, exact world (oracle) %zu\n", f, exactOnFloatInputs->pairs.size(), exactWorld->pairs.size());
    // distance estimate: sample barycentric grid in double (world)
    auto w = [&](const glm::mat4& m, glm::vec3 p){ glm::dvec4 r = glm::dmat4(m) * glm::dvec4(glm::dvec3(p),1.0); return glm::dvec3(r); };
    glm::dvec3 A0=w(T[0],wa.positions[0]),A1=w(T[0],wa.positions[1]),A2=w(T[0],wa.positions[2]);
    glm::dvec3 B0=w(T[3],wb.positions[0]),B1=w(T[3],wb.positions[1]),B2=w(T[3],wb.positions[2]);
    double best=1e9; int N=200;
    for(int i=0;i<=N;i++)for(int j=0;i+j<=N;j++){ glm::dvec3 p=A0+(A1-A0)*(double(i)/N)+(A2-A0)*(double(j)/N);
      glm::dvec3 n=glm::normalize(glm::cross(B1-B0,B2-B0)); double d=std::abs(glm::dot(p-B0,n)); // plane distance only
      (void)d; }
    for(int i=0;i<=N;i++)for(int j=0;i+j<=N;j++){ glm::dvec3 p=A0+(A1-A0)*(double(i)/N)+(A2-A0)*(double(j)/N);
      for(int k=0;k<=N;k+=4)for(int l=0;k+l<=N;l+=4){ glm::dvec3 q=B0+(B1-B0)*(double(k)/N)+(B2-B0)*(double(l)/N); best=std::min(best,glm::length(p-q)); } }
    std::printf("approx world distance (sampled) %.3g; triangle sizes %.3g %.3g\n", best, glm::length(A1-A0), glm::length(B1-B0));
    { glm::dvec3 da[3]={glm::dvec3(a[0]),glm::dvec3(a[1]),glm::dvec3(a[2])}, db[3]={glm::dvec3(b[0]),glm::dvec3(b[1]),glm::dvec3(b[2])};
      glm::dvec3 wa3[3]={A0,A1,A2}, wb3[3]={B0,B1,B2};
      std::printf("distance on float A-space inputs %.3g, world double %.3g\n", triangleDistance(da,db), triangleDistance(wa3,wb3)); }
    for(int k=0;k<3;k++) std::printf("a%d %.9g %.9g %.9g  b%d %.9g %.9g %.9g\n",k,a[k].x,a[k].y,a[k].z,k,b[k].x,b[k].y,b[k].z);
}
}}
