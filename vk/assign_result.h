// Moving a Result's value into an existing object: for code that fills several members in a row.
#pragma once

#include "vkcollide/status.h"

namespace vkc {

// `out` takes the value, or the Status of the failure is returned (and `out` is left alone).
template <typename T>
Status assignResult(T& out, Result<T> result) {
    if (!result) return result.status();
    out = std::move(result.value());
    return Status::success();
}

}  // namespace vkc
