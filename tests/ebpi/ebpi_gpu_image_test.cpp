// Tier B: the EBPI built on the GPU (passes/ebpi/ebpi_image_passes.h: ebpi-depth-extent,
// ebpi-edge-terms) on a device under the validation layer, against the CPU reference of
// collision/ebpi/, view by view:
//   - the GPU fixed-point image equals buildEbpiFixedImage of the CPU's terms
//     (ebpiEdgeTerms(..., MeshDepthExtent)) bit for bit, and two
//     runs give the same bytes (integer atomics: no dependence on the order of the additions);
//   - every channel of every pixel is >= the CPU double image built with the tightest steep-wall
//     rule (ConnectedWall): the GPU image is conservative;
//   - every pixel a CPU term's closed segment touches (corners included) is touched on the GPU,
//     and the GPU's per-pixel edge counts equal the CPU's conservative rasterization;
//   - an unusable (overflowing) image is flagged on both sides, not wrapped;
//   - with a view's region box (EbpiEdgeRegion), the same on both sides: edges that miss it drop out.
// Meshes: tests/ebpi/ebpi_test_meshes.h (steep walls, ridges, short edges), perturbed solids, a
// placed object (ObjectGpu transform), two objects sharing a view, windows that clip the mesh,
// and shared meshes (VKC_SHARED_DIR); directions along the axes and oblique; several window sizes.
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_image.h"
#include "collision/ebpi/ebpi_segment_pixels.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/scene/generated_solids.h"
#include "passes/ebpi/ebpi_image_passes.h"
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

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

namespace vkc {
namespace {

struct Placed {
    MeshData mesh;
    glm::mat4 transform{1.0f};
};

// One view: its objects' edges all go into one image of width x height pixels. `coverage` < 1
// shrinks the window about the projection's centre, so that segments are clipped at its border.
struct ViewCase {
    std::vector<uint32_t> objects;
    glm::dvec3 direction;
    uint32_t width, height;
    double coverage = 1.0;
    // EbpiEdgeRegion's box (unrotated coordinates); the default holds everything.
    glm::dvec3 regionLo{-INFINITY}, regionHi{INFINITY};

    EbpiEdgeRegion region() const { return {ebpiRotationTo(direction), regionLo, regionHi}; }
};

// What the GPU produced for all views.
struct GpuImages {
    std::vector<EbpiFixedPixel> pixels;
    std::vector<uint32_t> overflow;  // per view
};

// A ray-frame mesh as a float mesh (the test meshes are exact in float: small dyadic-free values
// are rounded once, and both sides start from the rounded positions).
MeshData toMeshData(const EbpiRayMesh& mesh, const char* name) {
    MeshData out;
    out.name = name;
    for (const glm::dvec3& p : mesh.positions) out.positions.emplace_back(glm::vec3(p));
    out.indices = mesh.indices;
    return out;
}

// A window over the projection of `meshes`, with an odd margin (no pixel corner on a vertex by
// construction), shrunk about its centre by `coverage`.
EbpiWindow windowOver(const std::vector<EbpiRayMesh>& meshes, uint32_t width, uint32_t height, double coverage) {
    glm::dvec2 lo(std::numeric_limits<double>::max()), hi(-std::numeric_limits<double>::max());
    for (const EbpiRayMesh& mesh : meshes)
        for (const glm::dvec3& p : mesh.positions) {
            lo = glm::min(lo, glm::dvec2(p));
            hi = glm::max(hi, glm::dvec2(p));
        }
    const glm::dvec2 margin = (hi - lo) * 0.0371 + 1e-3;
    const glm::dvec2 centre = (lo + hi) * 0.5;
    const glm::dvec2 size = (hi - lo + 2.0 * margin) * coverage;
    return {centre - size * 0.5, size / glm::dvec2(width, height), width, height};
}

// The 15 channels of a pixel in the fixed-point order.
std::array<double, kEbpiChannels> channels(const EbpiPixel& pixel) {
    std::array<double, kEbpiChannels> out{};
    const EbpiBoundPolynomial* parts[3] = {&pixel.touching, &pixel.alongX, &pixel.alongY};
    for (int k = 0; k < 3; ++k) {
        const double c[5] = {parts[k]->w2h, parts[k]->wh2, parts[k]->h3, parts[k]->w3, parts[k]->wh};
        std::copy(c, c + 5, out.begin() + 5 * k);
    }
    return out;
}

class EbpiGpuImage : public test::VulkanTest {
protected:
    void SetUp() override {
        test::VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        capacity_ = vertexBufferCapacity(vk(), 16);
        const PipelineLayoutDesc layout = withVertexBufferCapacity(kEbpiImagePipelineLayout, capacity_);
        const SpecConstant spec[] = {{0, gpu::kEbpiImageGroupSize}};
        auto extent = createComputePipeline(vk(), kSpirv_ebpi_depth_extent_comp, layout, spec, "ebpi-depth-extent");
        auto terms = createComputePipeline(vk(), kSpirv_ebpi_edge_terms_comp, layout, spec, "ebpi-edge-terms");
        ASSERT_TRUE(extent && terms);
        extentPipeline_ = extent.value();
        termsPipeline_ = terms.value();
        ASSERT_TRUE(descriptors_.create(vk(), 1, gpu::kEbpiImageBindingCrossingPairs + 1 + capacity_,
                                        "ebpi image test descriptors")
                        .ok());
        auto set = descriptors_.allocate(extentPipeline_.setLayouts[0], "ebpi image set", capacity_);
        ASSERT_TRUE(set) << set.status().describe();
        set_ = set.value();
    }

    void TearDown() override {
        descriptors_.destroy();
        for (Pipeline* p : {&extentPipeline_, &termsPipeline_})
            if (p->pipeline != VK_NULL_HANDLE) destroyPipeline(vk(), *p);
        test::VulkanTest::TearDown();
    }

    Result<Buffer> deviceBuffer(VkDeviceSize bytes, const char* name, const void* data = nullptr) {
        auto buffer = createBuffer(vk(), BufferDesc{std::max<VkDeviceSize>(bytes, 16),
                                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage{}, name});
        if (buffer && data && bytes) VKC_TRY(uploadBuffer(vk(), buffer.value(), data, bytes));
        return buffer;
    }

    // Builds every view's EBPI on the GPU, `runs` times (the last run's images are returned; each
    // run must give the same bytes).
    std::optional<GpuImages> runGpu(const std::vector<Placed>& objects, const std::vector<ViewCase>& cases,
                                    const std::vector<EbpiWindow>& windows, uint32_t runs = 2) {
        std::vector<gpu::ObjectGpu> objectTable;
        std::vector<gpu::EbpiMeshEdgeGpu> edges;
        std::vector<uint32_t> firstEdge, edgeCount;
        std::vector<Buffer> vertexBuffers;
        for (uint32_t i = 0; i < objects.size(); ++i) {
            const MeshData& mesh = objects[i].mesh;
            const EbpiMeshEdges meshEdges = ebpiMeshEdges(mesh.indices);
            EXPECT_TRUE(meshEdges.closedManifold) << mesh.name;
            firstEdge.push_back(uint32_t(edges.size()));
            edgeCount.push_back(uint32_t(meshEdges.edges.size()));
            const auto gpuEdges = ebpiMeshEdgesGpu(meshEdges, mesh.indices);
            edges.insert(edges.end(), gpuEdges.begin(), gpuEdges.end());
            auto vertices =
                deviceBuffer(mesh.positions.size() * sizeof(glm::vec3), "ebpi test vertices", mesh.positions.data());
            EXPECT_TRUE(vertices) << vertices.status().describe();
            if (!vertices) return std::nullopt;
            vertexBuffers.push_back(vertices.value());
            objectTable.push_back({objects[i].transform, {i, 3, 0, uint32_t(mesh.positions.size())}});
        }
        std::vector<gpu::EbpiViewGpu> views;
        std::vector<gpu::EbpiImageJobGpu> jobs;
        uint32_t pixelCount = 0, mostEdges = 0;
        for (uint32_t v = 0; v < cases.size(); ++v) {
            views.push_back(ebpiViewGpu(ebpiRotationTo(cases[v].direction), windows[v], pixelCount, cases[v].region()));
            pixelCount += windows[v].width * windows[v].height;
            for (uint32_t object : cases[v].objects) {
                jobs.push_back({v, object, firstEdge[object], edgeCount[object]});
                mostEdges = std::max(mostEdges, edgeCount[object]);
            }
        }

        auto pixels = deviceBuffer(pixelCount * sizeof(gpu::EbpiPixelGpu), "ebpi test pixels");
        auto status = deviceBuffer(views.size() * sizeof(uint32_t), "ebpi test overflow flags");
        EXPECT_TRUE(pixels && status);
        if (!pixels || !status) return std::nullopt;

        Graph graph;
        auto hostBuffer = [&](const char* name, VkDeviceSize bytes) { return test::hostInput(graph, name, bytes); };
        auto output = [&](const char* name, const Buffer& buffer) { return test::readBackOutput(graph, name, buffer); };
        std::vector<VkBuffer> vertexHandles;
        for (const Buffer& b : vertexBuffers) vertexHandles.push_back(b.buffer);
        EbpiImagePassInputs in;
        in.depthExtentPipeline = &extentPipeline_;
        in.edgeTermsPipeline = &termsPipeline_;
        in.set = set_;
        in.viewCount = uint32_t(views.size());
        in.jobCount = uint32_t(jobs.size());
        in.mostEdgesPerJob = mostEdges;
        in.pixelCount = pixelCount;
        in.objects = hostBuffer("ebpi objects", objectTable.size() * sizeof(gpu::ObjectGpu));
        in.views = hostBuffer("ebpi views", views.size() * sizeof(gpu::EbpiViewGpu));
        in.jobs = hostBuffer("ebpi jobs", jobs.size() * sizeof(gpu::EbpiImageJobGpu));
        in.edges = hostBuffer("ebpi mesh edges", edges.size() * sizeof(gpu::EbpiMeshEdgeGpu));
        in.vertices = importVertexBuffers(graph, vertexHandles);
        in.extents =
            graph.createBuffer("ebpi depth extents", GraphBufferDesc{jobs.size() * sizeof(gpu::EbpiDepthExtentGpu)});
        in.pixels = output("ebpi pixels", pixels.value());
        in.status = output("ebpi overflow flags", status.value());
        addEbpiImagePasses(graph, in);

        std::optional<GpuImages> out;
        {
            VulkanGraphAllocator allocator(vk());
            Status compiled = graph.compile(&allocator);
            EXPECT_TRUE(compiled.ok()) << compiled.describe();
            bool filled =
                compiled.ok() &&
                fillHostBuffer(allocator, graph, in.objects, std::span<const gpu::ObjectGpu>(objectTable)).ok() &&
                fillHostBuffer(allocator, graph, in.views, std::span<const gpu::EbpiViewGpu>(views)).ok() &&
                fillHostBuffer(allocator, graph, in.jobs, std::span<const gpu::EbpiImageJobGpu>(jobs)).ok() &&
                fillHostBuffer(allocator, graph, in.edges, std::span<const gpu::EbpiMeshEdgeGpu>(edges)).ok();
            EXPECT_TRUE(filled);
            if (filled) {
                GraphDescriptors descriptors(vk(), graph, descriptors_.placeholder());
                for (const auto& [binding, handle] : ebpiImageBufferBindings(in))
                    descriptors.storageBuffer(set_, binding, handle);
                writeStorageBufferArray(vk(), set_, gpu::kBindingVertexBuffers, vertexHandles);
                std::vector<EbpiFixedPixel> previous;
                for (uint32_t run = 0; run < runs; ++run) {
                    const Status executed = test::runGraphOnce(vk(), graph, "ebpi image test");
                    EXPECT_TRUE(executed.ok()) << executed.describe();
                    GpuImages images;
                    images.pixels.resize(pixelCount);
                    images.overflow.resize(views.size());
                    EXPECT_TRUE(
                        readBuffer(vk(), pixels.value(), images.pixels.data(), pixelCount * sizeof(EbpiFixedPixel))
                            .ok());
                    EXPECT_TRUE(readBuffer(vk(), status.value(), images.overflow.data(), views.size() * 4).ok());
                    if (run > 0)
                        EXPECT_EQ(
                            std::memcmp(previous.data(), images.pixels.data(), pixelCount * sizeof(EbpiFixedPixel)), 0)
                            << "run " << run << " differs from the run before";
                    previous = images.pixels;
                    out = std::move(images);
                }
            }
        }
        for (Buffer& b : vertexBuffers) destroyBuffer(vk(), b);
        destroyBuffer(vk(), pixels.value());
        destroyBuffer(vk(), status.value());
        return out;
    }

    // Runs `cases` on the GPU and checks every view against the CPU reference. Counts the steep-wall
    // terms (those with a depth coefficient) compared, so a test can make sure walls were exercised.
    void check(const std::vector<Placed>& objects, const std::vector<ViewCase>& cases, bool expectOverflow = false) {
        std::vector<EbpiWindow> windows;
        std::vector<std::vector<EbpiRayMesh>> rayMeshes;
        for (const ViewCase& c : cases) {
            const EbpiRotation rotation = ebpiRotationTo(c.direction);
            rayMeshes.emplace_back();
            for (uint32_t object : c.objects)
                rayMeshes.back().push_back(toEbpiRayFrame(objects[object].mesh, objects[object].transform, rotation));
            windows.push_back(windowOver(rayMeshes.back(), c.width, c.height, c.coverage));
        }
        std::optional<GpuImages> gpu = runGpu(objects, cases, windows);
        ASSERT_TRUE(gpu);

        uint32_t firstPixel = 0;
        for (uint32_t v = 0; v < cases.size(); ++v) {
            const ViewCase& c = cases[v];
            const EbpiWindow& window = windows[v];
            std::string where = "view " + std::to_string(v) + " (";
            for (uint32_t object : c.objects) where += objects[object].mesh.name + " ";
            where += "along " + std::to_string(c.direction.x) + "," + std::to_string(c.direction.y) + "," +
                     std::to_string(c.direction.z) + ", " + std::to_string(window.width) + "x" +
                     std::to_string(window.height) + ")";
            SCOPED_TRACE(where);

            // The CPU's terms, object by object: the GPU's image must be theirs.
            std::vector<EbpiEdgeTerm> extentTerms, wallTerms;
            for (size_t j = 0; j < c.objects.size(); ++j) {
                const std::vector<EbpiEdgeTerm> cpu =
                    ebpiEdgeTerms(rayMeshes[v][j], EbpiSteepWallDepth::MeshDepthExtent, c.region());
                extentTerms.insert(extentTerms.end(), cpu.begin(), cpu.end());
                for (const EbpiEdgeTerm& t : cpu) steepWallTerms_ += t.bound.wh > 0;
                const std::vector<EbpiEdgeTerm> tight =
                    ebpiEdgeTerms(rayMeshes[v][j], EbpiSteepWallDepth::ConnectedWall, c.region());
                wallTerms.insert(wallTerms.end(), tight.begin(), tight.end());
            }

            const EbpiFixedImage fixed = buildEbpiFixedImage(extentTerms, window);
            EXPECT_EQ(gpu->overflow[v] != 0, fixed.overflow) << "overflow flags differ";
            EXPECT_EQ(fixed.overflow, expectOverflow);
            const EbpiFixedPixel* gpuPixels = gpu->pixels.data() + firstPixel;
            firstPixel += window.width * window.height;
            if (expectOverflow) continue;

            // (a) bit for bit.
            size_t differ = 0, touched = 0;
            for (size_t p = 0; p < fixed.pixels.size(); ++p) {
                touched += gpuPixels[p].edges != 0;
                if (std::memcmp(&gpuPixels[p], &fixed.pixels[p], sizeof(EbpiFixedPixel)) != 0 && differ++ < 3)
                    ADD_FAILURE() << "pixel " << p % window.width << "," << p / window.width << ": GPU edges "
                                  << gpuPixels[p].edges << " CPU " << fixed.pixels[p].edges << ", touching w2h "
                                  << gpuPixels[p].channels[0] << " vs " << fixed.pixels[p].channels[0];
            }
            EXPECT_EQ(differ, 0u) << "pixels differing from the CPU fixed-point image";

            // (b) conservative: >= the CPU double image with the tightest wall rule, every channel; and
            // above the double image of the same terms by no more than one quantum per edge (plus the
            // double sums' rounding): the fixed point loses nothing that matters.
            const EbpiImage exact = buildEbpiImage(wallTerms, window);
            const EbpiImage same = buildEbpiImage(extentTerms, window);
            size_t below = 0, above = 0;
            double quantaAbove = 0;  // largest (GPU - same-rule double) in quanta per touching edge
            for (size_t p = 0; p < exact.pixels.size(); ++p) {
                const EbpiPixel decoded = ebpiFromFixed(gpuPixels[p], fixed.scales);
                const auto g = channels(decoded), e = channels(exact.pixels[p]), s = channels(same.pixels[p]);
                for (uint32_t k = 0; k < kEbpiChannels; ++k) {
                    if (g[k] < e[k] && below++ < 3)
                        ADD_FAILURE() << "pixel " << p << " channel " << k << ": GPU " << g[k] << " < CPU " << e[k];
                    const double excess = (g[k] - s[k]) * fixed.scales[k];
                    if (excess > gpuPixels[p].edges + 1e-12 * s[k] * fixed.scales[k] && above++ < 3)
                        ADD_FAILURE() << "pixel " << p << " channel " << k
                                      << ": GPU above the same terms' double sum by " << excess << " quanta, "
                                      << gpuPixels[p].edges << " edges";
                    if (gpuPixels[p].edges) quantaAbove = std::max(quantaAbove, excess / gpuPixels[p].edges);
                }
            }
            EXPECT_EQ(below, 0u) << "channels below the CPU double image";
            EXPECT_EQ(above, 0u) << "channels more than a quantum per edge above the same terms' double sums";

            // (c) every pixel a CPU term touches is touched, and the counts are the CPU's.
            std::vector<uint32_t> wallTouched(fixed.pixels.size(), 0), extentTouched(fixed.pixels.size(), 0);
            for (const EbpiEdgeTerm& t : wallTerms)
                for (const glm::uvec2& px : ebpiPixelsTouched(t.a, t.b, window))
                    ++wallTouched[size_t(px.y) * window.width + px.x];
            for (const EbpiEdgeTerm& t : extentTerms)
                for (const glm::uvec2& px : ebpiPixelsTouched(t.a, t.b, window))
                    ++extentTouched[size_t(px.y) * window.width + px.x];
            size_t missed = 0, counts = 0;
            for (size_t p = 0; p < fixed.pixels.size(); ++p) {
                missed += wallTouched[p] != 0 && gpuPixels[p].edges == 0;
                counts += extentTouched[p] != gpuPixels[p].edges;
            }
            EXPECT_EQ(missed, 0u) << "pixels a CPU edge touches that the GPU missed";
            EXPECT_EQ(counts, 0u) << "pixels whose edge count differs";
            EXPECT_GT(touched, 0u);
            if (v % 8 == 0 || c.objects.size() > 1 || window.width >= 96)
                std::printf("%-60s %6zu terms, %6zu of %6zu pixels touched, rounding <= %.2f quanta per edge\n",
                            where.c_str(), extentTerms.size(), touched, fixed.pixels.size(), quantaAbove);
        }
    }

    size_t steepWallTerms_ = 0;
    uint32_t capacity_ = 0;
    Pipeline extentPipeline_, termsPipeline_;
    test::PassTestDescriptors descriptors_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

TEST_F(EbpiGpuImage, LayoutMatchesTheShaders) {
    EXPECT_TRUE(
        test::checkPipelineLayout(kSpirv_ebpi_depth_extent_comp, kEbpiImagePipelineLayout, "ebpi_depth_extent.comp")
            .ok());
    EXPECT_TRUE(
        test::checkPipelineLayout(kSpirv_ebpi_edge_terms_comp, kEbpiImagePipelineLayout, "ebpi_edge_terms.comp").ok());
}

const glm::dvec3 kDirections[] = {{0, 0, 1}, {1, 0, 0}, {0, -1, 0}, {1, 2, 3}, {-0.3, 0.5, 0.8}};

TEST_F(EbpiGpuImage, TestMeshesEqualTheCpuImageAlongAxesAndObliqueDirections) {
    std::mt19937 rng(12);
    std::vector<Placed> objects;
    objects.push_back({toMeshData(ebpi_test::alignedBox({-1, -0.7, -0.4}, {0.8, 0.9, 1.3}), "box")});
    objects.push_back({toMeshData(ebpi_test::symmetricRidge(1.5, 1.2), "ridge")});
    objects.push_back({toMeshData(ebpi_test::wallPrism(7, rng), "prism7")});
    objects.push_back({toMeshData(ebpi_test::wallPrism(31, rng), "prism31")});
    objects.push_back({ebpi_test::perturbedRadially(solids::sphere(1.0f, 2), 0.3, rng)});
    objects.back().mesh.name = "bumpy sphere";
    objects.push_back({ebpi_test::perturbedRadially(solids::torus(1.0f, 0.4f, 12), 0.08, rng)});
    objects.back().mesh.name = "bumpy torus";
    // Placed by a transform the shader applies (ObjectGpu), as the CPU reference does.
    objects.push_back({toMeshData(ebpi_test::symmetricRidge(0.8, 0.7), "placed ridge"),
                       glm::rotate(glm::translate(glm::mat4(1.0f), {0.3f, -0.2f, 0.5f}), 0.7f, glm::vec3(1, 1, 0))});
    const uint32_t sizes[][2] = {{16, 16}, {37, 23}, {64, 64}};
    std::vector<ViewCase> cases;
    for (uint32_t object = 0; object < objects.size(); ++object)
        for (const glm::dvec3& direction : kDirections)
            for (const auto& size : sizes) cases.push_back({{object}, direction, size[0], size[1]});
    // Two objects adding into one image (a pair's view), and windows that clip the segments.
    cases.push_back({{0, 5}, {0, 0, 1}, 48, 40});
    cases.push_back({{2, 4}, {1, 2, 3}, 33, 57});
    cases.push_back({{3}, {0, 0, 1}, 29, 31, 0.55});
    cases.push_back({{4}, {-0.3, 0.5, 0.8}, 40, 40, 0.6});
    // Region boxes cutting the meshes: the edges that miss them add nothing on either side.
    cases.push_back({{4}, {1, 2, 3}, 32, 32, 1.0, {-0.2, -1.5, 0.1}, {0.6, 1.5, 0.5}});
    cases.push_back({{5, 6}, {-0.3, 0.5, 0.8}, 40, 36, 1.0, {-1.0, -0.3, -0.2}, {0.4, 0.2, 0.6}});
    cases.push_back({{0, 2}, {0, 0, 1}, 24, 24, 1.0, {-0.5, -0.5, -2.0}, {0.5, 0.5, 0.0}});
    check(objects, cases);
    EXPECT_GT(steepWallTerms_, 100u) << "the axis views of the box and prisms have steep walls";
}

Result<MeshData> sharedMesh(const char* file) {
    const std::string dir = test::sharedDir();
    if (dir.empty())
        return makeError(ErrorCode::NotFound, std::string("shared mesh ") + file + ": VKC_SHARED_DIR is not set");
    return io::loadMesh(std::filesystem::path(dir) / "meshes" / file);
}

TEST_F(EbpiGpuImage, SharedMeshesEqualTheCpuImage) {
    for (const char* file : {"knot.off", "armadillo_29k.obj"}) {
        auto mesh = sharedMesh(file);
        if (!mesh) {
            if (test::deviceRequired()) FAIL() << "shared mesh: " << mesh.status().describe();
            GTEST_SKIP() << "shared mesh: " << mesh.status().describe();
        }
        std::vector<Placed> objects{{mesh.value(), glm::rotate(glm::mat4(1.0f), 0.4f, glm::vec3(0.2f, 1, 0))}};
        objects[0].mesh.name = file;
        check(objects, {{{0}, {0, 0, 1}, 128, 96}, {{0}, {1, 2, 3}, 200, 200}, {{0}, {1, 0, 0}, 64, 80, 0.7}});
    }
}

TEST_F(EbpiGpuImage, OverflowIsFlaggedOnBothSides) {
    // A box seen 1e-12 rad off its walls: nearly steep faces with depth gradients ~1e12, whose crease
    // terms exceed 2^62 quanta. Both sides must flag the image (dropped, not wrapped).
    std::vector<Placed> objects{{toMeshData(ebpi_test::alignedBox({-1, -1, -1}, {1, 1, 1}), "box")}};
    check(objects, {{{0}, {1e-12, 0, 1}, 16, 16}}, true);
}

}  // namespace
}  // namespace vkc
