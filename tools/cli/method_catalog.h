// The methods the harness knows, and which of them this build can run: one table, used by
// `info`, by `detect --method` and `compare --methods` validation, by `--images` and by the
// README's status column.
#pragma once

#include "vkcollide/device_info.h"

#include <span>
#include <string>

namespace vkc::tools {

struct MethodEntry {
    const char* id;           // --method value
    const char* paper;        // what it implements
    bool needsDevice;         // runs on the GPU
    const char* images;       // what `--images` writes of it; nullptr: it reads back no images
};

std::span<const MethodEntry> methodCatalog();
const MethodEntry* findMethod(const std::string& id);

// What `--images` writes, method by method: "stencil: signed stencil counts per view; ldi: ...".
std::string imagesHelp();

// Why `method` cannot run on `device`, or empty when it can.
std::string methodUnavailableReason(const MethodEntry& method, const DeviceInfo& device);

}  // namespace vkc::tools
