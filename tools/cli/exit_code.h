// The exit status of a harness command that runs to a Status (README "Exit codes"): 0 success,
// 2 what this device cannot run (Unsupported), 1 any other error, which goes to standard error as
// "vkcollide <command>: <what failed>".
#pragma once

#include "vkcollide/status.h"

#include <iostream>

namespace vkc::tools {

inline int commandExitCode(const char* command, const Status& status) {
    if (status.ok()) return 0;
    std::cerr << "vkcollide " << command << ": " << status.describe() << "\n";
    return status.code == ErrorCode::Unsupported ? 2 : 1;
}

}  // namespace vkc::tools
