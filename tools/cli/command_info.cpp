// `vkcollide info`: every Vulkan device, its driver, and which methods and ray-casting backends it
// can run (and why not).
#include "tools/cli/commands.h"
#include "tools/cli/method_catalog.h"
#include "vkcollide/context.h"

#include <CLI/CLI.hpp>
#include <vulkan/vulkan_core.h>

#include <iostream>

namespace vkc::tools {

static void printDevice(const DeviceInfo& device) {
    std::cout << "device " << device.index << ": " << device.name << " (" << deviceTypeName(device.type) << ")\n"
              << "  driver: " << device.driver << "\n"
              << "  Vulkan " << VK_API_VERSION_MAJOR(device.apiVersion) << "." << VK_API_VERSION_MINOR(device.apiVersion)
              << "." << VK_API_VERSION_PATCH(device.apiVersion) << "\n";
    if (!device.missing.empty()) {
        std::cout << "  unusable, missing:";
        for (const std::string& missing : device.missing) std::cout << " " << missing;
        std::cout << "\n";
    }
    std::cout << "  methods:\n";
    for (const MethodEntry& method : methodCatalog()) {
        std::string reason = methodUnavailableReason(method, device);
        std::cout << "    " << method.id << ": " << (reason.empty() ? "yes" : reason) << "\n";
    }
    std::cout << "  ray casting backends (ebpi):\n"
              << "    ray-query: " << (device.rayQuery ? "yes" : "no (VK_KHR_ray_query)") << "\n"
              << "    ray-tracing-pipeline: "
              << (device.rayTracingPipeline ? "yes" : "no (VK_KHR_ray_tracing_pipeline)") << "\n"
              << "    compute: yes (any device)\n";
}

void addInfoCommand(CLI::App& app, int& exitCode) {
    CLI::App* command = app.add_subcommand("info", "List Vulkan devices and what each can run");
    command->callback([&exitCode] {
        auto devices = listDevices();
        if (!devices) {
            std::cerr << "vkcollide info: " << devices.status().describe() << "\n";
            exitCode = 1;
            return;
        }
        if (devices->empty()) std::cout << "no Vulkan devices\n";
        for (const DeviceInfo& device : devices.value()) printDevice(device);
        exitCode = 0;
    });
}

}  // namespace vkc::tools
