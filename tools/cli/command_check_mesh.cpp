// `vkcollide check-mesh FILE...`: loads each mesh, runs the library's mesh checks and the oracle's
// self-intersection test, prints every problem, and exits non-zero if any file has one.
#include "collision/reference/self_intersections.h"
#include "tools/cli/commands.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/mesh_checks.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace vkc::tools {

namespace {

struct CheckMeshOptions {
    std::vector<std::string> files;
    bool selfIntersections = true;
};

// Prints the verdict for one file; returns whether it is a clean closed solid.
bool checkOneFile(const std::string& file, const CheckMeshOptions& options) {
    auto mesh = io::loadMesh(file);
    if (!mesh) {
        std::cout << file << ": cannot load: " << mesh.status().describe() << "\n";
        return false;
    }
    MeshCheckReport report = checkMesh(mesh.value());
    std::vector<std::string> problems = report.describe();
    if (options.selfIntersections && report.validForVolumeMethods()) {
        auto pairs = reference::selfIntersectingTrianglePairs(mesh.value());
        if (!pairs)
            problems.push_back("self-intersection test failed: " + pairs.status().describe());
        else if (pairs.value() > 0)
            problems.push_back("self-intersecting: " + std::to_string(pairs.value()) +
                               " pairs of non-adjacent triangles intersect (volumes are not well defined)");
    }
    std::cout << file << ": " << report.vertexCount << " vertices, " << report.triangleCount << " triangles";
    if (problems.empty()) {
        std::cout << ": ok, closed solid, volume " << report.signedVolume << "\n";
        return true;
    }
    std::cout << "\n";
    for (const std::string& problem : problems) std::cout << "  " << problem << "\n";
    return false;
}

}  // namespace

void addCheckMeshCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<CheckMeshOptions>();
    CLI::App* command = app.add_subcommand("check-mesh", "Check meshes for what the collision methods need");
    command->add_option("files", options->files, "Mesh files (.obj .off .stl .ply .gltf .glb)")->required();
    command->add_flag("!--no-self-intersections", options->selfIntersections,
                      "Skip the exact self-intersection test (slow on millions of triangles)");
    command->callback([options, &exitCode] {
        bool allClean = true;
        for (const std::string& file : options->files) allClean = checkOneFile(file, *options) && allClean;
        exitCode = allClean ? 0 : 1;
    });
}

}  // namespace vkc::tools
