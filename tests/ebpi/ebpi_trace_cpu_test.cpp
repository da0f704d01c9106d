// Tier A: ebpi's watertight ray-triangle test (shaders_glsl/shared/ebpi_trace.h, the text the
// shaders compile) run on the CPU against the exact reference (tests/ebpi/ebpi_trace_oracle.h)
// on rays exactly through shared edges and vertices, and on rays grazing them by one float ulp;
// the casting passes' graph for both backends (pass order, the builds -> trace barriers).
#include "passes/ebpi/ebpi_trace_passes.h"
#include "tests/ebpi/ebpi_trace_scenes.h"

#include <gtest/gtest.h>

#include <cmath>

namespace vkc {
namespace {

using namespace ebpi_test;

// The shared test over every triangle of the ray's objects, sorted like the GPU's sort pass.
std::vector<OracleHit> sharedTestHits(const gpu::EbpiRayGpu& ray, const std::vector<TraceObject>& objects) {
    std::vector<OracleHit> hits;
    for (int k = 0; k < 2; ++k) {
        const uint32_t object = k == 0 ? ray.objectA : ray.objectB;
        if (object == gpu::kEbpiNoObject || (k == 1 && object == ray.objectA)) continue;
        const TraceObject& o = objects[object];
        for (uint32_t t = 0; t < o.mesh->triangleCount(); ++t) {
            const gpu::EbpiTriangleHit h = gpu::ebpiTraceTriangle(
                glm::vec3(ray.origin), glm::vec3(ray.direction), ray.origin.w, ray.direction.w,
                worldVertex(o, o.mesh->indices[3 * t]), worldVertex(o, o.mesh->indices[3 * t + 1]),
                worldVertex(o, o.mesh->indices[3 * t + 2]));
            if (h.hit) hits.push_back({double(h.t), object, t, h.entering});
        }
    }
    std::sort(hits.begin(), hits.end(), [](const OracleHit& x, const OracleHit& y) {
        return std::tie(x.t, x.object, x.triangle) < std::tie(y.t, y.object, y.triangle);
    });
    return hits;
}

::testing::AssertionResult sameHits(const std::vector<OracleHit>& got, const std::vector<OracleHit>& expected) {
    if (got.size() != expected.size())
        return ::testing::AssertionFailure() << got.size() << " hits, expected " << expected.size();
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i].object != expected[i].object || got[i].triangle != expected[i].triangle ||
            got[i].entering != expected[i].entering ||
            std::abs(got[i].t - expected[i].t) > 1e-5 * (1 + std::abs(got[i].t)))
            return ::testing::AssertionFailure()
                   << "hit " << i << ": triangle " << got[i].triangle << " t " << got[i].t << ", expected triangle "
                   << expected[i].triangle << " t " << expected[i].t;
    return ::testing::AssertionSuccess();
}

std::vector<TraceObject> cubeAndOctahedron(const MeshData& cube, const MeshData& octahedron) {
    return {{&cube, glm::mat4(1.0f)}, {&octahedron, glm::translate(glm::mat4(1.0f), glm::vec3(0.5f, 0.0f, 0.0f))}};
}

TEST(EbpiTraceCpuTest, EdgeAndVertexRaysMatchTheExactReferenceAndBalance) {
    const MeshData cube = cubeMesh(), octahedron = octahedronMesh();
    const std::vector<TraceObject> objects = cubeAndOctahedron(cube, octahedron);
    size_t hits = 0;
    for (const gpu::EbpiRayGpu& ray : exactEdgeRays(0, 1)) {
        const std::vector<OracleHit> expected = oracleHits(ray, objects);
        EXPECT_TRUE(sameHits(sharedTestHits(ray, objects), expected));
        const std::string unbalanced = unbalancedObject(expected);
        EXPECT_TRUE(unbalanced.empty()) << unbalanced;
        hits += expected.size();
    }
    EXPECT_GT(hits, 500u);
}

// Through the cube's face diagonal x = y on z = -1 (a shared edge of the face's two triangles)
// and through its corner: one entry, one exit, and the hit triangle changes with the side the
// ray is nudged to by one ulp.
TEST(EbpiTraceCpuTest, ASharedEdgeBelongsToExactlyOneTriangle) {
    const MeshData cube = cubeMesh();
    const std::vector<TraceObject> objects = {{&cube, glm::mat4(1.0f)}};
    std::vector<uint32_t> entered;
    for (float x : {std::nextafter(0.25f, 0.0f), 0.25f, std::nextafter(0.25f, 1.0f)}) {
        const gpu::EbpiRayGpu ray = makeRay({x, 0.25f, -4.0f}, {0.0f, 0.0f, 1.0f}, 8.0f, 0, gpu::kEbpiNoObject);
        const std::vector<OracleHit> shared = sharedTestHits(ray, objects);
        EXPECT_TRUE(sameHits(shared, oracleHits(ray, objects)));
        ASSERT_EQ(shared.size(), 2u);
        EXPECT_TRUE(shared[0].entering);
        EXPECT_FALSE(shared[1].entering);
        entered.push_back(shared[0].triangle);
    }
    // The ray on the edge goes to one of the two triangles the nudged rays meet.
    EXPECT_NE(entered[0], entered[2]);
    EXPECT_TRUE(entered[1] == entered[0] || entered[1] == entered[2]);
    // The cube's corner (-1, -1, -1) along the space diagonal: three faces, six triangles meet.
    const gpu::EbpiRayGpu corner = makeRay({-3.0f, -3.0f, -3.0f}, {1.0f, 1.0f, 1.0f}, 5.0f, 0, gpu::kEbpiNoObject);
    const std::vector<OracleHit> shared = sharedTestHits(corner, objects);
    EXPECT_TRUE(sameHits(shared, oracleHits(corner, objects)));
    ASSERT_EQ(shared.size(), 2u);
    EXPECT_EQ(shared[0].t, 2.0);
    EXPECT_EQ(shared[1].t, 4.0);
}

VkBuffer fakeBuffer(uintptr_t value) { return reinterpret_cast<VkBuffer>(value); }

struct TraceGraph {
    EbpiAccelStructs accel;
    ReadbackLayout layout = ebpiTraceReadbackLayout(100, 8);
    EbpiTracePassInputs in;
};

// GPU-driven: the ray count comes from a counters buffer (and, ray-tracing pipeline, the launch size).
void declareTrace(Graph& graph, TraceGraph& t, EbpiRayBackend backend, bool gpuDriven = false) {
    uintptr_t next = 0x100;
    auto imported = [&](const char* name) { return graph.importBuffer(name, ImportedBuffer{fakeBuffer(next++)}); };
    t.accel.meshes.resize(2);
    t.accel.blasStorage.resize(2);
    for (Buffer& b : t.accel.blasStorage) b.buffer = fakeBuffer(next++);
    t.accel.tlasStorage.buffer = fakeBuffer(next++);
    t.accel.instances.buffer = fakeBuffer(next++);
    t.accel.scratch.buffer = fakeBuffer(next++);
    t.in.backend = backend;
    t.in.rayCount = 100;
    t.in.hitCapacity = 8;
    t.in.objects = imported("objects");
    t.in.indices = imported("indices");
    t.in.rays = imported("rays");
    t.in.vertices = {imported("vertices")};
    t.in.boxes = imported("boxes");
    t.in.trees = imported("trees");
    t.in.nodes = imported("nodes");
    t.in.leaves = imported("leaves");
    t.in.objectCount = 2;
    t.in.mostTriangles = 12;
    t.in.rayHits = graph.createBuffer("ray-hits", GraphBufferDesc{800});
    t.in.hits = graph.createBuffer("hits", GraphBufferDesc{100 * 8 * 32});
    t.in.accel = &t.accel;
    ImportedBuffer ring{fakeBuffer(next++)};
    ring.final = syncStateOf(Access::HostRead);
    t.in.readback = graph.importBuffer("readback", ring);
    t.in.readbackLayout = &t.layout;
    if (gpuDriven) {
        t.in.rayCounters = imported("counters");
        t.in.launch = imported("launch");
    }
    addEbpiTracePasses(graph, t.in);
}

std::vector<std::string> passNames(const Graph& graph) {
    std::vector<std::string> names;
    for (uint32_t p = 0; p < graph.passCount(); ++p) names.push_back(graph.passName(p));
    return names;
}

// Whether pass `pass` waits for an acceleration-structure build of buffer `resource` before `dstAccess`.
bool waitsForBuild(const Graph& graph, uint32_t pass, uint32_t resource, VkAccessFlags2 dstAccess) {
    for (const GraphBarrier& b : graph.passBarriers(pass))
        if (!b.isImage && b.resource == resource &&
            (b.srcStages & VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR) &&
            (b.srcAccess & VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR) && (b.dstAccess & dstAccess))
            return true;
    return false;
}

TEST(EbpiTracePassesTest, RayQueryTraceWaitsForTheBoxesThenBlasThenTlasBuilds) {
    Graph graph;
    TraceGraph t;
    declareTrace(graph, t, EbpiRayBackend::RayQuery);
    ASSERT_TRUE(graph.compile().ok());
    EXPECT_EQ(passNames(graph),
              (std::vector<std::string>{kEbpiTraceClearPassName, kEbpiTraceBoxesPassName, kEbpiTraceBlasPassName,
                                        kEbpiTraceTlasPassName, kEbpiTracePassName, kEbpiTraceSortPassName,
                                        kEbpiTraceReadbackPassName}));
    const uint32_t blasPass = 2, tlasPass = 3, tracePass = 4;
    // The BLAS builds read the boxes the compute pass wrote.
    bool boxesWritten = false;
    for (const auto& b : graph.passBarriers(blasPass))
        boxesWritten = boxesWritten || (!b.isImage && b.resource == graph.findBuffer("boxes").index &&
                                        (b.srcAccess & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) &&
                                        (b.dstStages & VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR) &&
                                        (b.dstAccess & VK_ACCESS_2_SHADER_READ_BIT));
    EXPECT_TRUE(boxesWritten);
    const uint32_t tlas = graph.findBuffer("ebpi-tlas").index;
    EXPECT_TRUE(waitsForBuild(graph, tracePass, tlas, VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR));
    for (const char* blas : {"ebpi-blas[0]", "ebpi-blas[1]"}) {
        const uint32_t index = graph.findBuffer(blas).index;
        EXPECT_TRUE(waitsForBuild(graph, tlasPass, index, VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR)) << blas;
    }
    // The TLAS build reuses the scratch the BLAS builds wrote.
    EXPECT_TRUE(waitsForBuild(graph, tlasPass, graph.findBuffer("ebpi-accel-scratch").index,
                              VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR));
}

// Whether pass `pass` has a barrier on buffer `resource` from `srcStages`/`srcAccess` to `dstStages`/`dstAccess`.
bool hasBarrier(const Graph& graph, uint32_t pass, uint32_t resource, VkPipelineStageFlags2 srcStages,
                VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStages, VkAccessFlags2 dstAccess) {
    for (const GraphBarrier& b : graph.passBarriers(pass))
        if (!b.isImage && b.resource == resource && (b.srcStages & srcStages) && (b.srcAccess & srcAccess) &&
            (b.dstStages & dstStages) && (b.dstAccess & dstAccess))
            return true;
    return false;
}

TEST(EbpiTracePassesTest, RayTracingPipelineTracesTheLaunchSizeTheGpuWrote) {
    Graph graph;
    TraceGraph t;
    declareTrace(graph, t, EbpiRayBackend::RayTracingPipeline, true);
    ASSERT_TRUE(graph.compile().ok());
    EXPECT_EQ(passNames(graph),
              (std::vector<std::string>{kEbpiTraceClearPassName, kEbpiTraceBoxesPassName, kEbpiTraceBlasPassName,
                                        kEbpiTraceTlasPassName, kEbpiTraceLaunchPassName, kEbpiTracePassName,
                                        kEbpiTraceSortPassName, kEbpiTraceReadbackPassName}));
    const uint32_t tracePass = 5, sortPass = 6;
    // The trace reads the launch size as indirect arguments after the compute pass wrote it.
    EXPECT_TRUE(hasBarrier(graph, tracePass, graph.findBuffer("launch").index, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                           VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT));
    // It reads the TLAS from the ray-tracing stages once built, and the sort waits for its hits there.
    EXPECT_TRUE(hasBarrier(graph, tracePass, graph.findBuffer("ebpi-tlas").index,
                           VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                           VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
                           VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR,
                           VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR));
    EXPECT_TRUE(hasBarrier(graph, sortPass, graph.findBuffer("hits").index,
                           VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT));
}

TEST(EbpiTracePassesTest, ComputeBackendTouchesNoAccelerationStructure) {
    Graph graph;
    TraceGraph t;
    declareTrace(graph, t, EbpiRayBackend::Compute);
    ASSERT_TRUE(graph.compile().ok());
    EXPECT_EQ(passNames(graph), (std::vector<std::string>{kEbpiTraceClearPassName, kEbpiTracePassName,
                                                          kEbpiTraceSortPassName, kEbpiTraceReadbackPassName}));
    EXPECT_EQ(graph.dump().find("AccelStruct"), std::string::npos);
    // Its rays traverse the aabb-tree method's trees instead.
    const std::string dump = graph.dump();
    const std::string trace = dump.substr(dump.find("'ebpi-trace'"), dump.find("'ebpi-trace-sort'") - dump.find("'ebpi-trace'"));
    for (const char* tree : {"trees", "nodes", "leaves"})
        EXPECT_NE(trace.find(std::string("read buffer '") + tree + "' v0 ComputeRead"), std::string::npos) << tree;
    // The hit buffers never need a usage a plain Vulkan 1.2 device lacks.
    for (BufferHandle b : {graph.findBuffer("ray-hits"), graph.findBuffer("hits")})
        EXPECT_EQ(graph.bufferUsage(b) &
                      ~VkBufferUsageFlags(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT),
                  0u);
}

}  // namespace
}  // namespace vkc
