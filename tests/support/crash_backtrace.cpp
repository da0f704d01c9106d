// Fatal-signal backtraces for the test processes: see crash_backtrace.h.
#include "tests/support/crash_backtrace.h"

#include <execinfo.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <initializer_list>

namespace vkc::test {

namespace {

// Async-signal-safe: write(2) and backtrace_symbols_fd only (backtrace itself is primed at
// installation, so that its first call does not load libgcc inside the handler).
void printBacktrace(int signal) {
    char text[] = "\nvkcollide test: fatal signal 00, backtrace:\n";
    char* digits = strstr(text, "00");
    digits[0] = char('0' + signal / 10 % 10);
    digits[1] = char('0' + signal % 10);
    (void)!write(STDERR_FILENO, text, sizeof(text) - 1);
    void* frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

}  // namespace

// AddressSanitizer reports fatal signals itself, with more than a backtrace: its handlers stay.
void installCrashBacktrace() {
#if !defined(__SANITIZE_ADDRESS__)
    static const bool installed = [] {
        void* prime[1];
        backtrace(prime, 1);
        for (int signal : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) std::signal(signal, printBacktrace);
        return true;
    }();
    (void)installed;
#endif
}

}  // namespace vkc::test
