// The test processes' fatal-signal backtrace (tests/support/crash_backtrace.h): a crash, or glibc
// aborting on a corrupted heap, prints where it happened before the process dies.
#include "tests/support/crash_backtrace.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

namespace vkc::test {
namespace {

#if !defined(__SANITIZE_ADDRESS__)
TEST(CrashBacktraceDeathTest, AFatalSignalPrintsTheStackAndStillKillsTheProcess) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    for (int signal : {SIGSEGV, SIGABRT}) {
        EXPECT_EXIT(
            {
                installCrashBacktrace();
                std::raise(signal);
                std::exit(0);  // not reached: the handler re-raises with the default action
            },
            ::testing::KilledBySignal(signal),
            "vkcollide test: fatal signal [0-9][0-9], backtrace:\n(.*\n)*.*(raise|gsignal)")
            << "signal " << signal;
    }
}
#endif

}  // namespace
}  // namespace vkc::test
