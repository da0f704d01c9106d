// The method table; see method_catalog.h.
#include "tools/cli/method_catalog.h"

#include <array>

namespace vkc::tools {

static constexpr std::array kMethods = {
    MethodEntry{"exact", "CPU oracle (CGAL exact predicates and corefinement)", false, nullptr},
    MethodEntry{"stencil", "paper 1: CInDeR stencil edge counting (Knott & Pai)", true, "signed stencil counts per view"},
    MethodEntry{"ldi", "paper 2: layered depth images (Heidelberger, Teschner, Gross)", true,
                "intersection depth per pair"},
    MethodEntry{"consistent-pairs", "paper 3: consistent front/back pairs (Jang, Jeong, Han)", true,
                "inconsistent back-face fragments per pixel"},
    MethodEntry{"aabb-tree", "paper 4: AABB-tree traversal in compute (Gress & Zachmann)", true, nullptr},
    MethodEntry{"ebpi", "paper 5: EBPI adaptive ray sampling (Wang, Faure, Pai)", true,
                "EBPI bound and rays per pixel, per pair and direction"},
};

std::span<const MethodEntry> methodCatalog() { return kMethods; }

const MethodEntry* findMethod(const std::string& id) {
    for (const MethodEntry& method : kMethods)
        if (id == method.id) return &method;
    return nullptr;
}

std::string imagesHelp() {
    std::string help;
    for (const MethodEntry& method : kMethods)
        if (method.images) help += (help.empty() ? "" : "; ") + std::string(method.id) + ": " + method.images;
    return help;
}

std::string methodUnavailableReason(const MethodEntry& method, const DeviceInfo& device) {
    if (method.needsDevice && !device.missing.empty()) {
        std::string reason = "device lacks";
        for (const std::string& missing : device.missing) reason += " " + missing;
        return reason;
    }
    return {};
}

}  // namespace vkc::tools
