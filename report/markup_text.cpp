#include "report/markup_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace p2p::report {
namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Decodes the code points of `text`, calling f(cp) for each and f(0xFFFD) for each bad byte.
template <class F>
void for_each_code_point(const std::string& text, F f) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char b = s[i];
    int len = 0;
    std::uint32_t cp = 0, min = 0;
    if (b < 0x80) {
      f(b);
      ++i;
      continue;
    } else if ((b & 0xE0) == 0xC0) {
      len = 2, cp = b & 0x1F, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
      len = 3, cp = b & 0x0F, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
      len = 4, cp = b & 0x07, min = 0x10000;
    }
    bool ok = len > 0 && i + len <= n;
    for (int k = 1; ok && k < len; ++k) {
      ok = (s[i + k] & 0xC0) == 0x80;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (ok) {
      f(cp);
      i += len;
    } else {
      f(0xFFFD);
      ++i;  // resynchronise on the next byte
    }
  }
}

bool xml_char(std::uint32_t cp) {
  if (cp == 0x9 || cp == 0xA || cp == 0xD) return true;
  if (cp < 0x20) return false;
  return cp != 0xFFFE && cp != 0xFFFF;
}

constexpr const char* kStyle = R"(<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1500px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}td.na{color:#999;background:#fafafa}
.o-fail,td.bad{background:#f9c9ae;box-shadow:inset 0 0 0 2px #d55e00;font-weight:bold}
.o-warn{background:#fbe5a0;box-shadow:inset 0 0 0 2px #a67c00}tr.bad td{background:#fbe0d2}
tr.warn td{background:#fdf3cf}table.attention td{white-space:nowrap}
table.attention td.l:last-child,table.changes td.l:last-child{white-space:normal;max-width:60em;overflow-wrap:anywhere}
tr.bad td:first-child::before{content:"\2717\a0"}tr.warn td:first-child::before{content:"!\a0"}
td.o-fail .v::before,span.o-fail::before{content:"\2717\a0"}td.o-warn .v::before,span.o-warn::before{content:"!\a0"}
td.o-none{color:#555}.waived,td.waived,tr.waived td{background:#e6e6e6;color:#555}
.heat-legend span{display:inline-block;padding:.15em .6em;border:1px solid #ccc;margin:0 .5em .3em 0}
.note{color:#555;font-size:.9em}pre{background:#f7f7f7;padding:.6em;overflow-x:auto}
.pass{color:#1a7f37;font-weight:bold}.block{color:#b42318;font-weight:bold}
svg text{font-size:11px}.legend{font-size:.9em;margin-bottom:1em}.legend span{margin-right:1em}
td .path{display:block;font-size:.75em;color:#444}.maps,.beside{display:flex;flex-wrap:wrap;gap:0 2em;align-items:flex-start}
.beside{flex-wrap:wrap}svg.chart{width:100%;height:auto;max-width:1400px}td.topo{background:#fff}td.nop2p{font-weight:bold}
</style>
)";

}  // namespace

std::string valid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for_each_code_point(text, [&](std::uint32_t cp) { append_utf8(out, cp); });
  return out;
}

std::string xml_escape(const std::string& text, bool attribute) {
  std::string out;
  out.reserve(text.size() + 16);
  for_each_code_point(text, [&](std::uint32_t cp) {
    if (!xml_char(cp)) {
      out += kReplacement;
      return;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default: append_utf8(out, cp);
    }
  });
  return out;
}

std::string single_line(const std::string& text) {
  std::string out;
  bool space = false;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7F || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(static_cast<char>(c));
  }
  return out;
}

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string heat_colour(double fraction) {
  const double f = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  char b[40];
  std::snprintf(b, sizeof b, "hsl(210,70%%,%d%%)", static_cast<int>(std::lround(94 - 24 * f)));
  return b;
}

const char* report_style() { return kStyle; }

}  // namespace p2p::report
