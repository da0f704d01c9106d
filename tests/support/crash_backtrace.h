// A fatal signal in a test process (a crash, or glibc aborting on a corrupted heap) prints the
// stack before the process dies: under parallel ctest on many cores such a failure may not
// reproduce, so its one log has to say where it happened.
#pragma once

namespace vkc::test {

// Installs the handlers once per process (later calls do nothing).
void installCrashBacktrace();

}  // namespace vkc::test
