// Tier B: ebpi's casting passes on a device under the validation layer, all three backends. Every hit
// of every ray against the exact CPU reference (tests/ebpi/ebpi_trace_oracle.h): on a cube and an
// octahedron with rays exactly through shared edges and vertices (one hit per crossing, entries
// and exits alternating and balanced), on random rays through placed shared meshes; the compute,
// ray-query and ray-tracing-pipeline backends hit for hit (bit-identical); truncation with the
// exact count.
#include "tests/ebpi/ebpi_trace_scenes.h"
#include "tests/ebpi/ebpi_trace_support.h"
#include "tests/support/reflection_check.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/mesh_loader.h"

#include "spirv/ebpi_trace_boxes.comp.h"
#include "spirv/ebpi_trace_compute.comp.h"
#include "spirv/ebpi_trace_launch.comp.h"
#include "spirv/ebpi_trace_pipeline.rgen.h"
#include "spirv/ebpi_trace_pipeline.rint.h"
#include "spirv/ebpi_trace_query.comp.h"
#include "spirv/ebpi_trace_sort.comp.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <sstream>

namespace vkc {
namespace {

using namespace ebpi_test;

class EbpiTraceGpuTest : public test::VulkanTest {
protected:
    // The backends this device runs: compute always, the hardware ones it has (lavapipe has both,
    // which ContextTest checks under VKC_REQUIRE_DEVICE=1; NVIDIA has pipelines only).
    std::vector<EbpiRayBackend> backends() {
        std::vector<EbpiRayBackend> out = {EbpiRayBackend::Compute};
        if (vk().hasRayQuery) out.push_back(EbpiRayBackend::RayQuery);
        if (vk().hasRayTracingPipeline) out.push_back(EbpiRayBackend::RayTracingPipeline);
        if (out.size() == 1 && test::deviceRequired())
            ADD_FAILURE() << "the device has no hardware ray backend: only compute is tested";
        return out;
    }
};

const char* nameOf(EbpiRayBackend backend) {
    switch (backend) {
        case EbpiRayBackend::Compute: return "compute";
        case EbpiRayBackend::RayQuery: return "ray-query";
        case EbpiRayBackend::RayTracingPipeline: return "ray-tracing-pipeline";
    }
    return "?";
}

// The SPIR-V of every shader the backend's trace set serves.
std::vector<std::pair<std::span<const uint32_t>, const char*>> traceShaders(EbpiRayBackend backend) {
    std::vector<std::pair<std::span<const uint32_t>, const char*>> out = {
        {kSpirv_ebpi_trace_sort_comp, "ebpi_trace_sort.comp"}};
    switch (backend) {
        case EbpiRayBackend::Compute: out.push_back({kSpirv_ebpi_trace_compute_comp, "ebpi_trace_compute.comp"}); break;
        case EbpiRayBackend::RayQuery: out.push_back({kSpirv_ebpi_trace_query_comp, "ebpi_trace_query.comp"}); break;
        case EbpiRayBackend::RayTracingPipeline:
            out.push_back({kSpirv_ebpi_trace_pipeline_rgen, "ebpi_trace_pipeline.rgen"});
            out.push_back({kSpirv_ebpi_trace_pipeline_rint, "ebpi_trace_pipeline.rint"});
            out.push_back({kSpirv_ebpi_trace_launch_comp, "ebpi_trace_launch.comp"});
            break;
    }
    if (ebpiUsesAccelStructs(backend)) out.push_back({kSpirv_ebpi_trace_boxes_comp, "ebpi_trace_boxes.comp"});
    return out;
}

std::vector<OracleHit> asOracleHits(std::span<const gpu::EbpiHitGpu> hits) {
    std::vector<OracleHit> out;
    for (const gpu::EbpiHitGpu& h : hits) out.push_back({double(h.t), h.object, h.triangle, h.entering != 0});
    return out;
}

// The GPU's hits of ray r equal the reference's: same (object, triangle, entering) in the same
// order, t within float rounding; the barycentrics rebuild the point at t.
::testing::AssertionResult matchesOracle(const TraceRun& run, uint32_t r, const gpu::EbpiRayGpu& ray,
                                         const std::vector<TraceObject>& objects) {
    const std::vector<OracleHit> expected = oracleHits(ray, objects);
    const auto got = run.hitsOf(r);
    std::ostringstream why;
    if (run.rayHits[r].count != expected.size() || run.rayHits[r].truncated != 0)
        why << "count " << run.rayHits[r].count << " (truncated " << run.rayHits[r].truncated << "), expected "
            << expected.size();
    for (size_t i = 0; why.str().empty() && i < expected.size(); ++i) {
        const gpu::EbpiHitGpu& h = got[i];
        const OracleHit& e = expected[i];
        const double scale = 1e-5 * (1.0 + std::abs(e.t));
        if (h.object != e.object || h.triangle != e.triangle || (h.entering != 0) != e.entering ||
            std::abs(h.t - e.t) > scale) {
            why << "hit " << i << ": (object " << h.object << ", triangle " << h.triangle << ", entering " << h.entering
                << ", t " << h.t << "), expected (" << e.object << ", " << e.triangle << ", " << e.entering << ", "
                << e.t << ")";
            break;
        }
        const TraceObject& o = objects[h.object];
        const glm::vec3 a = worldVertex(o, o.mesh->indices[3 * h.triangle]);
        const glm::vec3 b = worldVertex(o, o.mesh->indices[3 * h.triangle + 1]);
        const glm::vec3 c = worldVertex(o, o.mesh->indices[3 * h.triangle + 2]);
        const glm::vec3 point = (1.0f - h.b1 - h.b2) * a + h.b1 * b + h.b2 * c;
        const glm::vec3 along = glm::vec3(ray.origin) + h.t * glm::vec3(ray.direction);
        const float size = glm::length(b - a) + glm::length(c - a) + glm::length(along) + 1.0f;
        if (h.b1 < -1e-6f || h.b2 < -1e-6f || h.b1 + h.b2 > 1.0f + 1e-6f || glm::length(point - along) > 1e-4f * size)
            why << "hit " << i << ": barycentrics (" << h.b1 << ", " << h.b2 << ") do not give the point at t";
    }
    if (why.str().empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "ray " << r << ": " << why.str();
}

std::vector<TraceObject> cubeAndOctahedron(const MeshData& cube, const MeshData& octahedron) {
    return {{&cube, glm::mat4(1.0f)}, {&octahedron, glm::translate(glm::mat4(1.0f), glm::vec3(0.5f, 0.0f, 0.0f))}};
}

TEST_F(EbpiTraceGpuTest, LayoutsMatchTheShaders) {
    for (EbpiRayBackend backend :
         {EbpiRayBackend::Compute, EbpiRayBackend::RayQuery, EbpiRayBackend::RayTracingPipeline}) {
        const PipelineLayoutDesc layout = ebpiTracePipelineLayout(backend);
        for (const auto& [spirv, name] : traceShaders(backend)) {
            Status status = test::checkPipelineLayout(spirv, layout, name);
            EXPECT_TRUE(status.ok()) << nameOf(backend) << ": " << status.describe();
        }
    }
}

TEST_F(EbpiTraceGpuTest, RaysThroughSharedEdgesAndVerticesHitOncePerCrossing) {
    const MeshData cube = cubeMesh(), octahedron = octahedronMesh();
    const std::vector<TraceObject> objects = cubeAndOctahedron(cube, octahedron);
    std::vector<gpu::EbpiRayGpu> rays = exactEdgeRays(0, 1);
    // A ray that sees only the octahedron.
    rays.push_back(makeRay({0.5f, 0.0f, -4.0f}, {0.0f, 0.0f, 1.0f}, 8.0f, 1, gpu::kEbpiNoObject));
    for (EbpiRayBackend backend : backends()) {
        SCOPED_TRACE(nameOf(backend));
        auto run = runTrace(vk(), backend, objects, rays, 16);
        ASSERT_TRUE(run) << run.status().describe();
        uint32_t crossings = 0;
        for (uint32_t r = 0; r < rays.size(); ++r) {
            EXPECT_TRUE(matchesOracle(run.value(), r, rays[r], objects));
            const std::string unbalanced = unbalancedObject(asOracleHits(run->hitsOf(r)));
            EXPECT_TRUE(unbalanced.empty()) << "ray " << r << ": " << unbalanced;
            crossings += run->rayHits[r].count;
        }
        // The rays do cross the solids (many exactly at edges and vertices).
        EXPECT_GT(crossings, rays.size());
        // Along z through the octahedron's vertices (0.5, 0, +-1): one entry at the bottom
        // vertex (four faces meet there), one exit at the top.
        const uint32_t last = uint32_t(rays.size() - 1);
        ASSERT_EQ(run->rayHits[last].count, 2u);
        EXPECT_EQ(run->hitsOf(last)[0].entering, 1u);
        EXPECT_EQ(run->hitsOf(last)[1].entering, 0u);
        EXPECT_FLOAT_EQ(run->hitsOf(last)[0].t, 3.0f);
        EXPECT_FLOAT_EQ(run->hitsOf(last)[1].t, 5.0f);
    }
}

Result<MeshData> sharedMesh(const char* file) {
    const std::string dir = test::sharedDir();
    if (dir.empty())
        return makeError(ErrorCode::NotFound, std::string("shared mesh ") + file + ": VKC_SHARED_DIR is not set");
    return io::loadMesh(std::filesystem::path(dir) / "meshes" / file);
}

// Bounds of the placed objects.
void placedBounds(const std::vector<TraceObject>& objects, glm::vec3& lo, glm::vec3& hi) {
    lo = glm::vec3(INFINITY);
    hi = glm::vec3(-INFINITY);
    for (const TraceObject& o : objects)
        for (uint32_t v = 0; v < o.mesh->positions.size(); ++v) {
            lo = glm::min(lo, worldVertex(o, v));
            hi = glm::max(hi, worldVertex(o, v));
        }
}

TEST_F(EbpiTraceGpuTest, RandomRaysOnSharedMeshesMatchTheExactReferenceAndBackendsAgree) {
    std::vector<MeshData> meshes;
    for (const char* file : {"torus.stl", "knot.off", "sphere_ico4.stl"}) {
        auto mesh = sharedMesh(file);
        if (!mesh) {
            if (test::deviceRequired()) FAIL() << mesh.status().describe();
            GTEST_SKIP() << mesh.status().describe();
        }
        meshes.push_back(std::move(mesh.value()));
    }
    std::mt19937 rng(12);
    for (size_t pair = 0; pair < meshes.size(); ++pair) {
        const MeshData& a = meshes[pair];
        const MeshData& b = meshes[(pair + 1) % meshes.size()];
        glm::vec3 loA, hiA;
        placedBounds({{&a, glm::mat4(1.0f)}}, loA, hiA);
        const float size = glm::length(hiA - loA);
        const std::vector<TraceObject> objects = {{&a, randomPose(rng, 0.1f * size)},
                                                  {&b, randomPose(rng, 0.3f * size)}};
        glm::vec3 lo, hi;
        placedBounds(objects, lo, hi);
        const std::vector<gpu::EbpiRayGpu> rays = randomRays(101, lo, hi, 0, 1, uint32_t(pair));
        std::vector<TraceRun> runs;
        for (EbpiRayBackend backend : backends()) {
            SCOPED_TRACE(std::string(nameOf(backend)) + " " + a.name + " / " + b.name);
            auto run = runTrace(vk(), backend, objects, rays, 64);
            ASSERT_TRUE(run) << run.status().describe();
            uint32_t total = 0;
            for (uint32_t r = 0; r < rays.size(); ++r) {
                EXPECT_TRUE(matchesOracle(run.value(), r, rays[r], objects));
                total += run->rayHits[r].count;
            }
            EXPECT_GT(total, rays.size());  // most rays cross both solids
            runs.push_back(std::move(run.value()));
        }
        // Hit for hit, bit for bit: every backend ran the same exact test on the same triangles.
        for (size_t k = 1; k < runs.size(); ++k) {
            ASSERT_EQ(runs[k].rayHits.size(), runs[0].rayHits.size());
            for (uint32_t r = 0; r < rays.size(); ++r) {
                ASSERT_EQ(runs[k].rayHits[r].count, runs[0].rayHits[r].count) << "ray " << r;
                EXPECT_EQ(
                    std::memcmp(runs[k].hitsOf(r).data(), runs[0].hitsOf(r).data(), runs[0].hitsOf(r).size_bytes()), 0)
                    << "ray " << r;
            }
        }
    }
}

TEST_F(EbpiTraceGpuTest, BackendsAgreeBitForBitOnEdgeAndVertexRays) {
    const MeshData cube = cubeMesh(), octahedron = octahedronMesh();
    const std::vector<TraceObject> objects = cubeAndOctahedron(cube, octahedron);
    const std::vector<gpu::EbpiRayGpu> rays = exactEdgeRays(0, 1);
    auto compute = runTrace(vk(), EbpiRayBackend::Compute, objects, rays, 16);
    ASSERT_TRUE(compute) << compute.status().describe();
    EXPECT_EQ(compute->passes, (std::vector<std::string>{kEbpiTraceClearPassName, kEbpiTracePassName,
                                                         kEbpiTraceSortPassName, kEbpiTraceReadbackPassName}));
    const std::vector<EbpiRayBackend> all = backends();
    for (size_t k = 1; k < all.size(); ++k) {
        SCOPED_TRACE(nameOf(all[k]));
        auto hardware = runTrace(vk(), all[k], objects, rays, 16);
        ASSERT_TRUE(hardware) << hardware.status().describe();
        for (uint32_t r = 0; r < rays.size(); ++r) {
            ASSERT_EQ(hardware->rayHits[r].count, compute->rayHits[r].count) << "ray " << r;
            EXPECT_EQ(
                std::memcmp(hardware->hitsOf(r).data(), compute->hitsOf(r).data(), compute->hitsOf(r).size_bytes()), 0)
                << "ray " << r;
        }
        EXPECT_EQ(hardware->passes,
                  (std::vector<std::string>{kEbpiTraceClearPassName, kEbpiTraceBoxesPassName, kEbpiTraceBlasPassName,
                                            kEbpiTraceTlasPassName, kEbpiTracePassName, kEbpiTraceSortPassName,
                                            kEbpiTraceReadbackPassName}));
    }
}

TEST_F(EbpiTraceGpuTest, SmallCapacityTruncatesWithTheExactCountAndNoOverrun) {
    const MeshData cube = cubeMesh(), octahedron = octahedronMesh();
    const std::vector<TraceObject> objects = cubeAndOctahedron(cube, octahedron);
    const std::vector<gpu::EbpiRayGpu> rays = exactEdgeRays(0, 1);
    const uint32_t capacity = 2;
    for (EbpiRayBackend backend : backends()) {
        SCOPED_TRACE(nameOf(backend));
        auto run = runTrace(vk(), backend, objects, rays, capacity);
        ASSERT_TRUE(run) << run.status().describe();
        uint32_t truncated = 0;
        for (uint32_t r = 0; r < rays.size(); ++r) {
            const std::vector<OracleHit> expected = oracleHits(rays[r], objects);
            EXPECT_EQ(run->rayHits[r].count, expected.size()) << "ray " << r;
            EXPECT_EQ(run->rayHits[r].truncated, expected.size() > capacity ? 1u : 0u) << "ray " << r;
            truncated += run->rayHits[r].truncated;
            // Each kept slot holds one of this ray's own hits, sorted: nothing spilled into a
            // neighbour's slots.
            const auto kept = run->hitsOf(r);
            ASSERT_EQ(kept.size(), std::min<size_t>(expected.size(), capacity));
            for (size_t i = 0; i < kept.size(); ++i) {
                const bool own = std::any_of(expected.begin(), expected.end(), [&](const OracleHit& e) {
                    return e.object == kept[i].object && e.triangle == kept[i].triangle;
                });
                EXPECT_TRUE(own) << "ray " << r << " slot " << i;
                if (i > 0) EXPECT_FALSE(gpu::ebpiHitBefore(kept[i], kept[i - 1])) << "ray " << r;
            }
        }
        EXPECT_GT(truncated, 10u);  // rays through both solids have 4 hits
    }
}

}  // namespace
}  // namespace vkc
