// vkcollide: the offline harness. Subcommands: info, detect, compare, check-mesh (see README.md).
#include "tools/cli/commands.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"vkcollide: GPU collision and interference detection on Vulkan"};
    app.require_subcommand(1);
    int exitCode = 0;
    vkc::tools::addInfoCommand(app, exitCode);
    vkc::tools::addDetectCommand(app, exitCode);
    vkc::tools::addCompareCommand(app, exitCode);
    vkc::tools::addCheckMeshCommand(app, exitCode);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        // CLI11 prints the message (or the help) and returns its own codes (105, 106, 109, ...);
        // the documented status for any command-line error is 1.
        return app.exit(error) == 0 ? 0 : 1;
    } catch (const std::exception& error) {
        std::cerr << "vkcollide: " << error.what() << "\n";
        return 1;
    }
    return exitCode;
}
