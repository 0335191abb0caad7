// The checks of the driver group (rules::driver) that live outside rules_driver.cpp: GSP firmware
// (rules_gsp.cpp) and the kernel log (rules_kernel_log.cpp). Internal to p2p_doctor.
#pragma once

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor::rules {

Finding check_firmware_file(const Facts& f);  // gsp.firmware_file
Finding check_gsp_state(const Facts& f);      // gsp.state
Finding check_kernel_log(const Facts& f);     // kernel.log

}  // namespace p2p::doctor::rules
