// The CUDA side of the inventory: what the runtime says of every visible device.
#pragma once

#include "gpus/device_inventory.hpp"

namespace p2p::gpus {

// Every visible CUDA device (ordinal order) and cudaDeviceCanAccessPeer for every pair.
// ApiError naming the call when the runtime fails.
DeviceInventory discover_devices();

}  // namespace p2p::gpus
