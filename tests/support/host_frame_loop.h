// A host's frame loop in tests: submits that carry a frame's completion signal, optionally held
// back by a gate (a timeline semaphore the host opens later) so that "not done yet" is certain
// rather than a race with the GPU, and polling a non-blocking read (a detector's results(frame), a
// read-back ring slot) with a deadline, so that a frame that never completes fails the test
// instead of hanging it.
#pragma once

#include "vk/context.h"
#include "vkcollide/status.h"

#include <chrono>
#include <string>
#include <thread>

namespace vkc::test {

// Long enough for any frame of the suite on lavapipe under validation, short enough to fail. A
// frame's first submit in a run compiles its pipelines on lavapipe's queue thread: with a cold
// shader cache (a fresh clone, tools/run_tests.sh) ebpi's first GPU-driven frame took over 30 s on
// two busy cores (its largest shaders, LLVM alone), so the deadline is minutes, not seconds.
inline constexpr std::chrono::seconds kPollDeadline{300};

// Calls `read` (returning a Status) until it answers anything but NotReady and returns that answer;
// still NotReady at `deadline`: that NotReady, its message saying how long it waited.
template <class Read>
Status pollUntilReady(Read&& read, std::chrono::milliseconds deadline = kPollDeadline) {
    const auto end = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        Status status = read();
        if (status.code != ErrorCode::NotReady) return status;
        if (std::chrono::steady_clock::now() >= end) {
            status.message = "still NotReady after " + std::to_string(deadline.count()) + " ms: " + status.message;
            return status;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

// A timeline semaphore at 0: submits that wait on it (submitWithSignal) stay queued until open().
// The destructor opens it too, so that a test failing before open() cannot leave the queue stuck,
// then waits for the queue and destroys it.
class HostGate {
public:
    explicit HostGate(VulkanContext& vk) : vk_(vk) {
        VkSemaphoreTypeCreateInfo type = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
        type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
        VkSemaphoreCreateInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        info.pNext = &type;
        created_ = vk_.vkd.vkCreateSemaphore(vk_.device, &info, nullptr, &semaphore_);
    }
    HostGate(const HostGate&) = delete;
    HostGate& operator=(const HostGate&) = delete;
    ~HostGate() {
        if (semaphore_ == VK_NULL_HANDLE) return;
        (void)open();
        (void)vk_.vkd.vkQueueWaitIdle(vk_.queue);
        vk_.vkd.vkDestroySemaphore(vk_.device, semaphore_, nullptr);
    }
    VkResult created() const { return created_; }
    VkSemaphore semaphore() const { return semaphore_; }
    VkResult open() {
        if (opened_) return VK_SUCCESS;
        VkSemaphoreSignalInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
        info.semaphore = semaphore_;
        info.value = 1;
        opened_ = true;
        return vk_.vkd.vkSignalSemaphore(vk_.device, &info);
    }

private:
    VulkanContext& vk_;
    VkSemaphore semaphore_ = VK_NULL_HANDLE;
    VkResult created_ = VK_SUCCESS;
    bool opened_ = false;
};

// Submits `cmd` with `signal` (a completion signal), after `gate` opens when one is given.
inline VkResult submitWithSignal(VulkanContext& vk, VkCommandBuffer cmd, const VkSemaphoreSubmitInfo& signal,
                                 const HostGate* gate = nullptr) {
    VkSemaphoreSubmitInfo wait = {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = gate ? gate->semaphore() : VK_NULL_HANDLE;
    wait.value = 1;
    wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo cmdInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = cmd;
    VkSubmitInfo2 submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = gate ? 1 : 0;
    submit.pWaitSemaphoreInfos = &wait;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmdInfo;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = &signal;
    return vk.vkd.vkQueueSubmit2(vk.queue, 1, &submit, VK_NULL_HANDLE);
}

}  // namespace vkc::test
