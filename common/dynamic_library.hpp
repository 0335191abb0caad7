// RAII owner of a dlopen()ed library. p2pcheck loads libcuda.so.1, libnvidia-ml.so.1 and
// libnccl.so.2 at run time so that `doctor` and `topo` start on a host where they are
// missing or broken; a failed load is a fact to report, not a crash.
#pragma once

#include <memory>
#include <string>

namespace p2p {

class DynamicLibrary {
 public:
  // Empty handle: loaded() is false, error() says why.
  static DynamicLibrary open(const std::string& soname);
  // The same, for a probe's child process: the library is never closed, so neither its
  // teardown (dlclose, which for libcuda or NVML can crash or hang) runs, nor anything of the
  // driver's at exit: the child _exit()s right after its last result, and a teardown that fails
  // must not turn a complete result into a failed probe.
  static const DynamicLibrary& open_never_closed(const std::string& soname);

  bool loaded() const { return handle_ != nullptr; }
  const std::string& name() const { return name_; }
  const std::string& error() const { return error_; }  // dlerror() of a failed open
  // Absolute path of the file actually loaded (via dladdr of `probe_symbol`), "" if unknown.
  std::string resolved_path(const char* probe_symbol) const;

  // nullptr when absent; the caller decides whether that is fatal.
  void* symbol(const char* name) const;
  template <class Fn>
  Fn function(const char* name) const {
    return reinterpret_cast<Fn>(symbol(name));
  }

 private:
  struct Closer {
    void operator()(void* h) const noexcept;
  };
  std::unique_ptr<void, Closer> handle_;
  std::string name_;
  std::string error_;
};

}  // namespace p2p
