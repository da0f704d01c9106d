#include "tools/difftest/campaign.h"

#include "tools/cli/aabb_tree_method.h"
#include "tools/cli/ebpi_method.h"
#include "tools/cli/exact_method.h"
#include "tools/cli/ldi_method.h"
#include "tools/cli/pair_measures.h"
#include "tools/io/scene_builder.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/stencil.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <set>
#include <sstream>

namespace vkc::difftest {

namespace {

constexpr const char* kAllMethods[] = {"exact", "aabb-tree", "stencil", "consistent-pairs", "ldi", "ebpi"};
constexpr float kRegionPaddingPixels = 2.0f;  // both image methods' default (stencil.h, consistent_pairs.h)
constexpr size_t kExamplesPerClause = 8;
// aabb-tree moves B into A's space in float: contacts closer than this fraction of the pair's size may
// go either way (the tolerance of tests/aabb_tree, kNearTouchRelative).
constexpr double kAabbTouchTolerance = 1e-6;

using PairKey = std::pair<uint32_t, uint32_t>;

struct Tallies {
    std::vector<ClauseTally> clauses;
    ClauseTally& at(const std::string& method, const std::string& clause) {
        for (ClauseTally& tally : clauses)
            if (tally.method == method && tally.clause == clause) return tally;
        ClauseTally& tally = clauses.emplace_back();
        tally.method = method;
        tally.clause = clause;
        return tally;
    }
};

// What one frame of one scene offers the checks.
struct FrameContext {
    const GeneratedScene& generated;
    size_t frame;
    const std::vector<TruthObject>& objects;
    const std::vector<TruthPair>& truth;
    const BroadphaseResults& pcs;
    Tallies& tallies;
    bool failed = false;

    void record(const std::string& method, const std::string& clause, bool ok, const std::string& what,
                bool limitation = false) {
        ClauseTally& tally = tallies.at(method, clause);
        tally.limitation = limitation;
        ++tally.cases;
        if (ok) return;
        ++tally.failures;
        failed = failed || !limitation;
        if (tally.failingScenes.empty() || tally.failingScenes.back() != generated.id) tally.failingScenes.push_back(generated.id);
        if (tally.examples.size() < kExamplesPerClause)
            tally.examples.push_back("scene " + generated.id + " (" + generated.kind + ") frame " + std::to_string(frame) + ": " + what);
    }
    const TruthPair* truthOf(PairKey key) const {
        for (const TruthPair& pair : truth)
            if (pair.a == key.first && pair.b == key.second) return &pair;
        return nullptr;
    }
};

std::string pairName(PairKey key) { return "pair " + std::to_string(key.first) + "-" + std::to_string(key.second); }

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

std::map<PairKey, const PairResult*> reportedPairs(const FrameResults& results) {
    std::map<PairKey, const PairResult*> out;
    for (const PairResult& pair : results.pairs) out[{pair.a, pair.b}] = &pair;
    return out;
}

// Largest pixel side of a view fitted to the union of the candidate boxes' overlaps (all
// candidate pairs, or only `only`: ldi fits one view per pair to its volume of interest, which
// lies inside the overlap of the pair's boxes).
double pixelSize(const FrameContext& frame, uint32_t resolution, std::optional<PairKey> only = std::nullopt) {
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    auto include = [&](glm::dvec3 aMin, glm::dvec3 aMax, glm::dvec3 bMin, glm::dvec3 bMax) {
        lo = glm::min(lo, glm::max(aMin, bMin));
        hi = glm::max(hi, glm::min(aMax, bMax));
    };
    for (const ObjectPair& pair : frame.pcs.pairs) {
        if (only && *only != PairKey{pair.a, pair.b}) continue;
        const Aabb& a = frame.pcs.worldBounds[pair.a];
        const Aabb& b = frame.pcs.worldBounds[pair.b];
        include(a.min, a.max, b.min, b.max);
    }
    for (const TruthPair& pair : frame.truth) {
        if (only && *only != PairKey{pair.a, pair.b}) continue;
        const reference::WorldBounds& a = frame.objects[pair.a].bounds;
        const reference::WorldBounds& b = frame.objects[pair.b].bounds;
        include(a.min, a.max, b.min, b.max);
    }
    if (lo.x > hi.x) return 0.0;
    const glm::dvec3 extent = hi - lo;
    return std::max({extent.x, extent.y, extent.z}) / (double(resolution) - 2.0 * kRegionPaddingPixels);
}

glm::dvec3 depthDirection(const FrameContext& frame, PairKey key) {
    if (auto found = frame.generated.directions.find(key); found != frame.generated.directions.end()) return found->second;
    const reference::WorldBounds& a = frame.objects[key.first].bounds;
    const reference::WorldBounds& b = frame.objects[key.second].bounds;
    const glm::dvec3 line = (b.min + b.max) - (a.min + a.max);
    return glm::length(line) > 0.0 ? glm::normalize(line) : glm::dvec3(1.0, 0.0, 0.0);
}

// The size of a pair, for tolerances relative to it: the longer of its boxes' largest sides.
double pairSize(const FrameContext& frame, PairKey key) {
    double size = 0.0;
    for (uint32_t object : {key.first, key.second}) {
        const reference::WorldBounds& box = frame.objects[object].bounds;
        size = std::max({size, box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z});
    }
    return size;
}

// Whether the pair touches within `tolerance` (relative to its size): overlapping by at most that
// along its depth direction, or apart by at most that.
Result<bool> touchesWithin(FrameContext& frame, PairKey key, bool interfering, double tolerance) {
    const double limit = tolerance * pairSize(frame, key);
    const TruthObject& a = frame.objects[key.first];
    const TruthObject& b = frame.objects[key.second];
    if (!interfering) return separationDistance(a, b) <= limit;
    auto depth = overlapDepth(a, b, depthDirection(frame, key));
    if (!depth) return depth.status();
    return depth.value() <= limit;
}

// Pairs and triangle-pair counts equal the truth's, except, with a `touchTolerance` > 0, for
// pairs touching within that fraction of their size (aabb-tree moves one object into the other's
// space in float: ~1e-7 relative, so contacts that close may go either way).
Status checkExactPairs(FrameContext& frame, const std::string& method, const FrameResults& results,
                       double touchTolerance, bool surfacesOnly) {
    const auto reported = reportedPairs(results);
    std::set<PairKey> expected;
    for (const TruthPair& pair : frame.truth)
        if (pair.interfering && (!surfacesOnly || pair.trianglePairs > 0)) expected.insert({pair.a, pair.b});
    std::set<PairKey> all = expected;
    for (const auto& [key, pair] : reported) all.insert(key);
    for (PairKey key : all) {
        const bool want = expected.count(key) > 0, got = reported.count(key) > 0;
        uint64_t truthCount = 0;
        std::optional<uint64_t> count;
        if (want && got) {
            truthCount = frame.truthOf(key)->trianglePairs;
            count = reported.at(key)->trianglePairs;
        }
        const bool pairOk = want == got, countOk = !(want && got) || count == truthCount;
        bool touching = false;
        if ((!pairOk || !countOk) && touchTolerance > 0.0) {
            auto within = touchesWithin(frame, key, want, touchTolerance);
            if (!within) return within.status();
            touching = within.value();
        }
        frame.record(method, "pairs", pairOk || touching, pairName(key) + (want ? " missed" : " reported but disjoint"));
        if (!want || !got) continue;
        frame.record(method, "triangle-pairs", countOk || touching,
                     pairName(key) + ": " + (count ? std::to_string(*count) : std::string("no count")) + " triangle pairs, exact " +
                         std::to_string(truthCount));
    }
    return Status::success();
}

// Every interfering pair overlapping by more than `foundPixels` (of pixelOf(pair)) was reported.
// A pair in `undecided` (stencil's own "cannot tell") is not a miss: it counts under the measured
// limitation "undecided" when it really overlaps deeper than the bound.
template <typename PixelOf>
Status checkFound(FrameContext& frame, const std::string& method, const std::map<PairKey, const PairResult*>& reported,
                  float foundPixels, PixelOf pixelOf, const std::set<PairKey>& undecided = {}) {
    for (const TruthPair& pair : frame.truth) {
        const PairKey key{pair.a, pair.b};
        if (!pair.interfering) continue;
        if (reported.count(key)) {
            frame.record(method, "found", true, "");
            continue;
        }
        const double pixel = pixelOf(key);
        auto depth = overlapDepth(frame.objects[pair.a], frame.objects[pair.b], depthDirection(frame, key));
        if (!depth) return depth.status();
        const bool shallow = depth.value() <= foundPixels * pixel;
        const std::string what = pairName(key) + " missed, overlapping by " + number(depth.value() / pixel) +
                                 " px (pixel " + number(pixel) + ")";
        if (undecided.count(key) && !shallow) {
            frame.record(method, "found", true, "");
            frame.record(method, "undecided", false, what + ", listed undecided", true);
            continue;
        }
        frame.record(method, "found", shallow, what);
    }
    return Status::success();
}

Status checkImagePairs(FrameContext& frame, const std::string& method, const FrameResults& results, uint32_t resolution,
                       const MethodBounds& bounds, const std::set<PairKey>& undecided = {}) {
    const auto reported = reportedPairs(results);
    const double pixel = pixelSize(frame, resolution);
    VKC_TRY(checkFound(frame, method, reported, bounds.foundPixels, [pixel](PairKey) { return pixel; }, undecided));
    for (const TruthPair& pair : frame.truth)
        if (!pair.interfering && !reported.count({pair.a, pair.b})) frame.record(method, "separated", true, "");
    for (const auto& [key, result] : reported) {
        const TruthPair* truth = frame.truthOf(key);
        if (truth && truth->interfering) continue;
        const double distance = separationDistance(frame.objects[key.first], frame.objects[key.second]);
        frame.record(method, "separated", distance <= bounds.separatedPixels * pixel,
                     pairName(key) + " reported, " + number(distance / pixel) + " px apart (pixel " + number(pixel) + ")");
    }
    return Status::success();
}

Status checkVolumes(FrameContext& frame, const FrameResults& results, uint32_t resolution, float foundPixels) {
    const auto reported = reportedPairs(results);
    VKC_TRY(checkFound(frame, "ldi", reported, foundPixels,
                       [&frame, resolution](PairKey key) { return pixelSize(frame, resolution, key); }));
    for (const auto& [key, result] : reported) {
        const TruthPair* truth = frame.truthOf(key);
        // A pair whose exact volume CGAL could not compute has no clause to check.
        if (truth && truth->interfering && !truth->volume) continue;
        const double exact = truth && truth->volume ? *truth->volume : 0.0;
        const bool ok = result->volume && result->volumeErrorBound &&
                        std::abs(*result->volume - exact) <= *result->volumeErrorBound;
        frame.record("ldi", "volume", ok,
                     pairName(key) + ": volume " + (result->volume ? number(*result->volume) : "absent") + ", bound " +
                         (result->volumeErrorBound ? number(*result->volumeErrorBound) : "absent") + ", exact " + number(exact));
    }
    return Status::success();
}

// Why a pair was truncated, from its details (the warning has the whole reason).
std::string ebpiTruncation(const EbpiPairDetails& pair) {
    if (pair.boundNotMet) return "the finest splits miss the tolerance";
    if (pair.truncatedRays) return std::to_string(pair.truncatedRays) + " rays past hitCapacity";
    if (pair.oddRays) return std::to_string(pair.oddRays) + " odd rays";
    return "maxRays, an overflow or float resolution";
}

// ebpi's contract: every tested pair (details lists them all, a zero volume too) is within its
// bound of the exact volume and its bound within the tolerance (for a fraction of each pair's
// volume, of the exact volume: ebpiPairTolerance); a pair whose exact volume exceeds its tolerance
// is reported. A truncated pair fails ("truncated"): the harness grows every capacity to the
// frame's need. Where the device cannot hold that need even for the pair alone (`runner`'s
// beyondDevice), its truncation or a bound above the tolerance is the measured limitation
// "beyond-device" instead, so that only memory, never a budget the harness could raise, excuses it.
Status checkEbpi(FrameContext& frame, const FrameResults& results, const EbpiFrameDetails& details,
                 const tools::EbpiRunner& runner) {
    const tools::EbpiTolerance& tolerance = runner.tolerance;
    const auto reported = reportedPairs(results);
    auto toleranceOf = [&](uint32_t a, uint32_t b, double exact) {
        auto tested = std::find_if(details.pairs.begin(), details.pairs.end(),
                                   [&](const EbpiPairDetails& pair) { return pair.a == a && pair.b == b; });
        const double floatBound = tested == details.pairs.end() ? 0.0 : tested->floatRoundingBound;
        return tools::ebpiPairTolerance(tolerance, exact, tools::smallerObjectSizeCubed(frame.pcs, a, b), floatBound);
    };
    for (const EbpiPairDetails& pair : details.pairs) {
        const PairKey key{pair.a, pair.b};
        const TruthPair* truth = frame.truthOf(key);
        if (truth && truth->interfering && !truth->volume) continue;  // CGAL had no volume for it
        const double exact = truth && truth->volume ? *truth->volume : 0.0;
        const bool beyondDevice = runner.passesTheDevice({pair.a, pair.b});
        if (pair.truncated) {
            frame.record("ebpi", beyondDevice ? "beyond-device" : "truncated", false,
                         pairName(key) + " truncated (" + ebpiTruncation(pair) + "), exact volume " + number(exact) +
                             ", " + std::to_string(pair.rays) + " rays",
                         beyondDevice);
            frame.record("ebpi", "truncated-reported", reported.count(key) && !results.warnings.empty(),
                         pairName(key) + " truncated without a reported pair and a warning");
            continue;
        }
        frame.record("ebpi", "volume", std::abs(pair.volume - exact) <= pair.volumeErrorBound,
                     pairName(key) + ": volume " + number(pair.volume) + ", bound " + number(pair.volumeErrorBound) +
                         ", exact " + number(exact));
        const double allowed = toleranceOf(pair.a, pair.b, exact);
        frame.record("ebpi", beyondDevice ? "beyond-device" : "bound", pair.volumeErrorBound <= allowed,
                     pairName(key) + ": bound " + number(pair.volumeErrorBound) + " over the tolerance " + number(allowed),
                     beyondDevice);
    }
    for (const TruthPair& pair : frame.truth)
        if (pair.volume && *pair.volume > toleranceOf(pair.a, pair.b, *pair.volume))
            frame.record("ebpi", "found", reported.count({pair.a, pair.b}) > 0,
                         pairName({pair.a, pair.b}) + " missed, exact volume " + number(*pair.volume));
    return Status::success();
}

struct Methods {
    Context& context;
    const CampaignOptions& options;
    std::optional<AabbTreeDetector> aabbTree;
    StencilFrameDetails stencilDetails;  // of the last stencil frame run, for its check
    std::optional<StencilDetector> stencil;
    std::optional<ConsistentPairsDetector> consistentPairs;
    tools::LdiRunner ldi;
    tools::EbpiRunner ebpi;
    EbpiFrameDetails ebpiDetails;  // of the last ebpi frame run, for its check

    Status create(const std::vector<std::string>& methods) {
        auto wants = [&](const char* id) { return std::find(methods.begin(), methods.end(), id) != methods.end(); };
        if (wants("aabb-tree")) {
            auto detector = AabbTreeDetector::create(context);
            if (!detector) return detector.status();
            aabbTree = std::move(detector.value());
        }
        if (wants("stencil")) {
            StencilSettings settings;
            settings.resolution = options.stencilResolution;
            auto detector = StencilDetector::create(context, settings);
            if (!detector) return detector.status();
            stencil = std::move(detector.value());
        }
        if (wants("consistent-pairs")) {
            ConsistentPairsSettings settings;
            settings.resolution = options.consistentPairsResolution;
            auto detector = ConsistentPairsDetector::create(context, settings);
            if (!detector) return detector.status();
            consistentPairs = std::move(detector.value());
        }
        ldi.settings.resolution = options.ldiResolution;
        ldi.boundFraction = 0.0;  // the contract is checked at that resolution, not refined past it
        return Status::success();
    }

    // The CLI's ldi runner grows its detector to a frame's pair count (up to what the device
    // binds, then it runs batches) and keeps it: a fresh one per scene keeps memory to the scene.
    // ebpi's grows too (capacities and tolerance follow the scene's pairs).
    void newScene() {
        ldi.detector.reset();
        ldi.settings.maxPairs = 0;
        ldi.batchLimit = 0;
        ebpi.detector.reset();
        ebpi.tolerance = options.ebpiTolerance;
    }

    Result<FrameResults> run(const std::string& method, const io::SceneDescription& description, const io::SceneFrame& frame,
                             const Scene& scene, const BroadphaseResults& pcs) {
        if (method == "exact") return tools::runExactFrame(description, frame, false);
        if (method == "aabb-tree") return tools::runAabbTreeFrame(context, aabbTree, scene, pcs, false);
        if (method == "stencil") return stencil->run(scene, pcs, &stencilDetails);
        if (method == "consistent-pairs") return consistentPairs->run(scene, pcs);
        if (method == "ebpi") return tools::runEbpiFrame(context, ebpi, scene, pcs, &ebpiDetails);
        return tools::runLdiFrame(context, ldi, scene, pcs);
    }

    Status check(FrameContext& frame, const std::string& method, const FrameResults& results) {
        if (method == "exact") return checkExactPairs(frame, method, results, 0.0, false);
        if (method == "aabb-tree") return checkExactPairs(frame, method, results, kAabbTouchTolerance, true);
        if (method == "stencil") {
            std::set<PairKey> undecided;
            for (const ObjectPair& pair : stencilDetails.undecidedPairs) undecided.insert({pair.a, pair.b});
            return checkImagePairs(frame, method, results, options.stencilResolution, options.stencil, undecided);
        }
        if (method == "consistent-pairs")
            return checkImagePairs(frame, method, results, options.consistentPairsResolution, options.consistentPairs);
        if (method == "ebpi") return checkEbpi(frame, results, ebpiDetails, ebpi);
        return checkVolumes(frame, results, options.ldiResolution, options.ldiFoundPixels);
    }
};

bool imageMethod(const std::string& method) { return method != "exact" && method != "aabb-tree"; }

}  // namespace

uint64_t CampaignSummary::failures() const {
    uint64_t total = 0;
    for (const ClauseTally& tally : clauses) total += tally.contractFailures();
    return total;
}

Result<CampaignSummary> runCampaign(Context& context, const CampaignOptions& options, std::ostream* log) {
    std::vector<std::string> methods = options.methods;
    if (methods.empty()) methods.assign(std::begin(kAllMethods), std::end(kAllMethods));
    for (const std::string& method : methods)
        if (std::find(std::begin(kAllMethods), std::end(kAllMethods), method) == std::end(kAllMethods))
            return makeError(ErrorCode::InvalidArgument, "difftest: unknown method \"" + method + "\"");
    const bool wantVolumes = std::find(methods.begin(), methods.end(), "ldi") != methods.end() ||
                             std::find(methods.begin(), methods.end(), "ebpi") != methods.end();

    auto pool = MeshPool::load(options.meshDir, options.ciSize);
    if (!pool) return pool.status();
    Methods runners{context, options, {}, {}, {}, {}, {}, {}, {}};
    VKC_TRY(runners.create(methods));
    auto broadphase = Broadphase::create(context);
    if (!broadphase) return broadphase.status();

    CampaignSummary summary;
    Tallies tallies;
    for (const std::string& method : methods) tallies.at(method, "runs");
    const auto campaignStart = std::chrono::steady_clock::now();
    for (uint64_t index = options.firstIndex; index < options.firstIndex + options.scenes; ++index) {
        const auto start = std::chrono::steady_clock::now();
        if (options.maxSeconds > 0 && std::chrono::duration<double>(start - campaignStart).count() > options.maxSeconds) break;
        auto generated = generateScene(pool.value(), options.seed, index, options.ciSize);
        if (!generated) return generated.status();
        auto description = io::parseScene(generated->file.dump(), options.meshDir, generated->id);
        if (!description) return description.status();
        auto scene = io::buildScene(context, description.value(), kObjectSpaceMethodRequirements);
        if (!scene) return scene.status();
        bool failed = false;
        for (size_t f = 0; f < description->frameCount(); ++f) {
            const io::SceneFrame& sceneFrame = description->frames[f];
            VKC_TRY(io::applyFrame(scene.value(), sceneFrame));
            auto pcs = broadphase->run(scene.value());
            if (!pcs) return pcs.status();
            std::vector<TruthObject> objects;
            for (size_t i = 0; i < description->objects.size(); ++i) {
                auto object = placeObject(description->meshOf(i), sceneFrame.poses[i], true);
                if (!object) return object.status();
                objects.push_back(std::move(object).value());
            }
            if (f == 0) runners.newScene();
            auto truth = truthPairs(objects, wantVolumes && generated->closedOnly);
            if (!truth) return truth.status();
            FrameContext frame{generated.value(), f, objects, truth.value(), pcs.value(), tallies};
            for (const std::string& method : methods) {
                if (imageMethod(method) && !generated->closedOnly) continue;
                auto results = runners.run(method, description.value(), sceneFrame, scene.value(), pcs.value());
                frame.record(method, "runs", results.ok(), results ? "" : results.status().describe());
                if (results) VKC_TRY(runners.check(frame, method, results.value()));
            }
            failed |= frame.failed;
        }
        ++summary.scenes;
        if (failed && !options.outDir.empty()) {
            auto written = writeSceneFile(generated.value(), pool.value(), options.outDir);
            if (!written) return written.status();
            summary.writtenScenes.push_back(written->string());
        }
        if (log) {
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            *log << "scene " << generated->id << " " << generated->kind << ": " << description->objects.size() << " objects, "
                 << description->frameCount() << " frames, " << number(seconds) << " s" << (failed ? ", FAILED" : "") << std::endl;
        }
    }
    summary.clauses = std::move(tallies.clauses);
    return summary;
}

std::string formatSummary(const CampaignSummary& summary) {
    std::ostringstream out;
    out << summary.scenes << " scenes\n";
    out << "| method | clause | cases | failures | failing scenes (seed-index) |\n|---|---|---|---|---|\n";
    for (const ClauseTally& tally : summary.clauses) {
        out << "| " << tally.method << " | " << tally.clause << (tally.limitation ? " (measured limitation)" : "") << " | "
            << tally.cases << " | " << tally.failures << " | ";
        for (size_t i = 0; i < tally.failingScenes.size(); ++i) out << (i ? " " : "") << tally.failingScenes[i];
        out << " |\n";
    }
    for (const ClauseTally& tally : summary.clauses)
        for (const std::string& example : tally.examples) out << tally.method << " " << tally.clause << ": " << example << "\n";
    for (const std::string& path : summary.writtenScenes) out << "failing scene written: " << path << "\n";
    return out.str();
}

}  // namespace vkc::difftest
