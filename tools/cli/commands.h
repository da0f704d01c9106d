// The CLI's subcommands; each registers itself on the app and sets exitCode when it runs.
#pragma once

namespace CLI {
class App;
}

namespace vkc::tools {

void addInfoCommand(CLI::App& app, int& exitCode);
void addDetectCommand(CLI::App& app, int& exitCode);
void addCompareCommand(CLI::App& app, int& exitCode);
void addCheckMeshCommand(CLI::App& app, int& exitCode);

}  // namespace vkc::tools
