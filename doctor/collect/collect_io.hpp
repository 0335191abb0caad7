// File access for the collectors, keeping "absent" (ENOENT) apart from "unreadable" (EACCES,
// EPERM, EIO...). Paths are host paths ("/proc/modules") looked up under a root directory.
// Internal to p2p_doctor.
#pragma once

#include <string>
#include <vector>

#include "common/text.hpp"
#include "doctor/observed.hpp"

namespace p2p::doctor::io {

// "/" -> "" so that root + "/proc/x" is "/proc/x"; "/tmp/r/" -> "/tmp/r".
std::string root_prefix(const std::string& root);

// Whole file (at most max_bytes), or absent/unreadable with the errno name.
Observed<std::string> read_file(const std::string& path, std::size_t max_bytes = 4u << 20);

// The file's content without surrounding white space.
Observed<std::string> read_trimmed(const std::string& path);

// Entry names of a directory (without "." and ".."), sorted.
Observed<std::vector<std::string>> list_dir(const std::string& path);

// Target of a symbolic link, or absent/unreadable.
Observed<std::string> read_link(const std::string& path);

bool exists(const std::string& path);

using p2p::trim;
std::vector<std::string> split_lines(const std::string& s);

}  // namespace p2p::doctor::io
