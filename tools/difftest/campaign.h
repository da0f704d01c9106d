// The differential campaign: generated scenes (scene_generator.h) run through every method and
// checked against the independent double-precision truth (truth.h) under each method's contract:
//   exact              pairs: the same interfering pairs (containment too); triangle-pairs: equal
//                      counts per pair.
//   aabb-tree          the same for pairs whose surfaces intersect (it counts triangle pairs, so a
//                      contained object is no pair), but for contacts within 1e-6 of the pair's size.
//   stencil,           found: every pair overlapping by more than foundPixels is reported (stencil:
//   consistent-pairs   or listed undecided; "undecided" measures how many real overlaps that is);
//                      separated: no pair farther apart than separatedPixels is reported.
//   ldi                found: every pair overlapping by more than ldiFoundPixels of its own
//                      view (fitted to the pair's box overlap) is reported;
//                      volume: |volume - exact| <= volume_error_bound for every reported pair.
//   ebpi               volume: |volume - exact| <= volume_error_bound for every tested pair that
//                      is not truncated (a zero volume too); bound: that bound <= the tolerance
//                      (by default 2% of the pair's exact volume); found: every pair whose exact
//                      volume exceeds the tolerance is reported; truncated: no pair is (the harness
//                      grows to the frame's need); truncated-reported: one that is anyway is
//                      reported, with a warning; "beyond-device" measures the pairs whose need the
//                      device cannot hold even alone (truncated, or a bound above the tolerance).
//   every method       runs: the method returns results (no error) on every frame.
// Pixels are those of the fitted view, sized conservatively (largest) from the boxes the methods
// fit to: the union of the overlaps of all broadphase-candidate boxes (GPU boxes and the truth's
// double boxes), its largest side over resolution minus the padding pixels.
#pragma once

#include "tools/cli/ebpi_method.h"
#include "tools/difftest/scene_generator.h"
#include "vkcollide/context.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace vkc::difftest {

struct MethodBounds {
    float foundPixels = 0;      // a pair overlapping deeper than this must be found
    float separatedPixels = 0;  // a pair farther apart than this must not be reported
};

struct CampaignOptions {
    uint64_t seed = 1;
    uint64_t firstIndex = 0;
    uint64_t scenes = 12;
    double maxSeconds = 0;             // > 0: stop after the scene that passes this wall time
    std::vector<std::string> methods;  // empty: all of exact, aabb-tree, stencil, consistent-pairs, ldi, ebpi
    std::filesystem::path meshDir;     // ../shared/meshes
    std::filesystem::path outDir;      // failing scenes are written here; empty: not written
    bool ciSize = false;               // small meshes and 40-object crowds
    uint32_t stencilResolution = 512;
    uint32_t consistentPairsResolution = 1024;
    uint32_t ldiResolution = 256;
    // Stencil: edges move by 0.5 px and the region grows by 2 px, so 2 px either way.
    MethodBounds stencil{2.0f, 2.0f};
    // Consistent pairs: surfaces closer than 1.5 px join, so a 3 px gap must never be reported.
    MethodBounds consistentPairs{2.0f, 3.0f};
    // Ldi: a pair overlapping by 2 px of its view covers whole pixels' rays: it must be reported.
    float ldiFoundPixels = 2.0f;
    // Ebpi: its tolerance (tools/cli/ebpi_method.h), by default 2% of each pair's volume.
    tools::EbpiTolerance ebpiTolerance = tools::kDefaultEbpiTolerance;
};

struct ClauseTally {
    std::string method;
    std::string clause;
    uint64_t cases = 0;
    uint64_t failures = 0;
    std::vector<std::string> failingScenes;  // scene ids "<seed>-<index>"
    std::vector<std::string> examples;       // the first few failures, in words
    // A measured limitation, not a contract: its "failures" count the cases the method declared it
    // could not decide (stencil's undecided pairs that really overlap); they fail no run.
    bool limitation = false;
    uint64_t contractFailures() const { return limitation ? 0 : failures; }
};

struct CampaignSummary {
    std::vector<ClauseTally> clauses;
    std::vector<std::string> writtenScenes;  // failing scene files
    uint64_t scenes = 0;
    uint64_t failures() const;
};

// Runs scenes firstIndex .. firstIndex + scenes - 1 of `seed`. `log` (optional) gets a line per scene.
// Errors: the mesh pool or a scene cannot be generated, a detector cannot be created.
Result<CampaignSummary> runCampaign(Context& context, const CampaignOptions& options, std::ostream* log);

// The table (method x clause: cases, failures) and the failing scene ids.
std::string formatSummary(const CampaignSummary& summary);

}  // namespace vkc::difftest
