// /dev/nvidia* nodes (and WSL2's /dev/dxg) (type and major:minor) and the GPU-related lines of the
// kernel log.
#include <fcntl.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <deque>

#include "doctor/collect/collect.hpp"
#include "doctor/collect/collect_io.hpp"
#include "doctor/knowledge/codes.hpp"

namespace p2p::doctor {

namespace {

// Matching lines kept: the first ones (boot: firmware load, RmInitAdapter) and the latest ones.
constexpr std::size_t kLogHead = 100;
constexpr std::size_t kLogTail = 100;
constexpr std::size_t kMaxRecords = 1u
                                    << 20;  // /dev/kmsg buffers are far smaller; a hard stop anyway
constexpr int kSyslogReadAll = 3;           // SYSLOG_ACTION_READ_ALL: non-destructive, non-blocking
constexpr int kSyslogSizeBuffer = 10;       // SYSLOG_ACTION_SIZE_BUFFER
constexpr unsigned kKmsgMajor = 1;          // /dev/kmsg is char 1:11
constexpr unsigned kKmsgMinor = 11;

std::string node_type(mode_t m) {
  if (S_ISCHR(m)) return "char";
  if (S_ISBLK(m)) return "block";
  if (S_ISREG(m)) return "regular";
  if (S_ISDIR(m)) return "directory";
  return "other";
}

void add_node(const std::string& r, const std::string& host_path, std::vector<DeviceNode>& out) {
  DeviceNode n;
  n.path = host_path;
  struct stat st {};
  if (::stat((r + host_path).c_str(), &st) != 0) {
    n.type = "unreadable (" + errno_name(errno) + ")";
  } else {
    n.type = node_type(st.st_mode);
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
      n.major = static_cast<int>(major(st.st_rdev));
      n.minor = static_cast<int>(minor(st.st_rdev));
    }
  }
  out.push_back(n);
}

// Keeps the first kLogHead and the last kLogTail matches.
class BoundedLines {
 public:
  void add(std::string line) {
    if (head_.size() < kLogHead) {
      head_.push_back(std::move(line));
      return;
    }
    tail_.push_back(std::move(line));
    if (tail_.size() > kLogTail) tail_.pop_front();
  }
  std::vector<std::string> take() {
    std::vector<std::string> out = std::move(head_);
    out.insert(out.end(), tail_.begin(), tail_.end());
    return out;
  }

 private:
  std::vector<std::string> head_;
  std::deque<std::string> tail_;
};

void keep_if_relevant(const std::string& record, BoundedLines& lines,
                      const std::vector<std::string>& bdfs) {
  const std::string msg = log_message(record);
  if (is_relevant_log_line(msg, bdfs)) lines.add(msg);
}

// /dev/kmsg: one record per read(); O_NONBLOCK makes the end of the buffer EAGAIN instead of
// a wait for new messages; EPIPE means a record was overwritten while we read (skip on).
Observed<std::vector<std::string>> read_kmsg(const std::string& path,
                                             const std::vector<std::string>& bdfs) {
  using Lines = Observed<std::vector<std::string>>;
  // Containers often make /dev/kmsg a link to /dev/console (for systemd): reading that would
  // find "no failures" in a log it never saw. Only the real device (char 1:11) counts.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return errno == ENOENT ? Lines::missing() : Lines::unreadable(errno_name(errno));
  if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != kKmsgMajor || minor(st.st_rdev) != kKmsgMinor)
    return Lines::unreadable("not the kernel log device");
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Lines::unreadable(errno_name(errno));
  BoundedLines lines;
  std::size_t records = 0;
  char buf[8192];  // a record is at most ~8 KiB; a smaller buffer gets EINVAL
  for (std::size_t i = 0; i < kMaxRecords; ++i) {
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    if (n < 0 && (errno == EINTR || errno == EPIPE)) continue;
    if (n <= 0) break;  // EAGAIN: caught up
    ++records;
    const std::string record(buf, static_cast<std::size_t>(n));
    keep_if_relevant(record.substr(0, record.find('\n')), lines, bdfs);
  }
  ::close(fd);
  // A kernel always has boot messages; none at all means we were not shown the log.
  if (records == 0) return Lines::unreadable("no records");
  return Lines::of(lines.take());
}

Observed<std::vector<std::string>> read_syslog(const std::vector<std::string>& bdfs) {
  const int size = ::klogctl(kSyslogSizeBuffer, nullptr, 0);
  if (size <= 0) return Observed<std::vector<std::string>>::unreadable(errno_name(errno));
  std::string buf(static_cast<std::size_t>(size), '\0');
  const int n = ::klogctl(kSyslogReadAll, buf.data(), size);
  if (n < 0) return Observed<std::vector<std::string>>::unreadable(errno_name(errno));
  buf.resize(static_cast<std::size_t>(n));
  BoundedLines lines;
  for (const auto& line : io::split_lines(buf)) keep_if_relevant(line, lines, bdfs);
  return Observed<std::vector<std::string>>::of(lines.take());
}

}  // namespace

bool is_relevant_log_line(const std::string& m, const std::vector<std::string>& gpu_bdfs) {
  // The NVIDIA driver itself, and the subsystems that decide whether it gets a GPU at all: another
  // driver (nouveau, vfio-pci), the IOMMU (AMD-Vi / DMAR faults), the PCI core's BAR assignment,
  // module signature checks (Secure Boot), and suspend/resume, after which UVM can be left broken.
  for (const char* needle :
       {"NVRM", "nvidia", "GSP", "RmInitAdapter", "devmem", "uvm", "UVM", "request_free_mem_region",
        "nouveau", "vfio-pci", "AMD-Vi", "IO_PAGE_FAULT", "DMAR", "Xid", "PM: suspend",
        "PM: hibernation", "Secure boot enabled", "Loading of module with unavailable key",
        "unsigned module loading is restricted"})
    if (m.find(needle) != std::string::npos) return true;
  // Lines naming a GPU or a bridge above it that report a problem: "pci 0000:41:00.0: BAR 1: no
  // space for ...". Only problems: every GPU prints a dozen enumeration lines at boot, which would
  // crowd the driver's own lines out of the bounded head of the log.
  bool problem = false;
  for (const char* word :
       {"no space", "failed", "fail ", "error", "Error", "invalid", "can't", "cannot"})
    problem = problem || m.find(word) != std::string::npos;
  if (!problem) return false;
  for (const auto& bdf : gpu_bdfs) {
    if (m.find(bdf) != std::string::npos) return true;
    // Some records name a device without its domain ("device=41:00.0", "device [41:00.0]").
    if (bdf.size() == 12 && bdf.compare(0, 5, "0000:") == 0) {
      const std::string shortform = bdf.substr(5);
      if (m.find("[" + shortform + "]") != std::string::npos ||
          m.find("device=" + shortform) != std::string::npos)
        return true;
    }
  }
  return false;
}

std::string log_message(const std::string& record) {
  // /dev/kmsg: "priority,sequence,timestamp,flags[,...];message"
  const auto semi = record.find(';');
  if (semi != std::string::npos && !record.empty() &&
      std::isdigit(static_cast<unsigned char>(record[0])) && record.find(',') < semi)
    return record.substr(semi + 1);
  // syslog(2): "<6>[   12.345678] message"
  std::size_t at = 0;
  if (record.rfind('<', 0) == 0 && record.find('>') != std::string::npos) at = record.find('>') + 1;
  if (record.compare(at, 1, "[") == 0 && record.find("] ", at) != std::string::npos)
    at = record.find("] ", at) + 2;
  return record.substr(at);
}

Observed<std::vector<DeviceNode>> collect_device_nodes(const std::string& root) {
  const std::string r = io::root_prefix(root);
  const auto dev = io::list_dir(r + "/dev");
  Observed<std::vector<DeviceNode>> out;
  out.seen = dev.seen;
  out.error = dev.error;
  if (!dev.present()) return out;
  for (const auto& name : dev.value) {
    // /dev/dxg is how WSL2 reaches the Windows driver: there the GPUs have no /dev/nvidia* at all.
    if (name == "dxg") add_node(r, "/dev/dxg", out.value);
    if (name.rfind("nvidia", 0) != 0) continue;
    if (name == "nvidia-caps") {
      const auto caps = io::list_dir(r + "/dev/nvidia-caps");
      if (caps.present())
        for (const auto& cap : caps.value) add_node(r, "/dev/nvidia-caps/" + cap, out.value);
      continue;
    }
    add_node(r, "/dev/" + name, out.value);
  }
  return out;
}

Observed<std::vector<std::string>> collect_kernel_log(const std::string& root, std::string& source,
                                                      const std::vector<std::string>& gpu_bdfs) {
  const std::string r = io::root_prefix(root);
  if (!r.empty()) {
    // A fixture tree stores the log as the text of /dev/kmsg records, one per line.
    source = root + "/dev/kmsg";
    const auto text = io::read_file(r + "/dev/kmsg");
    Observed<std::vector<std::string>> out;
    out.seen = text.seen;
    out.error = text.error;
    if (!text.present()) return out;
    BoundedLines lines;
    for (const auto& line : io::split_lines(text.value)) keep_if_relevant(line, lines, gpu_bdfs);
    out.value = lines.take();
    return out;
  }
  auto kmsg = read_kmsg("/dev/kmsg", gpu_bdfs);
  if (kmsg.present()) {
    source = "/dev/kmsg";
    return kmsg;
  }
  auto syslog = read_syslog(gpu_bdfs);
  source = "syslog(2)";
  if (syslog.present()) return syslog;
  // Both refused: report the /dev/kmsg reason when it existed, since that is what users check.
  if (kmsg.seen == Seen::kUnreadable) {
    source = "/dev/kmsg";
    return kmsg;
  }
  return syslog;
}

}  // namespace p2p::doctor
