// GPU broadphase against the CPU reference: world bounds from transformed vertices, the pair list
// (exact rule on the GPU's own boxes), capacity overflow, host vertex buffers read in place,
// deformation, frames in flight without blocking, and the shaders' layouts against their SPIR-V.
#include "collision/broadphase/broadphase_reference.h"
#include "collision/scene/generated_solids.h"
#include "passes/broadphase/broadphase_passes.h"
#include "passes/shared/prefix_scan_passes.h"
#include "tests/support/detector_contract.h"
#include "tests/support/host_vertex_buffer.h"
#include "tests/support/lowered_storage_buffer_limits.h"
#include "tests/support/reflection_check.h"
#include "tests/support/test_geometry.h"
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vk/commands.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/scene.h"

#include "spirv/broadphase_bounds.comp.h"
#include "spirv/broadphase_centre_box.comp.h"
#include "spirv/broadphase_morton.comp.h"
#include "spirv/broadphase_pair_group.comp.h"
#include "spirv/broadphase_pairs.comp.h"
#include "spirv/broadphase_tree_build.comp.h"
#include "spirv/broadphase_tree_fit.comp.h"
#include "spirv/radix_sort_histogram.comp.h"
#include "spirv/prefix_scan_apply.comp.h"
#include "spirv/prefix_scan_blocks.comp.h"
#include "spirv/prefix_scan_reduce.comp.h"
#include "spirv/radix_sort_scatter.comp.h"

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/quaternion.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

namespace vkc {
namespace {

class BroadphaseTest : public test::VulkanTest {
protected:
    // Adds `count` objects cycling through a box, a sphere and a torus under seeded random rigid
    // motions inside a cube of side `spread`.
    void addRandomObjects(Scene& scene, uint32_t count, float spread, uint32_t seed) {
        meshes_ = {solids::box({1.0f, 0.5f, 2.0f}), solids::sphere(0.6f, 2), solids::torus(0.8f, 0.2f, 12)};
        std::vector<MeshId> ids;
        const char* names[] = {"box", "sphere", "torus"};
        for (size_t i = 0; i < meshes_.size(); ++i) {
            auto id = scene.addMesh({names[i], &meshes_[i]});
            ASSERT_TRUE(id) << id.status().describe();
            ids.push_back(id.value());
        }
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> position(-spread / 2, spread / 2), unit(-1.0f, 1.0f);
        for (uint32_t i = 0; i < count; ++i) {
            glm::quat rotation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
            glm::mat4 transform = glm::translate(glm::mat4(1.0f), {position(rng), position(rng), position(rng)}) *
                                  glm::toMat4(rotation);
            ASSERT_TRUE(scene.addObject(ids[i % ids.size()], transform));
        }
    }

    std::vector<Aabb> cpuBounds(const Scene& scene) {
        std::vector<Aabb> bounds;
        for (ObjectId i = 0; i < scene.objectCount(); ++i)
            bounds.push_back(worldBounds(scene.mesh(scene.objectMesh(i)), scene.transform(i)));
        return bounds;
    }

    static void expectBoundsNear(const std::vector<Aabb>& gpu, const std::vector<Aabb>& cpu) {
        ASSERT_EQ(gpu.size(), cpu.size());
        for (size_t i = 0; i < gpu.size(); ++i)
            for (int axis = 0; axis < 3; ++axis) {
                EXPECT_NEAR(gpu[i].min[axis], cpu[i].min[axis], 1e-4f) << "object " << i << " axis " << axis;
                EXPECT_NEAR(gpu[i].max[axis], cpu[i].max[axis], 1e-4f) << "object " << i << " axis " << axis;
            }
    }

    std::vector<MeshData> meshes_;
};

TEST_F(BroadphaseTest, MatchesCpuReferenceOnRandomScenes) {
    // Counts around and off the 64-thread pair groups and 256-thread bound groups.
    for (uint32_t count : {1u, 2u, 37u, 130u}) {
        auto scene = Scene::create(context_);
        ASSERT_TRUE(scene);
        addRandomObjects(scene.value(), count, 12.0f, 1000 + count);
        auto broadphase = Broadphase::create(context_, {0.05f});
        ASSERT_TRUE(broadphase) << broadphase.status().describe();
        auto results = broadphase->run(scene.value());
        ASSERT_TRUE(results) << results.status().describe();

        expectBoundsNear(results->worldBounds, cpuBounds(scene.value()));
        // The pair pass applies exactly the reference rule to the boxes it was given.
        std::vector<ObjectPair> expected = overlappingPairs(results->worldBounds, 0.05f);
        EXPECT_EQ(results->pairs, expected) << count << " objects";
        EXPECT_EQ(results->pairCount, expected.size());
        EXPECT_FALSE(results->truncated);
        if (count == 130u) EXPECT_GT(expected.size(), 10u) << "the scene should have overlaps to find";
        EXPECT_TRUE(results->gpuTimingsMs.count("broadphase-bounds"));
        EXPECT_TRUE(results->gpuTimingsMs.count("broadphase-pairs"));
    }
}

// The random scene scaled to millimetres and moved around kFarOrigin, where float spacing is about
// 1e-3: the GPU works relative to the objects (their translations' centre), so each box still
// contains its object's vertices placed in double, and the pairs are those of the exact boxes.
// With world coordinates in float the vertices moved by up to half a millimetre.
TEST_F(BroadphaseTest, FarFromOriginPairsAreThoseOfTheExactBoxes) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    addRandomObjects(scene.value(), 130, 12.0f, 2026);
    const double scale = 1e-3;
    for (ObjectId i = 0; i < scene->objectCount(); ++i)
        ASSERT_TRUE(scene->setTransform(i, test::scaledAndMoved(glm::mat4(scene->transform(i)), scale, test::kFarOrigin)));
    auto broadphase = Broadphase::create(context_, {0.0f});
    ASSERT_TRUE(broadphase) << broadphase.status().describe();
    auto results = broadphase->run(scene.value());
    ASSERT_TRUE(results) << results.status().describe();

    std::vector<glm::dvec3> lo(scene->objectCount(), glm::dvec3(INFINITY)), hi(scene->objectCount(), glm::dvec3(-INFINITY));
    for (ObjectId i = 0; i < scene->objectCount(); ++i) {
        for (const glm::vec3& p : scene->mesh(scene->objectMesh(i)).positions) {
            const glm::dvec3 world(scene->transform(i) * glm::dvec4(glm::dvec3(p), 1.0));
            lo[i] = glm::min(lo[i], world);
            hi[i] = glm::max(hi[i], world);
        }
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_LE(results->worldBounds[i].min[axis], lo[i][axis]) << "object " << i << " axis " << axis;
            EXPECT_GE(results->worldBounds[i].max[axis], hi[i][axis]) << "object " << i << " axis " << axis;
        }
    }
    // Pairs whose exact boxes overlap or miss by more than float rounding at the crowd's own size
    // (a few units in the last place of ~1e-2): the GPU must decide them as the exact boxes do.
    const double undecided = 1e-7;
    size_t decided = 0, overlapping = 0;
    for (uint32_t a = 0; a < scene->objectCount(); ++a)
        for (uint32_t b = a + 1; b < scene->objectCount(); ++b) {
            double gap = -INFINITY;  // the largest separation along any axis; <= 0: boxes overlap
            for (int axis = 0; axis < 3; ++axis)
                gap = std::max({gap, lo[b][axis] - hi[a][axis], lo[a][axis] - hi[b][axis]});
            if (std::abs(gap) < undecided) continue;
            ++decided;
            const bool found = std::binary_search(results->pairs.begin(), results->pairs.end(), ObjectPair{a, b});
            EXPECT_EQ(found, gap < 0.0) << "pair (" << a << ", " << b << "), exact gap " << gap;
            overlapping += gap < 0.0;
        }
    EXPECT_GT(overlapping, 10u) << "the crowd should have overlapping boxes";
    EXPECT_GT(decided, 8000u);
}

// An analytic pair set: a 15 x 15 x 15 grid of unit cubes (3375 objects: past the bounds pass's
// grid stride and 5.7 million candidate pair threads) whose faces are `gap` apart. A pair overlaps
// once each box grows by the margin, i.e. exactly when gap <= 2 * margin: at 2m - e every pair of
// grid neighbours (26-neighbourhood) and nothing else, at 2m + e nothing at all.
TEST_F(BroadphaseTest, GridOfCubesGivesExactlyTheNeighboursAtTheMarginBoundary) {
    constexpr int kSide = 15;
    constexpr float kMargin = 0.05f;
    MeshData cube = solids::box(glm::vec3(1.0f));
    auto countExpected = [] {
        uint32_t pairs = 0;  // neighbours: index offsets in {-1, 0, 1}^3 \ 0, each pair once
        for (int x = 0; x < kSide; ++x)
            for (int y = 0; y < kSide; ++y)
                for (int z = 0; z < kSide; ++z)
                    for (int dx = -1; dx <= 1; ++dx)
                        for (int dy = -1; dy <= 1; ++dy)
                            for (int dz = -1; dz <= 1; ++dz) {
                                const int nx = x + dx, ny = y + dy, nz = z + dz;
                                if ((dx || dy || dz) && nx >= 0 && ny >= 0 && nz >= 0 && nx < kSide && ny < kSide &&
                                    nz < kSide)
                                    ++pairs;
                            }
        return pairs / 2;
    };
    for (float gap : {2 * kMargin - 1e-3f, 2 * kMargin + 1e-3f}) {
        auto scene = Scene::create(context_);
        ASSERT_TRUE(scene);
        auto mesh = scene->addMesh({"cube", &cube});
        ASSERT_TRUE(mesh);
        auto cell = [&](ObjectId i) { return glm::ivec3(i / (kSide * kSide), (i / kSide) % kSide, i % kSide); };
        for (ObjectId i = 0; i < kSide * kSide * kSide; ++i)
            ASSERT_TRUE(scene->addObject(mesh.value(), glm::translate(glm::dmat4(1.0), glm::dvec3(cell(i)) * (1.0 + gap))));
        auto broadphase = Broadphase::create(context_, {kMargin});
        ASSERT_TRUE(broadphase);
        auto results = broadphase->run(scene.value());
        ASSERT_TRUE(results) << results.status().describe();
        EXPECT_FALSE(results->truncated);
        if (gap > 2 * kMargin) {
            EXPECT_EQ(results->pairCount, 0u) << "gap " << gap;
            continue;
        }
        EXPECT_EQ(results->pairCount, countExpected());
        for (const ObjectPair& pair : results->pairs) {
            const glm::ivec3 d = glm::abs(cell(pair.a) - cell(pair.b));
            EXPECT_TRUE(d.x <= 1 && d.y <= 1 && d.z <= 1) << "pair (" << pair.a << ", " << pair.b << ") are not neighbours";
        }
    }
}

// What the broadphase refuses, as the caller's error naming the setting: a margin that is
// negative or NaN, more objects than maxObjects (at record, the scene untouched), a maxObjects
// beyond one tree thread per object; and a scene reading more vertex buffers than its descriptor array.
TEST_F(BroadphaseTest, RefusesBadSettingsAndScenesBeyondItsLimits) {
    for (float margin : {-0.1f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        auto bad = Broadphase::create(context_, {margin});
        ASSERT_FALSE(bad) << "margin " << margin;
        EXPECT_EQ(bad.status().code, ErrorCode::InvalidArgument);
        EXPECT_NE(bad.status().message.find("margin"), std::string::npos) << bad.status().message;
    }
    BroadphaseSettings huge;
    huge.maxObjects = 0xffffffffu;
    auto tooMany = Broadphase::create(context_, huge);
    ASSERT_FALSE(tooMany);
    EXPECT_NE(tooMany.status().message.find("maxObjects 4294967295 exceeds this device's"), std::string::npos)
        << tooMany.status().message;

    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    addRandomObjects(scene.value(), 5, 4.0f, 11);
    BroadphaseSettings four;
    four.maxObjects = 4;
    auto small = Broadphase::create(context_, four);
    ASSERT_TRUE(small);
    auto refused = small->run(scene.value());
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().code, ErrorCode::InvalidArgument);
    EXPECT_NE(refused.status().message.find("maxObjects (4)"), std::string::npos) << refused.status().message;

    // 65 meshes, each in a host buffer of its own (the scene packs its own copies, so only a host's
    // buffers count one each): read in place, all overlapping; and refused, naming the first object
    // past the limit, on a device whose storage-buffer limits leave 64 for the vertex buffers.
    const MeshData box = solids::box(glm::vec3(1.0f));
    test::HostVertexBuffers hostBuffers(vk());
    auto many = Scene::create(context_);
    ASSERT_TRUE(many);
    for (size_t i = 0; i < 65; ++i) {
        auto mesh = hostBuffers.addMesh(many.value(), box, "box " + std::to_string(i));
        ASSERT_TRUE(mesh) << mesh.status().describe();
        ASSERT_TRUE(many->addObject(mesh.value(), glm::dmat4(1.0), "o" + std::to_string(i)));
    }
    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(broadphase);
    auto all = broadphase->run(many.value());
    ASSERT_TRUE(all) << all.status().describe();
    EXPECT_EQ(all->pairCount, 65u * 64u / 2u);
    auto lowered = [&] {
        test::LoweredStorageBufferLimits limits(vk(), 64);
        return Broadphase::create(context_);
    }();
    ASSERT_TRUE(lowered) << lowered.status().describe();
    auto slots = lowered->run(many.value());
    ASSERT_FALSE(slots);
    EXPECT_EQ(slots.status().code, ErrorCode::Unsupported);
    EXPECT_NE(slots.status().message.find("more than 64 distinct vertex buffers (object \"o64\")"), std::string::npos)
        << slots.status().message;
    EXPECT_NE(slots.status().message.find("maxPerStageDescriptorStorageBuffers"), std::string::npos)
        << slots.status().message;
}

TEST_F(BroadphaseTest, OverflowKeepsExactCountAndSaysTruncated) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    MeshData box = solids::box(glm::vec3(1.0f));
    auto mesh = scene->addMesh({"box", &box});
    ASSERT_TRUE(mesh);
    for (int i = 0; i < 20; ++i)  // all at nearly the same place: 190 overlapping pairs
        ASSERT_TRUE(scene->addObject(mesh.value(), glm::translate(glm::mat4(1.0f), glm::vec3(0.01f * i))));
    BroadphaseSettings settings;
    settings.pairCapacity = 5;
    auto broadphase = Broadphase::create(context_, settings);
    ASSERT_TRUE(broadphase);
    auto results = broadphase->run(scene.value());
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_TRUE(results->truncated);
    EXPECT_EQ(results->pairCount, 190u);
    ASSERT_EQ(results->pairs.size(), 5u);
    for (const ObjectPair& pair : results->pairs) {
        EXPECT_LT(pair.a, pair.b);
        EXPECT_LT(pair.b, 20u);
    }
    // The stored five, grouped on the GPU, come back sorted and distinct.
    EXPECT_TRUE(std::is_sorted(results->pairs.begin(), results->pairs.end()));
    EXPECT_EQ(std::adjacent_find(results->pairs.begin(), results->pairs.end()), results->pairs.end());
}

// The GPU groups the pairs by their first object (counts, offsets over chunks of the objects,
// scatter) and the host sorts inside each group. A scene of 700 objects (the offsets' 256 threads
// take 3 each, the last few none) with one large box in the middle of the ids: it overlaps
// hundreds of the small ones, so its group (the pairs with a larger second id) is large, each
// smaller id's pair with it is a group of its own, and most objects have no group at all.
TEST_F(BroadphaseTest, PairsGroupedOnTheGpuComeBackAsTheReferenceList) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    MeshData small = solids::box(glm::vec3(0.3f)), large = solids::box(glm::vec3(6.0f));
    auto smallMesh = scene->addMesh({"small", &small});
    auto largeMesh = scene->addMesh({"large", &large});
    ASSERT_TRUE(smallMesh && largeMesh);
    std::mt19937 rng(20261127);
    std::uniform_real_distribution<float> position(-8.0f, 8.0f);
    for (uint32_t i = 0; i < 700; ++i) {
        const glm::mat4 at = glm::translate(glm::mat4(1.0f), {position(rng), position(rng), position(rng)});
        ASSERT_TRUE(scene->addObject(i == 350 ? largeMesh.value() : smallMesh.value(), i == 350 ? glm::mat4(1.0f) : at));
    }
    auto broadphase = Broadphase::create(context_, {0.01f});
    ASSERT_TRUE(broadphase) << broadphase.status().describe();
    auto results = broadphase->run(scene.value());
    ASSERT_TRUE(results) << results.status().describe();
    const std::vector<ObjectPair> expected = overlappingPairs(results->worldBounds, 0.01f);
    EXPECT_EQ(results->pairs, expected);
    const auto largeGroup = std::count_if(expected.begin(), expected.end(), [](const ObjectPair& p) { return p.a == 350; });
    EXPECT_GT(largeGroup, 20) << "the large box should lead a large group";
    EXPECT_GT(std::count_if(expected.begin(), expected.end(), [](const ObjectPair& p) { return p.b == 350; }), 20);
}

// The bounds pass gives each thread at most 64 vertices of one object: boxes (one chunk each),
// spheres of 162, 642 and 10,242 vertices (3, 11 and 161 chunks, the last partly filled) in one
// scene, more objects than a workgroup has threads: every box is the vertices' exact box.
TEST_F(BroadphaseTest, BoundsOfEveryMeshSizeInOneScene) {
    meshes_ = {solids::box({1.0f, 0.5f, 2.0f}), solids::sphere(0.6f, 2), solids::sphere(0.7f, 3), solids::sphere(0.9f, 5)};
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    std::vector<MeshId> ids;
    for (size_t i = 0; i < meshes_.size(); ++i) {
        auto id = scene->addMesh({("mesh " + std::to_string(i)).c_str(), &meshes_[i]});
        ASSERT_TRUE(id) << id.status().describe();
        ids.push_back(id.value());
    }
    std::mt19937 rng(77);
    std::uniform_real_distribution<float> position(-8.0f, 8.0f), unit(-1.0f, 1.0f);
    for (uint32_t i = 0; i < 301; ++i) {
        const glm::quat rotation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
        const glm::mat4 transform =
            glm::translate(glm::mat4(1.0f), {position(rng), position(rng), position(rng)}) * glm::toMat4(rotation);
        // The big sphere now and then, the small meshes in turn otherwise.
        ASSERT_TRUE(scene->addObject(ids[i % 25 == 0 ? 3 : i % 3], transform));
    }
    auto broadphase = Broadphase::create(context_, {0.0f});
    ASSERT_TRUE(broadphase) << broadphase.status().describe();
    auto results = broadphase->run(scene.value());
    ASSERT_TRUE(results) << results.status().describe();
    expectBoundsNear(results->worldBounds, cpuBounds(scene.value()));
    EXPECT_EQ(results->pairs, overlappingPairs(results->worldBounds, 0.0f));
}

// A device that allows few workgroups per dispatch dimension: the bounds pass's chunks go on in
// rows of workgroups, and a scene with more chunks than one dispatch reaches is refused, naming
// the count. (lavapipe's real limits put both out of reach of a test.)
TEST_F(BroadphaseTest, BoundsChunksFillRowsAndAreRefusedPastOneDispatch) {
    struct LoweredWorkGroupCounts {  // 4 x 2 workgroups: 2,048 chunks
        VulkanContext& vk;
        VkPhysicalDeviceLimits saved = vk.properties.limits;
        explicit LoweredWorkGroupCounts(VulkanContext& context) : vk(context) {
            vk.properties.limits.maxComputeWorkGroupCount[0] = 4;
            vk.properties.limits.maxComputeWorkGroupCount[1] = 2;
        }
        ~LoweredWorkGroupCounts() { vk.properties.limits = saved; }
    } lowered(vk());
    meshes_ = {solids::sphere(0.9f, 5)};  // 161 chunks
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    auto mesh = scene->addMesh({"sphere", &meshes_[0]});
    ASSERT_TRUE(mesh);
    for (uint32_t i = 0; i < 12; ++i)  // 1,932 chunks: 8 workgroups, two rows
        ASSERT_TRUE(scene->addObject(mesh.value(), glm::translate(glm::mat4(1.0f), {1.5f * float(i), 0.0f, float(i % 2)})));
    BroadphaseSettings settings;
    settings.maxObjects = 16;  // within the lowered limit's 4 x 64 threads of the tree passes
    auto broadphase = Broadphase::create(context_, settings);
    ASSERT_TRUE(broadphase) << broadphase.status().describe();
    auto results = broadphase->run(scene.value());
    ASSERT_TRUE(results) << results.status().describe();
    expectBoundsNear(results->worldBounds, cpuBounds(scene.value()));
    EXPECT_EQ(results->pairs, overlappingPairs(results->worldBounds, 0.0f));
    EXPECT_EQ(results->pairCount, 11u);  // each sphere (1.8 across) overlaps its neighbour 1.5 away

    ASSERT_TRUE(scene->addObject(mesh.value(), glm::translate(glm::mat4(1.0f), {0.0f, 5.0f, 0.0f})));  // 2,093
    auto refused = broadphase->run(scene.value());
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().code, ErrorCode::InvalidArgument);
    EXPECT_NE(refused.status().message.find("2093 chunks"), std::string::npos) << refused.status().message;
}

TEST_F(BroadphaseTest, ReadsHostVertexBufferInPlaceWithStride) {
    MeshData sphere = solids::sphere(1.0f, 1);
    // Interleaved host layout: 8 floats per vertex (position, normal, uv) after a 16-byte header.
    const uint32_t strideFloats = 8, headerFloats = 4;
    auto hostBuffer = test::createInterleavedVertexBuffer(vk(), sphere.positions, strideFloats, headerFloats,
                                                          "host interleaved vertices");
    ASSERT_TRUE(hostBuffer) << hostBuffer.status().describe();
    {
        auto scene = Scene::create(context_);
        ASSERT_TRUE(scene);
        MeshDesc desc{"host sphere", &sphere, hostBuffer->buffer, headerFloats * 4, strideFloats * 4};
        auto mesh = scene->addMesh(desc);
        ASSERT_TRUE(mesh) << mesh.status().describe();
        glm::mat4 transform = glm::translate(glm::mat4(1.0f), {3.0f, -2.0f, 0.5f}) *
                              glm::rotate(glm::mat4(1.0f), 0.7f, glm::vec3(0, 1, 0));
        ASSERT_TRUE(scene->addObject(mesh.value(), transform));
        auto broadphase = Broadphase::create(context_);
        ASSERT_TRUE(broadphase);
        auto results = broadphase->run(scene.value());
        ASSERT_TRUE(results) << results.status().describe();
        expectBoundsNear(results->worldBounds, cpuBounds(scene.value()));
    }
    destroyBuffer(vk(), hostBuffer.value());
}

TEST_F(BroadphaseTest, DeformedVerticesMoveTheBounds) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    MeshData box = solids::box(glm::vec3(1.0f));
    auto mesh = scene->addMesh({"box", &box});
    ASSERT_TRUE(mesh);
    ASSERT_TRUE(scene->addObject(mesh.value(), glm::mat4(1.0f)));
    ASSERT_TRUE(scene->addObject(mesh.value(), glm::translate(glm::mat4(1.0f), {3.0f, 0.0f, 0.0f})));
    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(broadphase);
    auto before = broadphase->run(scene.value());
    ASSERT_TRUE(before);
    EXPECT_TRUE(before->pairs.empty());

    std::vector<glm::vec3> stretched = box.positions;
    for (glm::vec3& p : stretched) p.x *= 8.0f;  // now reaches x = 4: overlaps the second box
    ASSERT_TRUE(scene->updateVertices(mesh.value(), stretched));
    auto after = broadphase->run(scene.value());
    ASSERT_TRUE(after);
    EXPECT_NEAR(after->worldBounds[0].max.x, 4.0f, 1e-5f);
    ASSERT_EQ(after->pairs.size(), 1u);
    EXPECT_EQ(after->pairs[0], (ObjectPair{0, 1}));
}

TEST_F(BroadphaseTest, FramesInFlightNeverBlock) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    addRandomObjects(scene.value(), 10, 4.0f, 7);
    auto broadphase = Broadphase::create(context_);  // two frames in flight
    ASSERT_TRUE(broadphase);

    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = vk().queueFamilyIndex;
    ASSERT_EQ(vk().vkd.vkCreateCommandPool(vk().device, &poolInfo, nullptr, &pool), VK_SUCCESS);
    VkCommandBuffer cmds[2] = {};
    VkCommandBufferAllocateInfo allocInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocInfo.commandPool = pool;
    allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocInfo.commandBufferCount = 2;
    ASSERT_EQ(vk().vkd.vkAllocateCommandBuffers(vk().device, &allocInfo, cmds), VK_SUCCESS);

    for (uint64_t frame = 0; frame < 2; ++frame) {
        VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        ASSERT_EQ(vk().vkd.vkBeginCommandBuffer(cmds[frame], &begin), VK_SUCCESS);
        ASSERT_TRUE(broadphase->record(cmds[frame], scene.value(), frame));
        ASSERT_EQ(vk().vkd.vkEndCommandBuffer(cmds[frame]), VK_SUCCESS);
    }
    // Nothing submitted yet: results are not there, and asking does not wait.
    BroadphaseResults results;
    EXPECT_FALSE(broadphase->results(0, results).ok());

    VkSemaphoreSubmitInfo signals[2] = {broadphase->completionSignal(0), broadphase->completionSignal(1)};
    EXPECT_EQ(broadphase->results(0, results).code, ErrorCode::NotReady);
    // Frame 2 would reuse frame 0's slot while frame 0 is still pending.
    EXPECT_EQ(broadphase->record(VK_NULL_HANDLE, scene.value(), 2).code, ErrorCode::NotReady);
    // A scene past the default maxObjects (which follows the scene) waits for the frames in flight.
    auto large = Scene::create(context_);
    ASSERT_TRUE(large);
    addRandomObjects(large.value(), 5000, 40.0f, 8);
    const Status waits = broadphase->record(VK_NULL_HANDLE, large.value(), 2);
    EXPECT_EQ(waits.code, ErrorCode::NotReady);
    EXPECT_NE(waits.message.find("more than BroadphaseSettings::maxObjects (4096): it grows once every frame"),
              std::string::npos) << waits.message;

    for (int frame = 0; frame < 2; ++frame) {
        VkCommandBufferSubmitInfo cmdInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
        cmdInfo.commandBuffer = cmds[frame];
        VkSubmitInfo2 submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
        submit.commandBufferInfoCount = 1;
        submit.pCommandBufferInfos = &cmdInfo;
        submit.signalSemaphoreInfoCount = 1;
        submit.pSignalSemaphoreInfos = &signals[frame];
        ASSERT_EQ(vk().vkd.vkQueueSubmit2(vk().queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
    }
    ASSERT_EQ(vk().vkd.vkQueueWaitIdle(vk().queue), VK_SUCCESS);
    std::vector<ObjectPair> expected;
    for (uint64_t frame = 0; frame < 2; ++frame) {
        ASSERT_TRUE(broadphase->results(frame, results)) << "frame " << frame;
        expectBoundsNear(results.worldBounds, cpuBounds(scene.value()));
        EXPECT_EQ(results.pairs, overlappingPairs(results.worldBounds, 0.0f));
    }
    // A frame whose signal was handed out cannot be recorded again (its timeline value cannot be
    // signalled twice: the submit would lose the device), and run() numbers its own frame after it.
    for (uint64_t frame : {0, 1})
        EXPECT_EQ(broadphase->record(VK_NULL_HANDLE, scene.value(), frame).code, ErrorCode::InvalidArgument) << frame;
    auto ran = broadphase->run(scene.value());
    ASSERT_TRUE(ran) << ran.status().describe();
    EXPECT_EQ(ran->pairs, results.pairs);
    // Nothing in flight now: the larger scene grows it to the next power of two; the earlier
    // frames' results are gone, frame numbers go on.
    auto grown = broadphase->run(large.value());
    ASSERT_TRUE(grown) << grown.status().describe();
    EXPECT_EQ(broadphase->settings().maxObjects, 8192u);
    EXPECT_EQ(grown->worldBounds.size(), 5000u);
    EXPECT_EQ(grown->pairs, overlappingPairs(grown->worldBounds, 0.0f));
    EXPECT_GT(grown->pairs.size(), 100u);
    EXPECT_EQ(broadphase->results(1, results).code, ErrorCode::InvalidArgument);
    EXPECT_EQ(broadphase->record(VK_NULL_HANDLE, scene.value(), 1).code, ErrorCode::InvalidArgument);
    vk().vkd.vkDestroyCommandPool(vk().device, pool, nullptr);
}

// The default pair capacity follows the pairs: 400 objects at one place overlap in 79,800 pairs,
// past the 65,536 it starts with; run() gets them all at once, with the capacity grown to 2^17.
// (A capacity the host set stays, and truncates: OverflowKeepsExactCountAndSaysTruncated.)
TEST_F(BroadphaseTest, DefaultPairCapacityGrowsToTheExactCount) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    addRandomObjects(scene.value(), 400, 0.2f, 9);
    auto following = Broadphase::create(context_);
    ASSERT_TRUE(following);
    auto all = following->run(scene.value());
    ASSERT_TRUE(all) << all.status().describe();
    EXPECT_FALSE(all->truncated);
    EXPECT_EQ(all->pairCount, 400u * 399u / 2u);
    EXPECT_EQ(all->pairs, overlappingPairs(all->worldBounds, 0.0f));  // every stored pair, not only the count
    EXPECT_EQ(following->settings().pairCapacity, 1u << 17);
}

// Recorded frames (a renderer's, GPU-driven): a frame whose pairs pass the default capacity says
// `truncated` with the exact count and keeps 65,536 pairs of the reference list; the next
// frame recorded once it completed has the capacity grown and every pair of the reference.
TEST_F(BroadphaseTest, RecordedFramesGrowThePairListFromTheNextFrame) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    addRandomObjects(scene.value(), 400, 0.2f, 9);
    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(broadphase);
    for (uint64_t frame = 0; frame < 2; ++frame) {
        SCOPED_TRACE(frame);
        ASSERT_TRUE(test::recordInHostSubmit(vk(), [&](VkCommandBuffer cmd) {
            return broadphase->record(cmd, scene.value(), frame);
        }));
        ASSERT_EQ(test::signalFromHost(vk(), broadphase->completionSignal(frame)), VK_SUCCESS);
        BroadphaseResults results;
        ASSERT_TRUE(broadphase->results(frame, results));
        EXPECT_EQ(results.pairCount, 400u * 399u / 2u);
        const std::vector<ObjectPair> reference = overlappingPairs(results.worldBounds, 0.0f);
        ASSERT_EQ(reference.size(), 400u * 399u / 2u);
        if (frame == 1) {
            EXPECT_FALSE(results.truncated);
            EXPECT_EQ(results.pairs, reference);
            continue;
        }
        EXPECT_TRUE(results.truncated);
        ASSERT_EQ(results.pairs.size(), 65536u);
        // The stored pairs are real ones, none repeated.
        std::vector<ObjectPair> stored = results.pairs;
        std::sort(stored.begin(), stored.end());
        EXPECT_EQ(std::adjacent_find(stored.begin(), stored.end()), stored.end());
        EXPECT_TRUE(std::includes(reference.begin(), reference.end(), stored.begin(), stored.end()));
    }
    EXPECT_EQ(broadphase->settings().pairCapacity, 1u << 17);
}

TEST_F(BroadphaseTest, ShaderLayoutsMatchTheirSpirv) {
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_broadphase_bounds_comp, kBroadphaseBoundsLayout, "broadphase_bounds"));
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_broadphase_centre_box_comp, kBroadphaseTreeLayout, "broadphase_centre_box"));
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_broadphase_morton_comp, kBroadphaseTreeLayout, "broadphase_morton"));
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_broadphase_tree_build_comp, kBroadphaseTreeLayout, "broadphase_tree_build"));
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_broadphase_tree_fit_comp, kBroadphaseTreeLayout, "broadphase_tree_fit"));
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_broadphase_pairs_comp, kBroadphaseTreeLayout, "broadphase_pairs"));
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_broadphase_pair_group_comp, kBroadphaseTreeLayout, "broadphase_pair_group"));
    for (auto [spirv, name] : {std::pair{std::span<const uint32_t>(kSpirv_radix_sort_histogram_comp), "radix_sort_histogram"},
                               std::pair{std::span<const uint32_t>(kSpirv_radix_sort_scatter_comp), "radix_sort_scatter"}})
        EXPECT_TRUE(test::checkPipelineLayout(spirv, kRadixSortLayout, name));
    for (auto [spirv, name] : {std::pair{std::span<const uint32_t>(kSpirv_prefix_scan_reduce_comp), "prefix_scan_reduce"},
                               std::pair{std::span<const uint32_t>(kSpirv_prefix_scan_blocks_comp), "prefix_scan_blocks"},
                               std::pair{std::span<const uint32_t>(kSpirv_prefix_scan_apply_comp), "prefix_scan_apply"}})
        EXPECT_TRUE(test::checkPipelineLayout(spirv, kPrefixScanLayout, name));
}

}  // namespace
}  // namespace vkc
