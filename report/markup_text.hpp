// The markup of every view: text that goes into machine-read formats read by strict parsers
// (JUnit XML and the Prometheus text exposition format both require valid UTF-8, and XML 1.0
// forbids most control characters outright, even as character references; names and messages
// come from documents read from anywhere, so every string is made valid before it is escaped),
// and the HTML pages' escaping, heatmap colours and style.
#pragma once

#include <string>

namespace p2p::report {

// Valid UTF-8 with every malformed byte sequence (a stray continuation byte, an overlong or
// truncated sequence, a surrogate, a code point past U+10FFFF) replaced by U+FFFD.
std::string valid_utf8(const std::string& text);

// Valid UTF-8 that XML 1.0 accepts: control characters other than tab, newline and carriage
// return, and U+FFFE/U+FFFF, become U+FFFD; then &, <, >, " and ' are escaped, so the result
// is safe in text and in attribute values alike. In attributes newlines become &#10; so a
// parser keeps them (attribute value normalisation would turn them into spaces).
std::string xml_escape(const std::string& text, bool attribute);

// One line: newlines, tabs and other control characters become spaces, runs collapse.
std::string single_line(const std::string& text);

// "&lt;" and friends: text and attribute values are escaped alike.
std::string html_escape(const std::string& text);

// Background shade of a passing heatmap cell: one hue, blue, from almost white (0) to a medium
// blue (1), clamped. One hue read by lightness stays readable to colour-blind readers; failing
// and warning cells are marked by class (vermillion and amber, with a glyph), never by shade.
std::string heat_colour(double fraction);

// The <style> element every page of documents shares.
const char* report_style();

}  // namespace p2p::report
