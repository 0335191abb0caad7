#include "cli/failure_exit.hpp"

#include <cstdio>
#include <filesystem>
#include <new>
#include <system_error>

#include "common/error.hpp"
#include "common/exit_codes.hpp"

namespace p2p::cli {

namespace {

int report(std::ostream& err, const char* kind, const std::exception& e, int code) {
  err << "p2pcheck: " << kind << one_line(e.what()) << "\n";
  return code;
}

// Memory ran out. Every reader has a ceiling (docs/inputs-and-outputs.md), but inputs at their
// ceilings together, or a planner's pairs, can still pass what a small host holds: that is the
// input's size, named, exit 2. With no file given it is the host's memory, exit 4.
int out_of_memory(const std::vector<std::string>& args, std::ostream& err) {
  std::string files;
  for (const auto& a : args) {
    std::error_code ec;
    if (a.empty() || a[0] == '-' || !std::filesystem::is_regular_file(a, ec)) continue;
    files += (files.empty() ? "" : ", ") + a;
  }
  if (files.empty()) {
    err << "p2pcheck: error: out of memory\n";
    return kExitRuntime;
  }
  err << "p2pcheck: error: " << one_line(files)
      << ": out of memory holding what the input describes (its size ceilings: "
         "docs/inputs-and-outputs.md, Limits)\n";
  return kExitBadInput;
}

}  // namespace

std::string one_line(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

int exit_for_failure(std::exception_ptr failure, const std::vector<std::string>& args,
                     std::ostream& err) {
  try {
    std::rethrow_exception(failure);
  } catch (const InputError& e) {
    return report(err, "error: ", e, kExitBadInput);
  } catch (const NoGpuError& e) {
    return report(err, "no usable GPU: ", e, kExitNoGpu);
  } catch (const HangError& e) {
    return report(err, "hang: ", e, kExitHang);
  } catch (const BusyError& e) {
    return report(err, "busy: ", e, kExitBusy);
  } catch (const std::bad_alloc&) {
    return out_of_memory(args, err);
  } catch (const std::exception& e) {
    return report(err, "error: ", e, kExitRuntime);
  } catch (...) {
    err << "p2pcheck: error: an unknown failure\n";
    return kExitRuntime;
  }
}

}  // namespace p2p::cli
