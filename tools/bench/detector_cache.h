// One detector per resolution, kept for the process: lavapipe compiles pipelines at first draw,
// which must not land in a timed loop, so each resolution pays that once.
#pragma once

#include "vkcollide/context.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace vkc::bench {

// The detector for settings.resolution, created with `settings` on first use; null with `error`
// set when creation fails.
template <class Detector>
Detector* cachedDetector(std::map<uint32_t, std::unique_ptr<Detector>>& detectors, Context& context,
                         const typename Detector::Settings& settings, std::string& error) {
    std::unique_ptr<Detector>& detector = detectors[settings.resolution];
    if (!detector) {
        auto created = Detector::create(context, settings);
        if (!created) {
            error = created.status().describe();
            return nullptr;
        }
        detector = std::make_unique<Detector>(std::move(created.value()));
    }
    return detector.get();
}

}  // namespace vkc::bench
