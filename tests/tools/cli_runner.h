// Runs the vkcollide CLI (or another program) built beside the tests and captures its exit code
// and output; reads the JSON it writes; gives each test a folder of its own to write in.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace vkc::test {

struct CliRun {
    int exitCode = -1;     // -1: killed by a signal (a crash)
    std::string output;    // stdout and stderr together
};

// Runs `commandLine` (stderr into the output too).
inline CliRun runProgram(const std::string& commandLine) {
    CliRun run;
    const std::string command = commandLine + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return run;
    char buffer[4096];
    size_t read = 0;
    while ((read = fread(buffer, 1, sizeof(buffer), pipe)) > 0) run.output.append(buffer, read);
    int status = pclose(pipe);
    if (WIFEXITED(status)) run.exitCode = WEXITSTATUS(status);
    return run;
}

// Every `detect` and `compare` a test runs is validated: a validation message fails it with exit 1.
inline CliRun runCli(const std::string& arguments) {
    const bool validated = arguments.rfind("detect ", 0) == 0 || arguments.rfind("compare ", 0) == 0;
    return runProgram(std::string(VKC_CLI_PATH) + " " + arguments + (validated ? " --validate" : ""));
}

inline std::string sourcePath(const std::string& relative) { return std::string(VKC_SOURCE_DIR) + "/" + relative; }

// A folder for the running test alone, emptied the first time the test asks for it: ctest runs
// tests in parallel, and several checkouts may share /tmp, so it is named by test and process.
inline std::filesystem::path scratchDirectory() {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string test = std::string(info->test_suite_name()) + "." + info->name();
    std::replace(test.begin(), test.end(), '/', '.');  // parameterised names have slashes
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "vkc_tests" / (test + "." + std::to_string(getpid()));
    static std::filesystem::path emptied;
    if (emptied != dir) {
        std::filesystem::remove_all(dir);
        emptied = dir;
    }
    std::filesystem::create_directories(dir);
    return dir;
}

inline nlohmann::json readJson(const std::filesystem::path& path) {
    std::ifstream file(path);
    return nlohmann::json::parse(file);
}

}  // namespace vkc::test
