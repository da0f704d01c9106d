// GPU pass timings (the gpuTimingsMs of a run's results, per pass label) summed over a benchmark's
// timed iterations and reported per iteration, so that every benchmark's gpu_* columns mean the same.
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <string>

namespace vkc::bench {

// A counter Google Benchmark divides by the iteration count.
inline benchmark::Counter perIteration(double value) {
    return benchmark::Counter(value, benchmark::Counter::kAvgIterations);
}

class GpuTimings {
public:
    void add(const std::map<std::string, double>& passMs) {
        for (const auto& [pass, ms] : passMs) passMs_[pass] += ms;
    }

    // Milliseconds over every pass, or over the passes `select` accepts.
    double totalMs(const std::function<bool(const std::string&)>& select = nullptr) const {
        double total = 0.0;
        for (const auto& [pass, ms] : passMs_)
            if (!select || select(pass)) total += ms;
        return total;
    }

    // gpu_ms: every pass, per iteration.
    void setTotalCounter(benchmark::State& state) const { state.counters["gpu_ms"] = perIteration(totalMs()); }

    // gpu_<column>_ms per iteration, where `column` names each pass label's column (the label
    // itself by default; passes a column sums must be named alike in every benchmark of a CSV).
    void setPassCounters(benchmark::State& state,
                         const std::function<std::string(const std::string&)>& column = nullptr) const {
        std::map<std::string, double> columnMs;
        for (const auto& [pass, ms] : passMs_) columnMs[column ? column(pass) : pass] += ms;
        for (const auto& [name, ms] : columnMs) state.counters["gpu_" + name + "_ms"] = perIteration(ms);
    }

private:
    std::map<std::string, double> passMs_;
};

}  // namespace vkc::bench
