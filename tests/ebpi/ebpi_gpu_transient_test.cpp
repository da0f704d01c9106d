// Tier B: the transient edges on the GPU (ebpi_transient_terms.comp, fed by the aabb-tree traversal
// in leaf-box mode, aabb_traversal_frame.h) on a device under the validation layer, against the CPU
// reference: ebpiSurfaceCrossings + ebpiTransientEdgeTerms + buildEbpiFixedImage, bit for bit, in
// each of a pair's three views as EbpiDetector makes them (boxes, origin, float placements). Pairs
// of perturbed spheres, tori and boxes under random rotations and offsets, from deep overlaps to
// shallow ones; a test fails if the crossings were not exercised. Also: a candidate list cut short
// by its capacity shows in the traversal's exact count.
#include "collision/aabb_tree/aabb_traversal_frame.h"
#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_pair_views.h"
#include "collision/ebpi/ebpi_transient_edges.h"
#include "collision/frames/object_gpu.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/scene/generated_solids.h"
#include "collision/scene/scene_impl.h"
#include "collision/scene/scene_index_cache.h"
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

#include "spirv/aabb_indirect.comp.h"
#include "spirv/aabb_pairs.comp.h"
#include "spirv/aabb_refit.comp.h"
#include "spirv/aabb_traverse.comp.h"
#include "spirv/ebpi_transient_terms.comp.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace vkc {
namespace {

struct PlacedMesh {
    MeshData mesh;
    glm::dmat4 transform;
};

// What the GPU produced for one pair's three views.
struct GpuCrossings {
    std::vector<EbpiFixedPixel> pixels;  // the three views' images, one after another
    std::vector<uint32_t> overflow;      // per view
    gpu::AabbTraversalStateGpu state{};
};

class EbpiGpuTransient : public test::VulkanTest {
protected:
    void SetUp() override {
        test::VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        capacity_ = vertexBufferCapacity(vk(), 4);
        const PipelineLayoutDesc imageLayout = withVertexBufferCapacity(kEbpiImagePipelineLayout, capacity_);
        const PipelineLayoutDesc aabbLayout = withVertexBufferCapacity(kAabbPipelineLayout, capacity_);
        const SpecConstant imageGroup[] = {{0, gpu::kEbpiImageGroupSize}};
        const SpecConstant refitGroup[] = {{0, gpu::kAabbRefitGroupSize}};
        const SpecConstant aabbGroup[] = {{0, gpu::kAabbTraverseGroupSize}};
        const SpecConstant leafBoxes[] = {{0, gpu::kAabbTraverseGroupSize}, {1, 1u}};
        const struct {
            Pipeline* out;
            std::span<const uint32_t> spirv;
            const PipelineLayoutDesc* layout;
            std::span<const SpecConstant> spec;
        } pipelines[] = {{&transient_, kSpirv_ebpi_transient_terms_comp, &imageLayout, imageGroup},
                         {&pairs_, kSpirv_aabb_pairs_comp, &aabbLayout, {}},
                         {&refit_, kSpirv_aabb_refit_comp, &aabbLayout, refitGroup},
                         {&indirect_, kSpirv_aabb_indirect_comp, &aabbLayout, aabbGroup},
                         {&traverse_, kSpirv_aabb_traverse_comp, &aabbLayout, leafBoxes}};
        for (const auto& p : pipelines) {
            auto created = createComputePipeline(vk(), p.spirv, *p.layout, p.spec, "ebpi transient test");
            ASSERT_TRUE(created) << created.status().describe();
            *p.out = created.value();
        }
        const uint32_t buffers = gpu::kEbpiImageBindingCrossingPairs + gpu::kAabbBindingEntrances + 2 + 2 * capacity_;
        ASSERT_TRUE(descriptors_.create(vk(), 2, buffers, "ebpi transient test descriptors").ok());
        auto imageSet = descriptors_.allocate(transient_.setLayouts[0], "ebpi image set", capacity_);
        auto aabbSet = descriptors_.allocate(traverse_.setLayouts[0], "ebpi aabb-tree set", capacity_);
        ASSERT_TRUE(imageSet && aabbSet);
        imageSet_ = imageSet.value();
        traversal_.set = aabbSet.value();
    }

    void TearDown() override {
        descriptors_.destroy();
        for (Pipeline* p : {&transient_, &pairs_, &refit_, &indirect_, &traverse_})
            if (p->pipeline != VK_NULL_HANDLE) destroyPipeline(vk(), *p);
        test::VulkanTest::TearDown();
    }

    // The pair's crossings rasterized into its three views on the GPU, with a candidate list of
    // `trianglePairCapacity` entries.
    std::optional<GpuCrossings> runGpu(const SceneImpl& scene, const EbpiPairViews& views, const EbpiBox& localBox,
                                       uint32_t trianglePairCapacity) {
        traversal_.nodesValid = false;  // a new graph each run: the trees are uploaded again
        VertexBufferSlots slots(capacity_, "ebpi transient test");
        std::vector<gpu::ObjectGpu> objects;
        for (const SceneObject& o : scene.objects) {
            auto slot = slots.slot(scene.meshes[o.mesh].vertexBuffer, vertexExtentBytes(scene.meshes[o.mesh]), [] { return std::string("test object"); });
            EXPECT_TRUE(slot) << slot.status().describe();
            if (!slot) return std::nullopt;
            objects.push_back(objectGpu(scene, o, views.origin, slot.value()));
        }
        SceneIndexCache indices;
        ensureSceneIndices(indices, scene);
        std::vector<gpu::EbpiViewGpu> viewTable;
        uint32_t pixelCount = 0;
        for (const EbpiPairView& v : views.views) {
            viewTable.push_back(ebpiViewGpu(v.rotation, v.window, pixelCount, v.region));
            pixelCount += v.window.width * v.window.height;
        }
        gpu::EbpiCrossingPairGpu pair{};
        for (int k = 0; k < 3; ++k) {
            pair.regionLo[k] = localBox.lo[k];
            pair.regionHi[k] = localBox.hi[k];
        }
        pair.objectA = 0;
        pair.objectB = 1;
        pair.firstIndexA = indices.firstIndex[scene.objects[0].mesh];
        pair.firstIndexB = indices.firstIndex[scene.objects[1].mesh];

        auto pixels = createBuffer(vk(), BufferDesc{VkDeviceSize(pixelCount) * sizeof(gpu::EbpiPixelGpu),
                                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage{}, "test pixels"});
        auto status = createBuffer(vk(), BufferDesc{16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage{}, "test flags"});
        auto state = createBuffer(vk(), BufferDesc{sizeof(gpu::AabbTraversalStateGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                   MemoryUsage{}, "test traversal state"});
        EXPECT_TRUE(pixels && status && state);
        if (!pixels || !status || !state) return std::nullopt;
        std::optional<GpuCrossings> out;
        {
            Graph graph;
            auto host = [&](const char* name, VkDeviceSize bytes) { return test::hostInput(graph, name, bytes); };
            auto output = [&](const char* name, const Buffer& buffer) { return test::readBackOutput(graph, name, buffer); };
            AabbTraversalRequest request;
            request.method = "ebpi";
            request.pairsPipeline = &pairs_;
            request.refitPipeline = &refit_;
            request.indirectPipeline = &indirect_;
            request.traversePipeline = &traverse_;
            request.nodePairCapacity = 1u << 16;
            request.trianglePairCapacity = trianglePairCapacity;
            request.pairCapacity = 1;
            request.vertexBufferCapacity = capacity_;
            AabbTreeCache trees;
            const uint32_t pairList[] = {1, 1, 0, 0, 0, 1};  // the pair (0, 1) in the broadphase's layout
            const BufferHandle candidates = host("ebpi traversed pairs", sizeof(pairList));
            auto traversal = addAabbTraversal(graph, vk(), trees, traversal_, scene, {candidates, 1}, request);
            EXPECT_TRUE(traversal) << traversal.status().describe();
            if (!traversal) return std::nullopt;

            EbpiImagePassInputs in;
            in.transientPipeline = &transient_;
            in.set = imageSet_;
            in.viewCount = 3;
            in.pixelCount = pixelCount;
            in.objects = host("ebpi objects", objects.size() * sizeof(gpu::ObjectGpu));
            in.views = host("ebpi views", viewTable.size() * sizeof(gpu::EbpiViewGpu));
            in.vertices = importVertexBuffers(graph, slots.buffers());
            in.pixels = output("ebpi pixels", pixels.value());
            in.status = output("ebpi overflow flags", status.value());
            in.indices = declareSceneIndices(graph, indices, "ebpi");
            in.trianglePairs = traversal->outputs.trianglePairs;
            in.traversal = traversal->outputs.state;
            in.crossingPairs = host("ebpi crossing pairs", sizeof(pair));
            in.trianglePairCapacity = trianglePairCapacity;
            addEbpiImagePasses(graph, in);
            PassBuilder copy = graph.addPass("copy traversal state");
            const BufferHandle stateIn = traversal->outputs.state;
            copy.read(stateIn, Access::TransferSrc);
            const BufferHandle stateOut = copy.write(output("traversal state", state.value()), Access::TransferDst);
            copy.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
                const VkBufferCopy region{r.bufferOffset(stateIn), 0, sizeof(gpu::AabbTraversalStateGpu)};
                r.device().vkCmdCopyBuffer(cmd, r.buffer(stateIn), r.buffer(stateOut), 1, &region);
            });

            VulkanGraphAllocator allocator(vk());
            Status compiled = graph.compile(&allocator);
            EXPECT_TRUE(compiled.ok()) << compiled.describe();
            const bool bound =
                compiled.ok() &&
                bindAabbTraversal(vk(), allocator, graph, descriptors_.placeholder(), traversal.value(), traversal_).ok() &&
                uploadSceneIndices(allocator, graph, in.indices, indices).ok() &&
                fillHostBuffer(allocator, graph, in.objects, std::span<const gpu::ObjectGpu>(objects)).ok() &&
                fillHostBuffer(allocator, graph, in.views, std::span<const gpu::EbpiViewGpu>(viewTable)).ok() &&
                fillHostBuffer(allocator, graph, in.crossingPairs, std::span<const gpu::EbpiCrossingPairGpu>(&pair, 1)).ok() &&
                fillHostBuffer(allocator, graph, candidates, std::span<const uint32_t>(pairList)).ok();
            EXPECT_TRUE(bound);
            if (bound) {
                GraphDescriptors descriptors(vk(), graph, descriptors_.placeholder());
                for (const auto& [binding, handle] : ebpiImageBufferBindings(in))
                    descriptors.storageBuffer(imageSet_, binding, handle);
                writeStorageBufferArray(vk(), imageSet_, gpu::kBindingVertexBuffers, slots.bindings());
                const Status executed = test::runGraphOnce(vk(), graph, "ebpi transient test");
                EXPECT_TRUE(executed.ok()) << executed.describe();
                GpuCrossings gpu;
                gpu.pixels.resize(pixelCount);
                gpu.overflow.resize(3);
                EXPECT_TRUE(readBuffer(vk(), pixels.value(), gpu.pixels.data(), pixelCount * sizeof(EbpiFixedPixel)).ok());
                EXPECT_TRUE(readBuffer(vk(), status.value(), gpu.overflow.data(), 12).ok());
                EXPECT_TRUE(readBuffer(vk(), state.value(), &gpu.state, sizeof(gpu.state)).ok());
                out = std::move(gpu);
            }
        }
        for (Buffer* b : {&pixels.value(), &status.value(), &state.value()}) destroyBuffer(vk(), *b);
        return out;
    }

    // One pair: the GPU's three images against the CPU reference's, byte for byte. Returns the
    // number of crossings the CPU found.
    size_t check(const PlacedMesh& a, const PlacedMesh& b, const std::string& what, uint32_t capacity = 1u << 18) {
        SCOPED_TRACE(what);
        auto scene = Scene::create(context_);
        EXPECT_TRUE(scene) << scene.status().describe();
        if (!scene) return 0;
        std::vector<EbpiBox> boxes;
        for (const PlacedMesh* p : {&a, &b}) {
            auto mesh = scene->addMesh({p->mesh.name.c_str(), &p->mesh});
            EXPECT_TRUE(mesh) << mesh.status().describe();
            if (!mesh || !scene->addObject(mesh.value(), p->transform)) return 0;
            boxes.push_back(ebpiObjectBox(placedMeshBounds(p->mesh, p->transform), &p->mesh, p->transform));
        }
        const std::optional<EbpiPairViews> views =
            ebpiPairViews(boxes[0], boxes[1], glm::dmat3(glm::rotate(glm::dmat4(1.0), 0.3, glm::dvec3(1, 2, 3))), 64);
        if (!views) return 0;  // boxes that only touch: nothing to compare
        // The region as EbpiDetector gives it: the overlap, grown.
        const EbpiBox localBox{views->views[0].region.lo, views->views[0].region.hi};
        const SceneImpl& impl = sceneImplOf(scene.value());
        std::optional<GpuCrossings> gpu = runGpu(impl, *views, localBox, capacity);
        EXPECT_TRUE(gpu);
        if (!gpu) return 0;

        const glm::mat4 localA = objectGpu(impl, impl.objects[0], views->origin, 0).objectToLocal;
        const glm::mat4 localB = objectGpu(impl, impl.objects[1], views->origin, 0).objectToLocal;
        const std::vector<EbpiSurfaceCrossing> crossings = ebpiSurfaceCrossings(a.mesh, localA, b.mesh, localB, localBox);
        uint32_t firstPixel = 0;
        for (uint32_t axis = 0; axis < 3; ++axis) {
            const EbpiPairView& view = views->views[axis];
            const EbpiFixedImage cpu = buildEbpiFixedImage(ebpiTransientEdgeTerms(crossings, view.rotation), view.window);
            const size_t count = cpu.pixels.size();
            EXPECT_EQ(std::memcmp(cpu.pixels.data(), gpu->pixels.data() + firstPixel, count * sizeof(EbpiFixedPixel)), 0)
                << "view " << axis << ": the GPU image differs from the CPU's";
            EXPECT_EQ(gpu->overflow[axis] != 0, cpu.overflow) << "view " << axis;
            firstPixel += uint32_t(count);
        }
        EXPECT_EQ(gpu->state.nodePairOverflow, 0u);
        return crossings.size();
    }

    uint32_t capacity_ = 0;
    Pipeline transient_, pairs_, refit_, indirect_, traverse_;
    test::PassTestDescriptors descriptors_;
    VkDescriptorSet imageSet_ = VK_NULL_HANDLE;
    AabbTraversalSlot traversal_;
};

glm::dvec3 randomUnit(std::mt19937& rng) {
    std::normal_distribution<double> n;
    return glm::normalize(glm::dvec3(n(rng), n(rng), n(rng)));
}

TEST_F(EbpiGpuTransient, LayoutMatchesTheShader) {
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_ebpi_transient_terms_comp, kEbpiImagePipelineLayout,
                                          "ebpi_transient_terms.comp")
                    .ok());
}

TEST_F(EbpiGpuTransient, CrossingsOfRandomPairsEqualTheCpuImageInEveryView) {
    std::mt19937 rng(20261125);
    size_t crossings = 0, pairs = 0;
    for (int trial = 0; trial < 9; ++trial) {
        const MeshData shapes[] = {ebpi_test::perturbedRadially(solids::sphere(1.0f, 2), 0.2, rng),
                                   ebpi_test::perturbedRadially(solids::torus(1.0f, 0.4f, 10), 0.05, rng),
                                   ebpi_test::perturbedRadially(solids::box({1.6f, 1.0f, 1.2f}), 0.15, rng)};
        const double distance = std::uniform_real_distribution<double>(0.4, 1.4)(rng);
        const double angle = std::uniform_real_distribution<double>(0.0, 6.283)(rng);
        // Far from the world origin: the pair's coordinates are relative to its own.
        const glm::dvec3 at(1000.0, -250.0, 40.0);
        const PlacedMesh a{shapes[trial % 3], glm::translate(glm::dmat4(1.0), at)};
        const PlacedMesh b{shapes[(trial / 3 + trial + 1) % 3],
                           glm::rotate(glm::translate(glm::dmat4(1.0), at + distance * randomUnit(rng)), angle,
                                       randomUnit(rng))};
        const size_t found = check(a, b, "trial " + std::to_string(trial));
        crossings += found;
        pairs += found != 0;
    }
    std::printf("%zu crossings over %zu crossing pairs\n", crossings, pairs);
    EXPECT_GE(pairs, 6u) << "most poses must cross";
    EXPECT_GE(crossings, 300u);
}

// A list cut short: the count stays exact, so the detector can tell (and truncate every pair).
TEST_F(EbpiGpuTransient, ACandidateListPastItsCapacityKeepsTheExactCount) {
    const MeshData sphere = solids::sphere(1.0f, 2);
    const PlacedMesh a{sphere, glm::dmat4(1.0)};
    const PlacedMesh b{sphere, glm::translate(glm::dmat4(1.0), glm::dvec3(0.7, 0.2, 0.1))};
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    for (const PlacedMesh* p : {&a, &b}) {
        auto mesh = scene->addMesh({"sphere", &p->mesh});
        ASSERT_TRUE(mesh && scene->addObject(mesh.value(), p->transform));
    }
    const EbpiBox boxA = ebpiObjectBox(placedMeshBounds(sphere, a.transform), &sphere, a.transform);
    const EbpiBox boxB = ebpiObjectBox(placedMeshBounds(sphere, b.transform), &sphere, b.transform);
    const std::optional<EbpiPairViews> views = ebpiPairViews(boxA, boxB, glm::dmat3(1.0), 32);
    ASSERT_TRUE(views);
    const EbpiBox local{glm::max(boxA.lo, boxB.lo) - views->origin, glm::min(boxA.hi, boxB.hi) - views->origin};
    const SceneImpl& impl = sceneImplOf(scene.value());
    const std::optional<GpuCrossings> whole = runGpu(impl, *views, local, 1u << 18);
    const std::optional<GpuCrossings> cut = runGpu(impl, *views, local, 16);
    ASSERT_TRUE(whole && cut);
    EXPECT_GT(whole->state.trianglePairCount, 16u);
    EXPECT_EQ(cut->state.trianglePairCount, whole->state.trianglePairCount);
}

// Paper 5's Fig. 10 poses: a box turning against an axis-aligned box, whose faces lie on the
// overlap box's boundary. Every pose crosses; the region must hold those faces whatever the float
// placements' rounding (an ungrown overlap lost every crossing of one pose).
TEST_F(EbpiGpuTransient, BoxFacesOnTheOverlapsBoundaryKeepTheirCrossings) {
    const MeshData fixed = solids::box(glm::vec3(2.0f, 1.0f, 1.0f));
    const MeshData box = solids::box(glm::vec3(0.6f, 1.6f, 0.6f));
    for (int pose = 0; pose < 8; ++pose) {
        const glm::dmat4 at = glm::rotate(glm::translate(glm::dmat4(1.0), {0.2 * pose - 0.7, 0.5, 0.1}),
                                          0.2 + 0.35 * pose, glm::dvec3(0.3, 0.4, 1.0));
        EXPECT_GE(check({fixed, glm::dmat4(1.0)}, {box, at}, "pose " + std::to_string(pose)), 8u) << "pose " << pose;
    }
}

}  // namespace
}  // namespace vkc
