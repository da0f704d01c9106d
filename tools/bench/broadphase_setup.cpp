// The benchmarks' shared context and broadphase (see broadphase_setup.h).
#include "tools/bench/broadphase_setup.h"

#include "tools/bench/bench_context.h"

#include <utility>

namespace vkc::bench {

bool createContextAndBroadphase(BroadphaseSetup& setup, const BroadphaseSettings& settings) {
    auto context = createBenchContext();
    if (!context) {
        setup.error = context.status().describe();
        return false;
    }
    setup.context = std::move(context.value());
    auto broadphase = Broadphase::create(setup.context, settings);
    if (!broadphase) {
        setup.error = broadphase.status().describe();
        return false;
    }
    setup.broadphase = std::make_unique<Broadphase>(std::move(broadphase.value()));
    return true;
}

}  // namespace vkc::bench
