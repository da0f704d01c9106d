// `vkcollide check-mesh FILE...`: loads each mesh, runs the library's mesh checks and the oracle's
// self-intersection test and prints every problem. Exit status: 0 all clean; 1 some file has a
// problem that methods refuse (cannot load, open, non-manifold, NaN, ...); 3 the worst is
// "caution": closed solids that self-intersect, whose volumes are not well defined (the meshes
// README's "caution" column) but which every method still accepts.
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

enum Verdict { kClean = 0, kProblem = 1, kCaution = 3 };

// Prints the verdict for one file.
Verdict checkOneFile(const std::string& file, const CheckMeshOptions& options) {
    auto mesh = io::loadMesh(file);
    if (!mesh) {
        std::cout << file << ": cannot load: " << mesh.status().describe() << "\n";
        return kProblem;
    }
    MeshCheckReport report = checkMesh(mesh.value());
    std::vector<std::string> problems = report.describe();
    Verdict verdict = problems.empty() ? kClean : kProblem;
    if (options.selfIntersections && report.validForVolumeMethods()) {
        auto pairs = reference::selfIntersectingTrianglePairs(mesh.value());
        if (!pairs) {
            problems.push_back("self-intersection test failed: " + pairs.status().describe());
            verdict = kProblem;
        } else if (pairs.value() > 0) {
            problems.push_back("caution: self-intersecting, " + std::to_string(pairs.value()) +
                               " pairs of non-adjacent triangles intersect (volumes are not well defined)");
            if (verdict == kClean) verdict = kCaution;
        }
    }
    std::cout << file << ": " << report.vertexCount << " vertices, " << report.triangleCount << " triangles";
    if (problems.empty()) {
        std::cout << ": ok, closed solid, volume " << report.signedVolume << "\n";
        return kClean;
    }
    std::cout << "\n";
    for (const std::string& problem : problems) std::cout << "  " << problem << "\n";
    return verdict;
}

}  // namespace

void addCheckMeshCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<CheckMeshOptions>();
    CLI::App* command = app.add_subcommand("check-mesh", "Check meshes for what the collision methods need");
    command->add_option("files", options->files, "Mesh files (.obj .off .stl .ply .gltf .glb)")->required();
    command->add_flag("!--no-self-intersections", options->selfIntersections,
                      "Skip the exact self-intersection test (slow on millions of triangles)");
    command->callback([options, &exitCode] {
        Verdict worst = kClean;
        for (const std::string& file : options->files) {
            Verdict verdict = checkOneFile(file, *options);
            if (verdict == kProblem || (verdict == kCaution && worst == kClean)) worst = verdict;
        }
        exitCode = worst;
    });
}

}  // namespace vkc::tools
