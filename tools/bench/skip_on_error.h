// Ends a benchmark case whose setup or timed call failed, with the library's description of why.
#pragma once

#include "vkcollide/status.h"

#include <benchmark/benchmark.h>

namespace vkc::bench {

// True (and the case marked skipped with the status's description) when `result` failed.
template <class T>
bool skippedOnError(benchmark::State& state, const Result<T>& result) {
    if (result) return false;
    state.SkipWithError(result.status().describe().c_str());
    return true;
}

}  // namespace vkc::bench
