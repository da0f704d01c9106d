// RenderDoc in-application capture; see renderdoc_capture.h.
#include "tools/cli/renderdoc_capture.h"

#include <dlfcn.h>

#include <filesystem>
#include <string>
#include <vector>

namespace vkc::tools {

Result<RenderDocCapture> RenderDocCapture::load(const std::string& outputFile) {
    // Already injected when run under `renderdoccmd capture`; otherwise load it ourselves.
    void* library = dlopen("librenderdoc.so", RTLD_NOW | RTLD_NOLOAD);
    if (!library) library = dlopen("librenderdoc.so", RTLD_NOW);
    if (!library)
        return makeError(ErrorCode::MissingFeature,
                         std::string("--renderdoc-capture: cannot load librenderdoc.so (install Debian's "
                                     "librenderdoc): ") + dlerror());
    auto getApi = reinterpret_cast<pRENDERDOC_GetAPI>(dlsym(library, "RENDERDOC_GetAPI"));
    RenderDocCapture capture;
    if (!getApi || getApi(eRENDERDOC_API_Version_1_4_1, reinterpret_cast<void**>(&capture.api_)) != 1)
        return makeError(ErrorCode::MissingFeature, "--renderdoc-capture: librenderdoc.so has no API 1.4.1");
    capture.outputFile_ = outputFile;
    // RenderDoc appends "_frameN.rdc" to the template; end() renames the result.
    std::string pathTemplate = std::filesystem::path(outputFile).replace_extension().string();
    capture.api_->SetCaptureFilePathTemplate(pathTemplate.c_str());
    return capture;
}

void RenderDocCapture::begin(VkInstance instance) {
    device_ = RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance);
    api_->StartFrameCapture(device_, nullptr);
}

Status RenderDocCapture::end() {
    if (api_->EndFrameCapture(device_, nullptr) != 1)
        return makeError(ErrorCode::Unsupported,
                         "--renderdoc-capture: RenderDoc captured nothing (was the Vulkan context created "
                         "after loading RenderDoc, and without ray-tracing features?)");
    uint32_t index = api_->GetNumCaptures() - 1;
    uint32_t length = 0;
    if (api_->GetCapture(index, nullptr, &length, nullptr) != 1 || length == 0)
        return makeError(ErrorCode::IoError, "--renderdoc-capture: RenderDoc reports no capture file");
    std::vector<char> written(length);
    api_->GetCapture(index, written.data(), &length, nullptr);
    std::error_code error;
    std::filesystem::rename(written.data(), outputFile_, error);
    if (error)
        return makeError(ErrorCode::IoError, "--renderdoc-capture: cannot move " + std::string(written.data()) +
                                                 " to " + outputFile_ + ": " + error.message());
    return Status::success();
}

}  // namespace vkc::tools
