// vkcollide-difftest: the differential campaign (campaign.h) from the command line. Prints the
// summary table (method x contract clause: cases, failures) and the failing scene ids, writes each
// failing scene into --out, and exits 1 when any clause failed.
#include "tools/difftest/campaign.h"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
    vkc::difftest::CampaignOptions options;
    options.meshDir = VKC_DEFAULT_MESH_DIR;
    std::string meshDir = options.meshDir.string(), outDir;
    std::string device;
    CLI::App app{"vkcollide-difftest: every method against the exact oracle on seeded generated scenes"};
    app.add_option("--scenes", options.scenes, "number of scenes");
    app.add_option("--seed", options.seed, "campaign seed");
    app.add_option("--max-seconds", options.maxSeconds, "stop starting scenes after this wall time");
    app.add_option("--first", options.firstIndex, "index of the first scene (reproduce one: --first I --scenes 1)");
    app.add_option("--methods", options.methods, "methods to run (default: all)");
    app.add_option("--out", outDir, "folder for the failing scenes");
    app.add_option("--meshes", meshDir, "the shared mesh folder");
    app.add_flag("--ci", options.ciSize, "CI sizes: small meshes, 40-object crowds");
    app.add_option("--stencil-resolution", options.stencilResolution);
    app.add_option("--consistent-pairs-resolution", options.consistentPairsResolution);
    app.add_option("--ldi-resolution", options.ldiResolution);
    std::string ebpiTolerance = vkc::tools::optionText(options.ebpiTolerance);
    app.add_option("--ebpi-tolerance", ebpiTolerance,
                   "ebpi's tolerance per pair: a volume, or a percentage of each pair's volume (default: 2%)");
    app.add_option("--device", device, "substring of the device name");
    CLI11_PARSE(app, argc, argv);
    auto tolerance = vkc::tools::parseEbpiTolerance(ebpiTolerance);
    if (!tolerance) {
        std::cerr << "vkcollide-difftest: " << tolerance.status().describe() << "\n";
        return 2;
    }
    options.ebpiTolerance = tolerance.value();
    options.meshDir = meshDir;
    options.outDir = outDir;

    vkc::HeadlessDesc headless = {};
    headless.deviceName = device.empty() ? nullptr : device.c_str();
    auto context = vkc::createHeadlessContext(headless);
    if (!context) {
        std::cerr << "vkcollide-difftest: " << context.status().describe() << "\n";
        return 2;
    }
    auto summary = vkc::difftest::runCampaign(context.value(), options, &std::cerr);
    if (!summary) {
        std::cerr << "vkcollide-difftest: " << summary.status().describe() << "\n";
        return 2;
    }
    std::cout << vkc::difftest::formatSummary(summary.value());
    return summary->failures() == 0 ? 0 : 1;
}
