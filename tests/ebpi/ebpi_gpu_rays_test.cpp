// Tier B: the adaptive ray list built on the GPU (passes/ebpi/ebpi_ray_passes.h: ebpi-pyramid,
// ebpi-ray-options, ebpi-ray-allocate, ebpi-ray-scan, ebpi-ray-generate) from the EBPI built on the
// GPU (ebpi_image_passes.h), on a device under the validation layer, against the CPU reference
// planEbpiPairRays of the CPU's fixed-point images, a pair's views together (ebpi_ray_plan.h):
//   - the same rays (EbpiRayGpu), samples (EbpiRaySampleGpu) and volume weights (EbpiVolumeRayGpu:
//     the sample's area, the view's pair and axis) in the same order, bit for bit,
//     several views in one list (test meshes and a shared mesh, directions, window sizes cut by the
//     pyramid, tolerances, two objects in one view), two runs identical;
//   - per view: first ray, ray count, achieved bound (quanta) and flags equal the CPU's; a pair's
//     achieved bounds sum to less than its views x tolerance unless flagged;
//   - totals and the consumer's dispatch arguments; past maxRays: exact count, the flag, and no
//     write beyond the capacity; pairs (views 3k..3k+2) are cast in order while their rays fit, a
//     pair that does not is skipped whole and the pairs after it still fit.
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_ray_plan.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/scene/generated_solids.h"
#include "passes/ebpi/ebpi_image_passes.h"
#include "passes/ebpi/ebpi_ray_passes.h"
#include "tests/ebpi/ebpi_test_meshes.h"
#include "tests/support/graph_run.h"
#include "tests/support/pass_test_descriptors.h"
#include "tests/support/reflection_check.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/mesh_loader.h"
#include "vk/buffer.h"
#include "vk/commands.h"
#include "vk/descriptors.h"
#include "vk/pipeline.h"

#include "spirv/ebpi_depth_extent.comp.h"
#include "spirv/ebpi_edge_terms.comp.h"
#include "spirv/ebpi_pyramid.comp.h"
#include "spirv/ebpi_ray_allocate.comp.h"
#include "spirv/ebpi_ray_generate.comp.h"
#include "spirv/ebpi_ray_options.comp.h"
#include "spirv/ebpi_ray_scan.comp.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>

namespace vkc {
namespace {

struct Placed {
    MeshData mesh;
    glm::mat4 transform{1.0f};
};

struct ViewCase {
    std::vector<uint32_t> objects;
    glm::dvec3 direction;
    uint32_t width, height;
    double relativeTolerance;  // of the view's objects' summed volume; a pair's views take its first view's
    uint32_t pair = UINT32_MAX;  // consecutive views with one pair share a budget; default: view / 3
};

// What the CPU reference expects of one view, and the view's GPU inputs.
struct ExpectedView {
    gpu::EbpiViewGpu view;
    gpu::EbpiRayViewGpu plan;
    EbpiRayPlan cpu;
    double tolerance;
};

struct GpuPlan {
    std::vector<gpu::EbpiRayGpu> rays;
    std::vector<gpu::EbpiRaySampleGpu> samples;
    std::vector<gpu::EbpiVolumeRayGpu> volumeRays;
    std::vector<gpu::EbpiRayViewResultGpu> results;
    gpu::EbpiRayCountersGpu counters{};
};

constexpr uint32_t kMaxSplit = 16;
constexpr uint32_t kSentinel = 0xA5A5A5A5u;
constexpr uint32_t kSpare = 8;  // rays beyond maxRays in the buffer, which must stay untouched

MeshData toMeshData(const EbpiRayMesh& mesh, const char* name) {
    MeshData out;
    out.name = name;
    for (const glm::dvec3& p : mesh.positions) out.positions.emplace_back(glm::vec3(p));
    out.indices = mesh.indices;
    return out;
}

class EbpiGpuRays : public test::VulkanTest {
protected:
    void SetUp() override {
        test::VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        capacity_ = vertexBufferCapacity(vk(), 16);
        const PipelineLayoutDesc imageLayout = withVertexBufferCapacity(kEbpiImagePipelineLayout, capacity_);
        const SpecConstant imageSpec[] = {{0, gpu::kEbpiImageGroupSize}};
        const SpecConstant raySpec[] = {{0, gpu::kEbpiRayGroupSize}};
        struct Make {
            Pipeline* out;
            std::span<const uint32_t> spirv;
            const PipelineLayoutDesc* layout;
            std::span<const SpecConstant> spec;
            const char* name;
        };
        const Make makes[] = {
            {&extent_, kSpirv_ebpi_depth_extent_comp, &imageLayout, imageSpec, "ebpi-depth-extent"},
            {&terms_, kSpirv_ebpi_edge_terms_comp, &imageLayout, imageSpec, "ebpi-edge-terms"},
            {&pyramid_, kSpirv_ebpi_pyramid_comp, &kEbpiRayPipelineLayout, raySpec, "ebpi-pyramid"},
            {&options_, kSpirv_ebpi_ray_options_comp, &kEbpiRayPipelineLayout, raySpec, "ebpi-ray-options"},
            {&allocate_, kSpirv_ebpi_ray_allocate_comp, &kEbpiRayPipelineLayout, {}, "ebpi-ray-allocate"},
            {&scan_, kSpirv_ebpi_ray_scan_comp, &kEbpiRayPipelineLayout, {}, "ebpi-ray-scan"},
            {&generate_, kSpirv_ebpi_ray_generate_comp, &kEbpiRayPipelineLayout, raySpec, "ebpi-ray-generate"}};
        for (const Make& m : makes) {
            auto pipeline = createComputePipeline(vk(), m.spirv, *m.layout, m.spec, m.name);
            ASSERT_TRUE(pipeline) << m.name << ": " << pipeline.status().describe();
            *m.out = pipeline.value();
            made_.push_back(m.out);
        }
        const uint32_t buffers = gpu::kEbpiImageBindingCrossingPairs + 1 + capacity_ + gpu::kEbpiRayBindingCosts + 1;
        ASSERT_TRUE(descriptors_.create(vk(), 2, buffers, "ebpi rays test descriptors").ok());
        auto imageSet = descriptors_.allocate(extent_.setLayouts[0], "ebpi image set", capacity_);
        auto raySet = descriptors_.allocate(pyramid_.setLayouts[0], "ebpi ray set");
        ASSERT_TRUE(imageSet && raySet);
        imageSet_ = imageSet.value();
        raySet_ = raySet.value();
    }

    void TearDown() override {
        descriptors_.destroy();
        for (Pipeline* p : made_) destroyPipeline(vk(), *p);
        test::VulkanTest::TearDown();
    }

    Result<Buffer> deviceBuffer(VkDeviceSize bytes, const char* name, const void* data = nullptr,
                                VkBufferUsageFlags extra = 0) {
        auto buffer = createBuffer(vk(), BufferDesc{std::max<VkDeviceSize>(bytes, 16),
                                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | extra, MemoryUsage{}, name});
        if (buffer && data && bytes) VKC_TRY(uploadBuffer(vk(), buffer.value(), data, bytes));
        return buffer;
    }

    // The CPU side of every view: ray-frame meshes, window, fixed-point image; then each pair's plans.
    std::vector<ExpectedView> expect(const std::vector<Placed>& objects, const std::vector<ViewCase>& cases) {
        std::vector<ExpectedView> out;
        std::vector<EbpiFixedImage> images;
        uint32_t firstPixel = 0, firstTile = 0;
        for (uint32_t v = 0; v < cases.size(); ++v) {
            const ViewCase& c = cases[v];
            const EbpiRotation rotation = ebpiRotationTo(c.direction);
            EbpiRayMesh all;
            std::vector<EbpiEdgeTerm> terms;
            double volume = 0;
            for (uint32_t object : c.objects) {
                const EbpiRayMesh mesh =
                    toEbpiRayFrame(objects[object].mesh, objects[object].transform, rotation);
                const std::vector<EbpiEdgeTerm> t = ebpiEdgeTerms(mesh, EbpiSteepWallDepth::MeshDepthExtent);
                terms.insert(terms.end(), t.begin(), t.end());
                volume += ebpi_test::meshVolume(mesh);
                ebpi_test::append(all, mesh);
            }
            EbpiWindow window = ebpi_test::windowAround(all, c.width);
            window.height = c.height;
            window.pixelSize.y *= double(c.width) / c.height;
            double zMin = 1e300, zMax = -1e300;
            for (const glm::dvec3& p : all.positions) {
                zMin = std::min(zMin, p.z);
                zMax = std::max(zMax, p.z);
            }
            ExpectedView e;
            e.view = ebpiViewGpu(rotation, window, firstPixel);
            const uint32_t pair = c.pair == UINT32_MAX ? v / 3 : c.pair;
            const bool firstOfPair = v == 0 || out.back().plan.pair != pair;
            e.tolerance = firstOfPair ? c.relativeTolerance * volume : out.back().tolerance;
            const uint32_t levels = ebpiPyramidLevels(c.width, c.height);
            e.plan = {e.tolerance, 0.0, zMin - 0.1, zMax + 0.1, firstTile, levels, c.objects[0],
                      c.objects.size() > 1 ? c.objects[1] : gpu::kEbpiNoObject, pair, v % 3};
            images.push_back(buildEbpiFixedImage(terms, window));
            images.back().depth = gpu::ebpiViewDepth(e.plan);  // the cap the GPU applies
            firstPixel += c.width * c.height;
            firstTile += ebpiPyramidTiles(c.width, c.height);
            out.push_back(e);
        }
        EbpiRayPlanSettings settings;
        settings.maxSplit = kMaxSplit;
        for (size_t first = 0, end = 0; first < out.size(); first = end) {
            std::vector<const EbpiFixedImage*> pairImages;
            for (end = first; end < out.size() && out[end].plan.pair == out[first].plan.pair; ++end)
                pairImages.push_back(&images[end]);
            const std::vector<EbpiRayPlan> plans = planEbpiPairRays(pairImages, out[first].tolerance, settings);
            for (size_t v = first; v < end; ++v) out[v].cpu = plans[v - first];
        }
        return out;
    }

    // Builds every view's EBPI and ray list on the GPU, `runs` times; each run must give the same bytes.
    std::optional<GpuPlan> runGpu(const std::vector<Placed>& objects, const std::vector<ExpectedView>& expected,
                                  uint32_t maxRays, uint32_t runs = 2) {
        std::vector<gpu::ObjectGpu> objectTable;
        std::vector<gpu::EbpiMeshEdgeGpu> edges;
        std::vector<uint32_t> firstEdge, edgeCount;
        std::vector<Buffer> owned;
        std::vector<VkBuffer> vertexHandles;
        for (uint32_t i = 0; i < objects.size(); ++i) {
            const MeshData& mesh = objects[i].mesh;
            const EbpiMeshEdges meshEdges = ebpiMeshEdges(mesh.indices);
            firstEdge.push_back(uint32_t(edges.size()));
            edgeCount.push_back(uint32_t(meshEdges.edges.size()));
            const auto gpuEdges = ebpiMeshEdgesGpu(meshEdges, mesh.indices);
            edges.insert(edges.end(), gpuEdges.begin(), gpuEdges.end());
            auto vertices =
                deviceBuffer(mesh.positions.size() * sizeof(glm::vec3), "ebpi test vertices", mesh.positions.data());
            EXPECT_TRUE(vertices) << vertices.status().describe();
            if (!vertices) return std::nullopt;
            owned.push_back(vertices.value());
            vertexHandles.push_back(vertices.value().buffer);
            objectTable.push_back({objects[i].transform, {i, 3, 0, uint32_t(mesh.positions.size())}});
        }
        std::vector<gpu::EbpiViewGpu> views;
        std::vector<gpu::EbpiRayViewGpu> rayViews;
        std::vector<gpu::EbpiImageJobGpu> jobs;
        uint32_t pixelCount = 0, mostEdges = 0, tileCount = 0, mostTiles = 0, mostLevels = 0;
        for (uint32_t v = 0; v < expected.size(); ++v) {
            views.push_back(expected[v].view);
            rayViews.push_back(expected[v].plan);
            pixelCount += expected[v].view.width * expected[v].view.height;
            const uint32_t tiles = ebpiPyramidTiles(expected[v].view.width, expected[v].view.height);
            tileCount += tiles;
            mostTiles = std::max(mostTiles, tiles);
            mostLevels = std::max(mostLevels, expected[v].plan.levels);
            for (uint32_t object : {expected[v].plan.objectA, expected[v].plan.objectB}) {
                if (object == gpu::kEbpiNoObject) continue;
                jobs.push_back({v, object, firstEdge[object], edgeCount[object]});
                mostEdges = std::max(mostEdges, edgeCount[object]);
            }
        }
        EXPECT_TRUE(ebpiRayPlanFits(tileCount, mostTiles, kMaxSplit));

        const std::vector<uint32_t> sentinel((maxRays + kSpare) * sizeof(gpu::EbpiRayGpu) / 4, kSentinel);
        auto rays = deviceBuffer((maxRays + kSpare) * sizeof(gpu::EbpiRayGpu), "ebpi test rays", sentinel.data());
        auto samples = deviceBuffer((maxRays + kSpare) * sizeof(gpu::EbpiRaySampleGpu), "ebpi test samples");
        auto volumeRays = deviceBuffer((maxRays + kSpare) * sizeof(gpu::EbpiVolumeRayGpu), "ebpi test volume rays");
        auto results = deviceBuffer(views.size() * sizeof(gpu::EbpiRayViewResultGpu), "ebpi test view results");
        auto counters = deviceBuffer(sizeof(gpu::EbpiRayCountersGpu), "ebpi test ray counters", nullptr,
                                     VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
        EXPECT_TRUE(rays && samples && volumeRays && results && counters);
        if (!rays || !samples || !volumeRays || !results || !counters) return std::nullopt;
        for (Buffer* b : {&rays.value(), &samples.value(), &volumeRays.value(), &results.value(), &counters.value()})
            owned.push_back(*b);

        Graph graph;
        auto hostBuffer = [&](const char* name, VkDeviceSize bytes) { return test::hostInput(graph, name, bytes); };
        auto transient = [&](const char* name, VkDeviceSize bytes) {
            return graph.createBuffer(name, GraphBufferDesc{std::max<VkDeviceSize>(bytes, 16)});
        };
        auto output = [&](const char* name, const Buffer& buffer) { return test::readBackOutput(graph, name, buffer); };
        EbpiImagePassInputs image;
        image.depthExtentPipeline = &extent_;
        image.edgeTermsPipeline = &terms_;
        image.set = imageSet_;
        image.viewCount = uint32_t(views.size());
        image.jobCount = uint32_t(jobs.size());
        image.mostEdgesPerJob = mostEdges;
        image.pixelCount = pixelCount;
        image.objects = hostBuffer("ebpi objects", objectTable.size() * sizeof(gpu::ObjectGpu));
        image.views = hostBuffer("ebpi views", views.size() * sizeof(gpu::EbpiViewGpu));
        image.jobs = hostBuffer("ebpi jobs", jobs.size() * sizeof(gpu::EbpiImageJobGpu));
        image.edges = hostBuffer("ebpi mesh edges", edges.size() * sizeof(gpu::EbpiMeshEdgeGpu));
        image.vertices = importVertexBuffers(graph, vertexHandles);
        image.extents = transient("ebpi depth extents", jobs.size() * sizeof(gpu::EbpiDepthExtentGpu));
        image.pixels = transient("ebpi pixels", pixelCount * sizeof(gpu::EbpiPixelGpu));
        image.status = transient("ebpi overflow flags", views.size() * 4);
        const EbpiImagePassOutputs built = addEbpiImagePasses(graph, image);

        EbpiRayPassInputs in;
        in.pyramidPipeline = &pyramid_;
        in.optionsPipeline = &options_;
        in.allocatePipeline = &allocate_;
        in.scanPipeline = &scan_;
        in.generatePipeline = &generate_;
        in.set = raySet_;
        in.viewCount = uint32_t(views.size());
        in.mostLevels = mostLevels;
        in.mostTiles = mostTiles;
        in.maxSplit = kMaxSplit;
        in.maxRays = maxRays;
        in.views = image.views;
        in.rayViews = hostBuffer("ebpi ray views", rayViews.size() * sizeof(gpu::EbpiRayViewGpu));
        in.pixels = built.pixels;
        in.imageStatus = built.status;
        in.pyramid = transient("ebpi pyramid", tileCount * sizeof(gpu::EbpiPyramidTexelGpu));
        in.tiles = transient("ebpi ray tiles", tileCount * sizeof(gpu::EbpiRayTileGpu));
        in.costs = transient("ebpi ray costs", tileCount * sizeof(gpu::EbpiRayCostGpu));
        in.options = transient("ebpi ray options", pixelCount * sizeof(gpu::EbpiRayOptionsGpu));
        in.flags = transient("ebpi ray flags", views.size() * 4);
        in.results = output("ebpi ray view results", results.value());
        in.counters = output("ebpi ray counters", counters.value());
        in.rays = output("ebpi rays", rays.value());
        in.samples = output("ebpi ray samples", samples.value());
        in.volumeRays = output("ebpi volume rays", volumeRays.value());
        addEbpiRayPasses(graph, in);

        std::optional<GpuPlan> out;
        {
            VulkanGraphAllocator allocator(vk());
            Status compiled = graph.compile(&allocator);
            EXPECT_TRUE(compiled.ok()) << compiled.describe();
            bool filled =
                compiled.ok() &&
                fillHostBuffer(allocator, graph, image.objects, std::span<const gpu::ObjectGpu>(objectTable)).ok() &&
                fillHostBuffer(allocator, graph, image.views, std::span<const gpu::EbpiViewGpu>(views)).ok() &&
                fillHostBuffer(allocator, graph, image.jobs, std::span<const gpu::EbpiImageJobGpu>(jobs)).ok() &&
                fillHostBuffer(allocator, graph, image.edges, std::span<const gpu::EbpiMeshEdgeGpu>(edges)).ok() &&
                fillHostBuffer(allocator, graph, in.rayViews, std::span<const gpu::EbpiRayViewGpu>(rayViews)).ok();
            EXPECT_TRUE(filled);
            if (filled) {
                GraphDescriptors descriptors(vk(), graph, descriptors_.placeholder());
                for (const auto& [binding, handle] : ebpiImageBufferBindings(image))
                    descriptors.storageBuffer(imageSet_, binding, handle);
                writeStorageBufferArray(vk(), imageSet_, gpu::kBindingVertexBuffers, vertexHandles);
                for (const auto& [binding, handle] : ebpiRayBufferBindings(in))
                    descriptors.storageBuffer(raySet_, binding, handle);
                for (uint32_t run = 0; run < runs; ++run) {
                    const Status executed = test::runGraphOnce(vk(), graph, "ebpi rays test");
                    EXPECT_TRUE(executed.ok()) << executed.describe();
                    GpuPlan plan;
                    plan.rays.resize(maxRays + kSpare);
                    plan.samples.resize(maxRays + kSpare);
                    plan.volumeRays.resize(maxRays + kSpare);
                    plan.results.resize(views.size());
                    EXPECT_TRUE(readBuffer(vk(), rays.value(), plan.rays.data(),
                                           plan.rays.size() * sizeof(gpu::EbpiRayGpu))
                                    .ok());
                    EXPECT_TRUE(readBuffer(vk(), samples.value(), plan.samples.data(),
                                           plan.samples.size() * sizeof(gpu::EbpiRaySampleGpu))
                                    .ok());
                    EXPECT_TRUE(readBuffer(vk(), volumeRays.value(), plan.volumeRays.data(),
                                           plan.volumeRays.size() * sizeof(gpu::EbpiVolumeRayGpu))
                                    .ok());
                    EXPECT_TRUE(readBuffer(vk(), results.value(), plan.results.data(),
                                           plan.results.size() * sizeof(gpu::EbpiRayViewResultGpu))
                                    .ok());
                    EXPECT_TRUE(readBuffer(vk(), counters.value(), &plan.counters, sizeof(plan.counters)).ok());
                    if (out) {
                        const uint32_t written = std::min(plan.counters.writtenRays, maxRays);
                        EXPECT_EQ(std::memcmp(out->rays.data(), plan.rays.data(), written * sizeof(gpu::EbpiRayGpu)), 0)
                            << "run " << run << " differs from the run before";
                        EXPECT_EQ(std::memcmp(out->samples.data(), plan.samples.data(),
                                              written * sizeof(gpu::EbpiRaySampleGpu)),
                                  0);
                    }
                    out = std::move(plan);
                }
            }
        }
        for (Buffer& b : owned) destroyBuffer(vk(), b);
        return out;
    }

    // Runs the views on the GPU and checks them against the CPU reference; returns the total rays.
    uint64_t check(const std::vector<Placed>& objects, const std::vector<ViewCase>& cases, uint32_t maxRays = 0) {
        const std::vector<ExpectedView> expected = expect(objects, cases);
        uint64_t total = 0;
        for (const ExpectedView& e : expected) total += e.cpu.rays.size();
        if (maxRays == 0) maxRays = uint32_t(total);
        std::optional<GpuPlan> gpu = runGpu(objects, expected, maxRays);
        if (!gpu) {
            ADD_FAILURE() << "no GPU plan";
            return 0;
        }
        // Admission: pairs (runs of views with one `pair`) in order, each cast when its rays fit
        // in what maxRays leaves.
        std::vector<uint32_t> firstRays(expected.size(), gpu::kEbpiRayNotCast);
        uint64_t written = 0;
        for (size_t first = 0, end = 0; first < expected.size(); first = end) {
            uint64_t rays = 0;
            for (end = first; end < expected.size() && expected[end].plan.pair == expected[first].plan.pair; ++end)
                rays += expected[end].cpu.rays.size();
            if (written + rays > maxRays) continue;
            for (size_t v = first; v < end; ++v) {
                firstRays[v] = uint32_t(written);
                written += expected[v].cpu.rays.size();
            }
        }
        EXPECT_EQ(gpu->counters.totalRays, total) << "exact total, even past maxRays";
        EXPECT_EQ(gpu->counters.writtenRays, written);
        EXPECT_EQ(gpu->counters.truncated, written < total ? 1u : 0u);
        EXPECT_EQ(gpu->counters.groupsX, (written + gpu::kEbpiRayGroupSize - 1) / gpu::kEbpiRayGroupSize);
        EXPECT_EQ(gpu->counters.groupsY, 1u);
        EXPECT_EQ(gpu->counters.groupsZ, 1u);

        size_t differ = 0;
        for (uint32_t v = 0; v < expected.size(); ++v) {
            const ExpectedView& e = expected[v];
            SCOPED_TRACE("view " + std::to_string(v));
            const gpu::EbpiRayViewResultGpu& r = gpu->results[v];
            const uint32_t firstRay = firstRays[v];
            EXPECT_EQ(r.firstRay, firstRay);
            EXPECT_EQ(r.rays, e.cpu.rays.size());
            EXPECT_EQ(r.boundQuanta, e.cpu.boundQuanta);
            EXPECT_EQ(r.flags, (e.cpu.boundNotMet ? gpu::kEbpiRayFlagBoundNotMet : 0u) |
                                   (e.cpu.imageOverflow ? gpu::kEbpiRayFlagImageOverflow : 0u));
            const double achieved = ebpiAchievedBound(r.boundQuanta, e.tolerance);
            std::printf("view %u: %6u rays (first %6u), achieved bound %.4g of tolerance %.4g%s\n", v, r.rays,
                        r.firstRay, achieved, e.tolerance, r.flags ? " (flagged)" : "");
            for (uint32_t k = 0; firstRay != gpu::kEbpiRayNotCast && k < e.cpu.rays.size(); ++k) {
                const uint32_t index = firstRay + k;
                const EbpiPlannedRay& planned = e.cpu.rays[k];
                const gpu::EbpiRayGpu ray = gpu::ebpiPlacedRay(e.view, e.plan, planned.centre.x, planned.centre.y);
                const uint32_t tile = planned.tile;
                const gpu::EbpiRaySampleGpu sample{planned.centre.x, planned.centre.y, planned.area, v, tile};
                // The volume stage's weight and (pair, axis): the view's (ebpi_volume.h).
                const gpu::EbpiVolumeRayGpu& volumeRay = gpu->volumeRays[index];
                const bool volumeRayDiffers = volumeRay.area != planned.area || volumeRay.pair != e.plan.pair ||
                                              volumeRay.axis != e.plan.axis;
                if ((std::memcmp(&ray, &gpu->rays[index], sizeof(ray)) != 0 ||
                     std::memcmp(&sample, &gpu->samples[index], sizeof(sample)) != 0 || volumeRayDiffers) &&
                    differ++ < 3)
                    ADD_FAILURE() << "ray " << index << " (view ray " << k << ", tile " << tile << "): GPU sample "
                                  << gpu->samples[index].x << "," << gpu->samples[index].y << " area "
                                  << gpu->samples[index].area << " tile " << gpu->samples[index].tile << ", CPU "
                                  << sample.x << "," << sample.y << " area " << sample.area;
            }
        }
        EXPECT_EQ(differ, 0u) << "rays differing from the CPU reference";
        // A pair's views spend one budget: their bounds sum to less than views x tolerance.
        for (size_t first = 0, end = 0; first < expected.size(); first = end) {
            double achieved = 0.0;
            for (end = first; end < expected.size() && expected[end].plan.pair == expected[first].plan.pair; ++end)
                achieved += ebpiAchievedBound(gpu->results[end].boundQuanta, expected[end].tolerance);
            if (gpu->results[first].flags == 0)
                EXPECT_LT(achieved, double(end - first) * expected[first].tolerance) << "pair of view " << first;
        }
        size_t touched = 0;
        for (uint64_t k = written; k < maxRays + kSpare; ++k)
            touched += std::memcmp(&gpu->rays[k], std::vector<uint32_t>(12, kSentinel).data(), sizeof(gpu::EbpiRayGpu));
        EXPECT_EQ(touched, 0u) << "rays written past the list or the capacity";
        return total;
    }

    uint32_t capacity_ = 0;
    Pipeline extent_, terms_, pyramid_, options_, allocate_, scan_, generate_;
    std::vector<Pipeline*> made_;
    test::PassTestDescriptors descriptors_;
    VkDescriptorSet imageSet_ = VK_NULL_HANDLE, raySet_ = VK_NULL_HANDLE;
};

TEST_F(EbpiGpuRays, LayoutMatchesTheShaders) {
    for (const auto& [spirv, name] : {std::pair{std::span<const uint32_t>(kSpirv_ebpi_pyramid_comp), "ebpi_pyramid"},
                                      std::pair{std::span<const uint32_t>(kSpirv_ebpi_ray_options_comp), "options"},
                                      std::pair{std::span<const uint32_t>(kSpirv_ebpi_ray_allocate_comp), "allocate"},
                                      std::pair{std::span<const uint32_t>(kSpirv_ebpi_ray_scan_comp), "scan"},
                                      std::pair{std::span<const uint32_t>(kSpirv_ebpi_ray_generate_comp), "generate"}})
        EXPECT_TRUE(test::checkPipelineLayout(spirv, kEbpiRayPipelineLayout, name).ok()) << name;
}

std::vector<Placed> testObjects() {
    std::mt19937 rng(12);
    std::vector<Placed> objects;
    objects.push_back({toMeshData(ebpi_test::alignedBox({-1, -0.7, -0.4}, {0.8, 0.9, 1.3}), "box")});
    objects.push_back({toMeshData(ebpi_test::symmetricRidge(1.5, 1.2), "ridge")});
    objects.push_back({toMeshData(ebpi_test::wallPrism(11, rng), "prism")});
    objects.push_back({ebpi_test::perturbedRadially(solids::sphere(1.0f, 2), 0.3, rng)});
    objects.back().mesh.name = "bumpy sphere";
    objects.push_back({solids::torus(1.0f, 0.4f, 12),
                       glm::rotate(glm::translate(glm::mat4(1.0f), {0.3f, -0.2f, 0.5f}), 0.7f, glm::vec3(1, 1, 0))});
    objects.back().mesh.name = "placed torus";
    return objects;
}

TEST_F(EbpiGpuRays, RayListEqualsTheCpuReferenceForMeshesDirectionsAndTolerances) {
    const std::vector<Placed> objects = testObjects();
    std::vector<ViewCase> cases;
    const glm::dvec3 directions[] = {{0, 0, 1}, {1, 2, 3}, {-0.3, 0.5, 0.8}};
    const double tolerances[] = {0.2, 0.02, 0.004};
    uint32_t k = 0;
    for (uint32_t object = 0; object < objects.size(); ++object)
        for (const glm::dvec3& direction : directions) {
            const uint32_t size = 8u + 9u * (k % 3);  // 8, 17, 26 pixels: pyramids cut at the edge
            cases.push_back({{object}, direction, size, size + 3u * (k % 2), tolerances[(k / 3 + object) % 3]});
            ++k;
        }
    cases.push_back({{0, 4}, {0, 0, 1}, 20, 13, 0.01});  // two objects in one view (a pair's)
    cases.push_back({{2}, {1, 0, 0}, 1, 1, 0.5});        // a one-pixel window: one level
    EXPECT_GT(check(objects, cases), 1000u);
}

TEST_F(EbpiGpuRays, SharedMeshRayListEqualsTheCpuReference) {
    const std::string dir = test::sharedDir();
    auto mesh = dir.empty() ? Result<MeshData>(makeError(ErrorCode::NotFound, "VKC_SHARED_DIR is not set"))
                            : io::loadMesh(std::filesystem::path(dir) / "meshes" / "knot.off");
    if (!mesh) {
        if (test::deviceRequired()) FAIL() << "shared mesh: " << mesh.status().describe();
        GTEST_SKIP() << "shared mesh: " << mesh.status().describe();
    }
    const std::vector<Placed> objects{{mesh.value(), glm::rotate(glm::mat4(1.0f), 0.4f, glm::vec3(0.2f, 1, 0))}};
    EXPECT_GT(check(objects, {{{0}, {0, 0, 1}, 48, 40, 0.05}, {{0}, {1, 2, 3}, 64, 64, 0.01}}), 1000u);
}

TEST_F(EbpiGpuRays, AMissedToleranceIsFlaggedOnBothSides) {
    const std::vector<Placed> objects = testObjects();
    // Tiny tolerance at kMaxSplit: the first pair cannot meet it; the second, its own pair, can.
    const std::vector<ViewCase> cases = {{{0}, {0, 0, 1}, 6, 6, 1e-4, 0}, {{4}, {1, 2, 3}, 16, 15, 0.3, 1}};
    const std::vector<ExpectedView> expected = expect(objects, cases);
    ASSERT_TRUE(expected[0].cpu.boundNotMet);
    ASSERT_FALSE(expected[1].cpu.boundNotMet);
    check(objects, cases);
}

TEST_F(EbpiGpuRays, PastMaxRaysTheCountIsExactAndNothingIsWrittenBeyond) {
    const std::vector<Placed> objects = testObjects();
    const std::vector<ViewCase> cases = {{{3}, {1, 2, 3}, 16, 16, 0.01}, {{1}, {0, 0, 1}, 12, 12, 0.01}};
    const uint64_t total = check(objects, cases);
    ASSERT_GT(total, 100u);
    check(objects, cases, uint32_t(total / 2) + 3);
    check(objects, cases, 1);
}

TEST_F(EbpiGpuRays, APairPastMaxRaysIsSkippedWholeAndTheNextPairIsStillCast) {
    const std::vector<Placed> objects = testObjects();
    std::vector<ViewCase> cases;
    for (const glm::dvec3& direction : {glm::dvec3(1, 2, 3), glm::dvec3(0, 0, 1), glm::dvec3(-0.3, 0.5, 0.8)})
        cases.push_back({{3}, direction, 16, 16, 0.004});  // pair 0: many rays
    for (const glm::dvec3& direction : {glm::dvec3(1, 2, 3), glm::dvec3(0, 0, 1), glm::dvec3(-0.3, 0.5, 0.8)})
        cases.push_back({{0}, direction, 8, 8, 0.2});  // pair 1: few
    const std::vector<ExpectedView> expected = expect(objects, cases);
    uint64_t first = 0, second = 0;
    for (size_t v = 0; v < 3; ++v) {
        first += expected[v].cpu.rays.size();
        second += expected[v + 3].cpu.rays.size();
    }
    ASSERT_GT(first, second);
    // Pair 0 misses by one ray; pair 1 then fits at the start of the list.
    check(objects, cases, uint32_t(first - 1));
}

}  // namespace
}  // namespace vkc
