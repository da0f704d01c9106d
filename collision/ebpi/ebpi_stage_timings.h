// EbpiStageTimings from a frame's per-pass GPU timings: each of the detector's pass labels belongs
// to one of paper 5's Table 1 stages.
#pragma once

#include "vkcollide/ebpi.h"

#include <map>
#include <string>

namespace vkc {

// Every pass the map names must be one of EbpiDetector's (an unknown label is a programming error
// and asserts); passes of other detectors are not expected in it.
EbpiStageTimings ebpiStageTimings(const std::map<std::string, double>& passMs);

}  // namespace vkc
