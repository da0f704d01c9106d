// The benchmarks' headless context (see bench_context.h).
#include "tools/bench/bench_context.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace vkc::bench {
namespace {

void logToStderr(void*, LogLevel level, const char* message) {
    if (level >= LogLevel::Warning) std::fprintf(stderr, "%s\n", message);
}

}  // namespace

Result<Context> createBenchContext() {
    HeadlessDesc desc{};
    desc.log = logToStderr;
    return createHeadlessContext(desc);
}

bool envIsOne(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && std::string(value) == "1";
}

}  // namespace vkc::bench
