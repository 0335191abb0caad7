#include "common/dynamic_library.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

namespace p2p {

void DynamicLibrary::Closer::operator()(void* h) const noexcept {
  if (h != nullptr) dlclose(h);
}

const DynamicLibrary& DynamicLibrary::open_never_closed(const std::string& soname) {
  return *new DynamicLibrary(open(soname));  // never deleted: see the header
}

DynamicLibrary DynamicLibrary::open(const std::string& soname) {
  DynamicLibrary lib;
  lib.name_ = soname;
  dlerror();
  void* h = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* why = dlerror();
    lib.error_ = why != nullptr ? why : "dlopen failed";
  }
  lib.handle_.reset(h);
  return lib;
}

void* DynamicLibrary::symbol(const char* name) const {
  if (!handle_) return nullptr;
  return dlsym(handle_.get(), name);
}

std::string DynamicLibrary::resolved_path(const char* probe_symbol) const {
  void* sym = symbol(probe_symbol);
  Dl_info info{};
  if (sym == nullptr || dladdr(sym, &info) == 0 || info.dli_fname == nullptr) return "";
  char real[PATH_MAX];
  if (realpath(info.dli_fname, real) == nullptr) return info.dli_fname;
  return real;
}

}  // namespace p2p
