// The process-wide context and broadphase of the benchmarks that time the broadphase or a method
// on its pairs: created once, because lavapipe compiles pipelines at first use, which must not
// land in a timed loop. A setup derives from it to add its detectors and cases, which are then
// destroyed before the context.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"

#include <memory>
#include <string>

namespace vkc::bench {

struct BroadphaseSetup {
    Context context;
    std::unique_ptr<Broadphase> broadphase;
    std::string error;  // why the context or broadphase is missing (no device, ...)
};

// Creates the benchmark context and a broadphase with `settings` in `setup`; false with
// setup.error set when either fails.
bool createContextAndBroadphase(BroadphaseSetup& setup, const BroadphaseSettings& settings = {});

}  // namespace vkc::bench
