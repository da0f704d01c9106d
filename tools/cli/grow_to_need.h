// Budgets that follow the need: the harness runs a blocking frame, reads what it needed from the
// frame's details (every method reports its counts exactly, even past a capacity), and runs it
// again on a detector whose capacities hold that need, until nothing is cut or the device cannot
// hold more. A growth that create() refuses (a buffer past one storage-buffer binding) ends with
// the last answer, still `truncated` where it was, and a warning naming the refusal.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"
#include "vkcollide/results.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace vkc::tools {

// The capacity for `needed` entries when `capacity` was too small: an eighth more, so that a need
// that grows a little each frame does not re-create the detector every frame, and little enough
// that a need close to what one binding holds still fits.
inline uint32_t capacityFor(uint64_t needed, uint32_t capacity, uint32_t limit = UINT32_MAX) {
    return uint32_t(std::min<uint64_t>(limit, std::max<uint64_t>(needed + needed / 8, uint64_t(capacity) + 1)));
}

// Settings whose maxCandidatePairs takes the frame's candidates (create() defaults it first, so
// it is read from the detector's settings).
template <class Settings>
std::optional<Settings> coveringCandidates(const Settings& current, const BroadphaseResults& pcs) {
    if (pcs.pairs.size() <= current.maxCandidatePairs) return std::nullopt;
    Settings grown = current;
    grown.maxCandidatePairs = uint32_t(std::bit_ceil(pcs.pairs.size()));
    return grown;
}

// Replaces `detector` with one made with `settings`; false, with the refusal as a warning of
// `results`, when create() refuses them (the old detector stays).
template <class Detector>
bool regrow(Context& context, std::optional<Detector>& detector, const typename Detector::Settings& settings,
            const char* method, FrameResults& results) {
    auto larger = Detector::create(context, settings);
    if (!larger) {
        results.warnings.push_back(std::string(method) + ": the frame needs larger capacities than the device holds: " +
                                   larger.status().message);
        return false;
    }
    detector.reset();  // its buffers go before the larger ones are used
    detector = std::move(larger.value());
    return true;
}

// The rule for a detector whose own run() grows what its frames report (ldi's layers): nothing
// for the harness to add.
template <class Settings, class Details>
std::optional<Settings> grownInPlace(const Settings&, const Details&) {
    return std::nullopt;
}

// One frame of `detector`, grown and run again while `grow(settings, details)` names settings that
// hold what the frame needed (std::nullopt: nothing was cut). `run(detector, details)` runs the
// frame; `details` ends as the last run's.
template <class Detector, class Details, class Run, class Grow>
Result<FrameResults> runToNeed(Context& context, std::optional<Detector>& detector, const char* method,
                               const BroadphaseResults& pcs, Details& details, Run&& run, Grow&& grow) {
    if (auto covering = coveringCandidates(detector->settings(), pcs)) {
        FrameResults refusal;
        if (!regrow(context, detector, *covering, method, refusal))
            return makeError(ErrorCode::InvalidArgument, refusal.warnings.front());
    }
    for (;;) {
        details = Details{};
        Result<FrameResults> results = run(*detector, details);
        if (!results) return results;
        std::optional<typename Detector::Settings> grown = grow(detector->settings(), details);
        if (!grown || !regrow(context, detector, *grown, method, results.value())) return results;
    }
}

}  // namespace vkc::tools
