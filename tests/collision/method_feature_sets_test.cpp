// Device requirements follow the methods a host asks for (issue 13, device_requirements.h): a
// context created with one method's feature set alone runs that method under the validation layer
// without a message (a feature the method uses but its set lacks would be reported), the
// broadphase runs on the base set alone (no fp64, no fragment stores, no precise occlusion
// queries), and a detector whose set the context lacks refuses to be created, naming what is missing
// (ebpi's ray backends included).
#include "tests/support/method_scenes.h"
#include "tests/support/small_settings.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/device_info.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/stencil.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>

namespace vkc {
namespace {

template <class Tested> struct MethodSet;
template <> struct MethodSet<StencilDetector> { static constexpr FeatureSets set = kFeatureSetStencil; };
template <> struct MethodSet<LdiDetector> { static constexpr FeatureSets set = kFeatureSetLdi; };
template <> struct MethodSet<ConsistentPairsDetector> { static constexpr FeatureSets set = kFeatureSetConsistentPairs; };
template <> struct MethodSet<AabbTreeDetector> { static constexpr FeatureSets set = kFeatureSetAabbTree; };
template <> struct MethodSet<EbpiDetector> { static constexpr FeatureSets set = kFeatureSetEbpi; };
template <> struct MethodSet<Broadphase> { static constexpr FeatureSets set = kFeatureSetBase; };

template <class Tested>
class OwnSetOnly : public test::MethodSceneTest {
protected:
    std::optional<FeatureSets> featureSets() const override { return MethodSet<Tested>::set; }
};
using Tested = ::testing::Types<StencilDetector, LdiDetector, ConsistentPairsDetector, AabbTreeDetector, EbpiDetector,
                                Broadphase>;
TYPED_TEST_SUITE(OwnSetOnly, Tested);

TYPED_TEST(OwnSetOnly, RunsUnderValidationWithItsSetAlone) {
    EXPECT_EQ(contextInfo(this->context_).featureSets, MethodSet<TypeParam>::set);
    auto scene = Scene::create(this->context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    this->addOverlappingBoxes(scene.value());
    auto tested = TypeParam::create(this->context_, test::smallSettings(static_cast<TypeParam*>(nullptr)));
    ASSERT_TRUE(tested) << tested.status().describe();
    auto results = tested->run(scene.value());
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_EQ(results->pairs.size(), 1u);
}

class BaseSetOnly : public test::MethodSceneTest {
protected:
    std::optional<FeatureSets> featureSets() const override { return kFeatureSetBase; }
};

// A MissingFeature error whose message names every part.
template <class T>
void expectMissing(const Result<T>& refused, std::initializer_list<const char*> parts) {
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().code, ErrorCode::MissingFeature) << refused.status().describe();
    for (const char* part : parts)
        EXPECT_NE(refused.status().message.find(part), std::string::npos) << refused.status().message;
}

template <class Detector>
void expectRefused(Context& context, const char* detector, const char* set, const char* feature) {
    SCOPED_TRACE(detector);
    expectMissing(Detector::create(context, {}), {detector, set, feature});
}

TEST_F(BaseSetOnly, DetectorsOfOtherSetsRefuseNamingWhatIsMissing) {
    expectRefused<StencilDetector>(context_, "StencilDetector", "\"stencil\"", "occlusionQueryPrecise");
    expectRefused<LdiDetector>(context_, "LdiDetector", "\"ldi\"", "shaderFloat64");
    expectRefused<ConsistentPairsDetector>(context_, "ConsistentPairsDetector", "\"consistent-pairs\"",
                                           "shaderStorageImageExtendedFormats");
    expectRefused<AabbTreeDetector>(context_, "AabbTreeDetector", "\"aabb-tree\"", "shaderFloat64");
    expectRefused<EbpiDetector>(context_, "EbpiDetector", "\"ebpi\"", "shaderFloat64");
}

// ebpi's ray backends follow the sets too. With ebpi's set and ray-tracing pipelines but no ray
// queries (an NVIDIA data-centre GPU's case), the default backend is the ray-tracing pipeline on a
// GPU and the compute traversal on a CPU device (the fastest each runs); the ray-tracing pipeline
// runs under validation and gives the compute backend's volume exactly; ray queries are refused
// naming their set.
class EbpiWithRayTracingPipelineOnly : public test::MethodSceneTest {
protected:
    std::optional<FeatureSets> featureSets() const override {
        return kFeatureSetEbpi | kFeatureSetRayTracingPipeline;
    }
};

TEST_F(EbpiWithRayTracingPipelineOnly, DefaultsToTheFastestBackendAndRefusesRayQueries) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingBoxes(scene.value());
    EbpiSettings settings = test::smallSettings(static_cast<EbpiDetector*>(nullptr));
    auto byDefault = EbpiDetector::create(context_, settings);
    ASSERT_TRUE(byDefault) << byDefault.status().describe();
    const bool cpuDevice = std::string_view(deviceTypeName(deviceInfo(context_).type)) == "cpu";
    EXPECT_EQ(byDefault->rayBackend(),
              cpuDevice ? EbpiRayBackendChoice::Compute : EbpiRayBackendChoice::RayTracingPipeline);
    settings.rayBackend = EbpiRayBackendChoice::RayTracingPipeline;
    auto chosen = EbpiDetector::create(context_, settings);
    ASSERT_TRUE(chosen) << chosen.status().describe();
    settings.rayBackend = EbpiRayBackendChoice::Compute;
    auto compute = EbpiDetector::create(context_, settings);
    ASSERT_TRUE(compute) << compute.status().describe();
    auto traced = chosen->run(scene.value());
    auto reference = compute->run(scene.value());
    ASSERT_TRUE(traced && reference);
    ASSERT_EQ(traced->pairs.size(), 1u);
    ASSERT_EQ(reference->pairs.size(), 1u);
    EXPECT_GT(traced->pairs[0].volume, 0.0);
    EXPECT_EQ(traced->pairs[0].volume, reference->pairs[0].volume);

    settings.rayBackend = EbpiRayBackendChoice::RayQuery;
    expectMissing(EbpiDetector::create(context_, settings), {"rayQuery", "\"ebpi ray-query backend\""});
}

class EbpiSetOnly : public test::MethodSceneTest {
protected:
    std::optional<FeatureSets> featureSets() const override { return kFeatureSetEbpi; }
};

TEST_F(EbpiSetOnly, DefaultsToComputeAndRefusesTheRayTracingPipeline) {
    EbpiSettings settings = test::smallSettings(static_cast<EbpiDetector*>(nullptr));
    auto chosen = EbpiDetector::create(context_, settings);
    ASSERT_TRUE(chosen) << chosen.status().describe();
    EXPECT_EQ(chosen->rayBackend(), EbpiRayBackendChoice::Compute);
    settings.rayBackend = EbpiRayBackendChoice::RayTracingPipeline;
    expectMissing(EbpiDetector::create(context_, settings),
                  {"rayTracingPipeline", "\"ebpi ray-tracing-pipeline backend\""});
}

}  // namespace
}  // namespace vkc
