// Tier B: the ray directions chosen on the GPU (passes/ebpi/ebpi_direction_passes.h:
// ebpi-normal-histogram, ebpi-directions) on a device under the validation layer, against the CPU
// reference ebpiOptimizeDirections of ebpiPairNormalHistogram (collision/ebpi/ebpi_directions.h):
// the same axes bit for bit from the meshes as drawn, for pairs of perturbed spheres, tori and
// boxes far from the world origin, several pairs in one dispatch, from identity and from warm
// starts; each view fitted to its axis as the CPU fits it (rotation, window, scales, depth range,
// pyramid, reserve: shaders_glsl/shared/ebpi_view_fit.h), the host's other fields untouched; a pair
// marked not to optimise keeps its start axes; the optimised axes cost less than the start.
#include "collision/ebpi/ebpi_directions.h"
#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_ray_plan.h"
#include "collision/ebpi/ebpi_pair_views.h"
#include "collision/frames/object_gpu.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/scene/generated_solids.h"
#include "collision/scene/scene_impl.h"
#include "collision/scene/scene_index_cache.h"
#include "passes/ebpi/ebpi_direction_passes.h"
#include "passes/ebpi/ebpi_image_passes.h"
#include "tests/ebpi/ebpi_test_meshes.h"
#include "tests/support/graph_run.h"
#include "tests/support/pass_test_descriptors.h"
#include "tests/support/reflection_check.h"
#include "tests/support/test_geometry.h"
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vk/descriptors.h"
#include "vk/pipeline.h"
#include "vkcollide/scene.h"

#include "shaders_glsl/shared/ebpi_view_fit.h"

#include "spirv/ebpi_directions.comp.h"
#include "spirv/ebpi_normal_histogram.comp.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace vkc {
namespace {

struct PairCase {
    uint32_t a, b;          // scene objects
    glm::dmat3 start{1.0};  // the axes the GPU starts from
    bool optimize = true;
};

// What the GPU chose: per pair its axes (columns), per view its fit.
struct GpuDirections {
    std::vector<glm::dmat3> axes;
    std::vector<gpu::EbpiViewGpu> views;
    std::vector<gpu::EbpiRayViewGpu> rayViews;
};

constexpr uint32_t kResolution = 48;
constexpr uint32_t kHitCapacity = 12;

class EbpiGpuDirections : public test::VulkanTest {
protected:
    void SetUp() override {
        test::VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        capacity_ = vertexBufferCapacity(vk(), 8);
        const PipelineLayoutDesc layout = withVertexBufferCapacity(kEbpiDirectionPipelineLayout, capacity_);
        for (const auto& [out, spirv] : {std::pair{&histogram_, std::span<const uint32_t>(kSpirv_ebpi_normal_histogram_comp)},
                                         std::pair{&directions_, std::span<const uint32_t>(kSpirv_ebpi_directions_comp)}}) {
            auto created = createComputePipeline(vk(), spirv, layout, {}, "ebpi directions test");
            ASSERT_TRUE(created) << created.status().describe();
            *out = created.value();
        }
        ASSERT_TRUE(descriptors_.create(vk(), 1, gpu::kEbpiDirectionBindingAxes + 1 + capacity_,
                                        "ebpi directions test descriptors")
                        .ok());
        auto set = descriptors_.allocate(histogram_.setLayouts[0], "ebpi direction set", capacity_);
        ASSERT_TRUE(set);
        set_ = set.value();
    }

    void TearDown() override {
        descriptors_.destroy();
        for (Pipeline* p : {&histogram_, &directions_})
            if (p->pipeline != VK_NULL_HANDLE) destroyPipeline(vk(), *p);
        test::VulkanTest::TearDown();
    }

    // The scene's objects placed relative to `origin`, and every pair's directions chosen on the GPU.
    std::optional<GpuDirections> runGpu(const SceneImpl& scene, const glm::dvec3& origin,
                                        const std::vector<gpu::EbpiDirectionPairGpu>& pairs) {
        VertexBufferSlots slots(capacity_, "ebpi directions test");
        std::vector<gpu::ObjectGpu> objects;
        for (const SceneObject& o : scene.objects) {
            auto slot = slots.slot(scene.meshes[o.mesh].vertexBuffer, vertexExtentBytes(scene.meshes[o.mesh]), [] { return std::string("test object"); });
            EXPECT_TRUE(slot) << slot.status().describe();
            if (!slot) return std::nullopt;
            objects.push_back(objectGpu(scene, o, origin, slot.value()));
        }
        SceneIndexCache indices;
        ensureSceneIndices(indices, scene);
        // Views with fields the host writes: they must come through untouched.
        std::vector<gpu::EbpiViewGpu> views(pairs.size() * 3);
        std::vector<gpu::EbpiRayViewGpu> rayViews(pairs.size() * 3);
        for (size_t v = 0; v < views.size(); ++v) {
            std::memset(&views[v], 0, sizeof(gpu::EbpiViewGpu));
            std::memset(&rayViews[v], 0, sizeof(gpu::EbpiRayViewGpu));
            views[v].firstPixel = uint32_t(v) + 7;
            rayViews[v].firstTile = uint32_t(v) + 11;
        }
        auto axesOut = createBuffer(vk(), BufferDesc{pairs.size() * 9 * sizeof(double), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                     MemoryUsage{}, "test axes"});
        auto viewsOut = createBuffer(vk(), BufferDesc{views.size() * sizeof(gpu::EbpiViewGpu),
                                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage{}, "test views"});
        auto rayViewsOut = createBuffer(vk(), BufferDesc{rayViews.size() * sizeof(gpu::EbpiRayViewGpu),
                                                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage{}, "test ray views"});
        EXPECT_TRUE(axesOut && viewsOut && rayViewsOut);
        if (!axesOut || !viewsOut || !rayViewsOut) return std::nullopt;
        EXPECT_TRUE(uploadBuffer(vk(), viewsOut.value(), views.data(), views.size() * sizeof(gpu::EbpiViewGpu)).ok());
        EXPECT_TRUE(
            uploadBuffer(vk(), rayViewsOut.value(), rayViews.data(), rayViews.size() * sizeof(gpu::EbpiRayViewGpu)).ok());
        std::optional<GpuDirections> out;
        {
            Graph graph;
            auto host = [&](const char* name, VkDeviceSize bytes) { return test::hostInput(graph, name, bytes); };
            EbpiDirectionPassInputs in;
            in.histogramPipeline = &histogram_;
            in.directionsPipeline = &directions_;
            in.set = set_;
            in.pairCount = uint32_t(pairs.size());
            for (const gpu::EbpiDirectionPairGpu& p : pairs) in.mostTriangles = std::max(in.mostTriangles, p.trianglesA + p.trianglesB);
            in.objects = host("ebpi objects", objects.size() * sizeof(gpu::ObjectGpu));
            in.indices = declareSceneIndices(graph, indices, "ebpi");
            in.pairs = host("ebpi direction pairs", pairs.size() * sizeof(gpu::EbpiDirectionPairGpu));
            in.vertices = importVertexBuffers(graph, slots.buffers());
            in.histogram = graph.createBuffer("ebpi normal histograms",
                                              GraphBufferDesc{pairs.size() * gpu::kEbpiHistogramWords * 4});
            in.views = test::readBackOutput(graph, "ebpi views", viewsOut.value());
            in.rayViews = test::readBackOutput(graph, "ebpi ray views", rayViewsOut.value());
            in.axes = test::readBackOutput(graph, "ebpi axes", axesOut.value());
            addEbpiDirectionPasses(graph, in);
            VulkanGraphAllocator allocator(vk());
            Status compiled = graph.compile(&allocator);
            EXPECT_TRUE(compiled.ok()) << compiled.describe();
            const bool bound = compiled.ok() && uploadSceneIndices(allocator, graph, in.indices, indices).ok() &&
                               fillHostBuffer(allocator, graph, in.objects, std::span<const gpu::ObjectGpu>(objects)).ok() &&
                               fillHostBuffer(allocator, graph, in.pairs, std::span<const gpu::EbpiDirectionPairGpu>(pairs)).ok();
            EXPECT_TRUE(bound);
            if (bound) {
                GraphDescriptors descriptors(vk(), graph, descriptors_.placeholder());
                for (const auto& [binding, handle] : ebpiDirectionBufferBindings(in))
                    descriptors.storageBuffer(set_, binding, handle);
                writeStorageBufferArray(vk(), set_, gpu::kBindingVertexBuffers, slots.bindings());
                const Status executed = test::runGraphOnce(vk(), graph, "ebpi directions test");
                EXPECT_TRUE(executed.ok()) << executed.describe();
                GpuDirections gpu;
                std::vector<double> axes(pairs.size() * 9);
                gpu.views.resize(views.size());
                gpu.rayViews.resize(rayViews.size());
                EXPECT_TRUE(readBuffer(vk(), axesOut.value(), axes.data(), axes.size() * sizeof(double)).ok());
                EXPECT_TRUE(readBuffer(vk(), viewsOut.value(), gpu.views.data(), views.size() * sizeof(gpu::EbpiViewGpu)).ok());
                EXPECT_TRUE(readBuffer(vk(), rayViewsOut.value(), gpu.rayViews.data(),
                                       rayViews.size() * sizeof(gpu::EbpiRayViewGpu))
                                .ok());
                for (size_t p = 0; p < pairs.size(); ++p) {
                    glm::dmat3 m;
                    for (int k = 0; k < 9; ++k) m[k / 3][k % 3] = axes[p * 9 + k];
                    gpu.axes.push_back(m);
                }
                out = std::move(gpu);
            }
        }
        for (Buffer* b : {&axesOut.value(), &viewsOut.value(), &rayViewsOut.value()}) destroyBuffer(vk(), *b);
        return out;
    }

    // Every pair of `cases` over `placed`: the GPU's axes and rotations against the CPU reference.
    void check(const std::vector<std::pair<MeshData, glm::dmat4>>& placed, const std::vector<PairCase>& cases) {
        auto scene = Scene::create(context_);
        ASSERT_TRUE(scene) << scene.status().describe();
        EbpiBox all{glm::dvec3(INFINITY), glm::dvec3(-INFINITY)};
        std::vector<EbpiBox> boxes;
        for (const auto& [mesh, transform] : placed) {
            auto id = scene->addMesh({mesh.name.c_str(), &mesh});
            ASSERT_TRUE(id && scene->addObject(id.value(), transform));
            boxes.push_back(ebpiObjectBox(placedMeshBounds(mesh, transform), &mesh, transform));
            all = {glm::min(all.lo, boxes.back().lo), glm::max(all.hi, boxes.back().hi)};
        }
        const glm::dvec3 origin = 0.5 * (all.lo + all.hi);
        const SceneImpl& impl = sceneImplOf(scene.value());
        SceneIndexCache indices;
        ensureSceneIndices(indices, impl);
        const double scale = ebpiHistogramScale(glm::length(all.hi - all.lo));
        std::vector<gpu::EbpiDirectionPairGpu> pairs;
        for (uint32_t p = 0; p < cases.size(); ++p) {
            const PairCase& c = cases[p];
            gpu::EbpiDirectionPairGpu pair{};
            for (int k = 0; k < 9; ++k) pair.start[k] = c.start[k / 3][k % 3];
            pair.histogramScale = scale;
            pair.objectA = c.a;
            pair.objectB = c.b;
            pair.firstIndexA = indices.firstIndex[impl.objects[c.a].mesh];
            pair.firstIndexB = indices.firstIndex[impl.objects[c.b].mesh];
            pair.trianglesA = uint32_t(placed[c.a].first.indices.size() / 3);
            pair.trianglesB = uint32_t(placed[c.b].first.indices.size() / 3);
            pair.firstView = 3 * p;
            pair.optimize = c.optimize ? 1u : 0u;
            pair.inUse = 1u;
            const EbpiBox& a = boxes[c.a];
            const EbpiBox& b = boxes[c.b];
            for (int k = 0; k < 3; ++k) {
                pair.overlapLo[k] = std::max(a.lo[k], b.lo[k]) - origin[k];
                pair.overlapHi[k] = std::min(a.hi[k], b.hi[k]) - origin[k];
                pair.unionLo[k] = std::min(a.lo[k], b.lo[k]) - origin[k];
                pair.unionHi[k] = std::max(a.hi[k], b.hi[k]) - origin[k];
            }
            pair.fixedReserve = 1e-7 * (p + 1);
            pair.resolution = kResolution;
            pair.hitCapacity = kHitCapacity;
            pairs.push_back(pair);
        }
        const std::optional<GpuDirections> gpu = runGpu(impl, origin, pairs);
        ASSERT_TRUE(gpu);
        for (uint32_t p = 0; p < cases.size(); ++p) {
            const PairCase& c = cases[p];
            SCOPED_TRACE("pair " + std::to_string(p));
            const glm::mat4 localA = objectGpu(impl, impl.objects[c.a], origin, 0).objectToLocal;
            const glm::mat4 localB = objectGpu(impl, impl.objects[c.b], origin, 0).objectToLocal;
            const EbpiNormalHistogram histogram =
                ebpiPairNormalHistogram(placed[c.a].first, localA, placed[c.b].first, localB, scale);
            const glm::dmat3 cpu = c.optimize ? ebpiOptimizeDirections(histogram, c.start) : c.start;
            EXPECT_EQ(std::memcmp(&cpu, &gpu->axes[p], sizeof(cpu)), 0) << "the GPU's axes differ from the CPU's";
            if (c.optimize) EXPECT_LT(ebpiDirectionCost(histogram, cpu), ebpiDirectionCost(histogram, c.start));
            const gpu::EbpiDirectionPairGpu& pair = pairs[p];
            for (uint32_t axis = 0; axis < 3; ++axis) {
                SCOPED_TRACE("axis " + std::to_string(axis));
                const gpu::EbpiViewGpu& view = gpu->views[3 * p + axis];
                const gpu::EbpiRayViewGpu& rays = gpu->rayViews[3 * p + axis];
                const EbpiRotation rotation = ebpiRotationTo(cpu[axis]);
                for (int k = 0; k < 9; ++k) EXPECT_EQ(view.rotation[k], rotation.rows[k / 3][k % 3]);
                const gpu::EbpiViewFit fit = gpu::ebpiFitView(
                    rotation.rows[0], rotation.rows[1], rotation.rows[2],
                    {pair.overlapLo[0], pair.overlapLo[1], pair.overlapLo[2]}, {pair.overlapHi[0], pair.overlapHi[1], pair.overlapHi[2]},
                    {pair.unionLo[0], pair.unionLo[1], pair.unionLo[2]}, {pair.unionHi[0], pair.unionHi[1], pair.unionHi[2]},
                    kResolution);
                EXPECT_EQ(view.originX, fit.originX);
                EXPECT_EQ(view.originY, fit.originY);
                EXPECT_EQ(view.pixelX, fit.pixel);
                EXPECT_EQ(view.pixelY, fit.pixel);
                EXPECT_EQ(view.width, fit.width);
                EXPECT_EQ(view.height, fit.height);
                EXPECT_EQ(std::max(fit.width, fit.height), kResolution);
                const std::array<double, kEbpiChannels> scales =
                    ebpiFixedPointScales({{fit.originX, fit.originY}, glm::dvec2(fit.pixel), fit.width, fit.height});
                EXPECT_EQ(std::memcmp(view.scales, scales.data(), sizeof(view.scales)), 0);
                EXPECT_EQ(rays.zMin, fit.zMin);
                EXPECT_EQ(rays.zMax, fit.zMax);
                EXPECT_EQ(rays.levels, ebpiPyramidLevels(fit.width, fit.height));
                EXPECT_EQ(rays.reserved, pair.fixedReserve + gpu::ebpiFloatRoundingBound(fit, kHitCapacity));
                EXPECT_EQ(view.firstPixel, 3 * p + axis + 7) << "a field the pass must not touch";
                EXPECT_EQ(rays.firstTile, 3 * p + axis + 11) << "a field the pass must not touch";
            }
        }
    }

    uint32_t capacity_ = 0;
    Pipeline histogram_, directions_;
    test::PassTestDescriptors descriptors_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

glm::dmat3 randomRotation(std::mt19937& rng) {
    std::normal_distribution<double> n;
    return glm::dmat3(glm::rotate(glm::dmat4(1.0), n(rng) * 2.0, glm::normalize(glm::dvec3(n(rng), n(rng), n(rng)))));
}

TEST_F(EbpiGpuDirections, LayoutMatchesTheShaders) {
    for (const auto& [spirv, name] :
         {std::pair{std::span<const uint32_t>(kSpirv_ebpi_normal_histogram_comp), "ebpi_normal_histogram.comp"},
          std::pair{std::span<const uint32_t>(kSpirv_ebpi_directions_comp), "ebpi_directions.comp"}})
        EXPECT_TRUE(test::checkPipelineLayout(spirv, kEbpiDirectionPipelineLayout, name).ok()) << name;
}

TEST_F(EbpiGpuDirections, AxesEqualTheCpuReferenceForPairsFarFromTheOrigin) {
    std::mt19937 rng(20261126);
    std::vector<std::pair<MeshData, glm::dmat4>> placed;
    const glm::dvec3 at(-3000.0, 120.0, 900.0);
    for (int k = 0; k < 6; ++k) {
        const MeshData shapes[] = {ebpi_test::perturbedRadially(solids::sphere(1.0f, 2), 0.2, rng),
                                   ebpi_test::perturbedRadially(solids::torus(1.0f, 0.4f, 10), 0.05, rng),
                                   ebpi_test::perturbedRadially(solids::box({1.6f, 1.0f, 1.2f}), 0.15, rng)};
        glm::dmat4 transform = glm::translate(glm::dmat4(1.0), at + glm::dvec3(0.7 * k, 0.1 * k, -0.2 * k));
        transform = transform * glm::dmat4(randomRotation(rng));
        placed.push_back({shapes[k % 3], transform});
    }
    // Identity starts, warm starts from last frame's axes turned a little, a pair kept as it starts.
    std::vector<PairCase> cases = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}};
    cases.push_back({0, 3, randomRotation(rng)});
    cases.push_back({2, 5, randomRotation(rng), false});
    check(placed, cases);
}

// An axis-aligned box pair: the world axes run along every face (Eq. 12's worst); the GPU turns
// them away like the reference does.
TEST_F(EbpiGpuDirections, AlignedBoxesGetTurnedAwayFromTheirFaces) {
    const MeshData box = solids::box({1.0f, 1.0f, 1.0f});
    check({{box, glm::dmat4(1.0)}, {box, glm::translate(glm::dmat4(1.0), glm::dvec3(0.5, 0.25, 0.125))}}, {{0, 1}});
    // Unequal sides: Eq. 12's minimum leaves an axis in the small faces' plane, and the GPU turns
    // it off them as the CPU does (ebpiLeanOffFaces), aligned and yawed.
    const MeshData plank = solids::box({2.0f, 1.0f, 0.5f});
    check({{plank, glm::dmat4(1.0)},
           {plank, glm::translate(glm::dmat4(1.0), glm::dvec3(0.6, 0.2, 0.1))},
           {plank, glm::rotate(glm::translate(glm::dmat4(1.0), glm::dvec3(0.3, -0.2, 0.1)), 0.7, glm::dvec3(0, 1, 0))}},
          {{0, 1}, {0, 2}});
}

}  // namespace
}  // namespace vkc
