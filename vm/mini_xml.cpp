#include "vm/mini_xml.hpp"

#include <cctype>
#include <unordered_set>

#include "common/error.hpp"

namespace p2p::vm {

std::string XmlElement::attribute(const std::string& key) const {
  for (const auto& [k, v] : attributes)
    if (k == key) return v;
  return "";
}

bool XmlElement::has_attribute(const std::string& key) const {
  for (const auto& kv : attributes)
    if (kv.first == key) return true;
  return false;
}

const XmlElement* XmlElement::child(const std::string& child_name) const {
  for (const auto& c : children)
    if (c->name == child_name) return c.get();
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::all(const std::string& child_name) const {
  std::vector<const XmlElement*> out;
  for (const auto& c : children)
    if (c->name == child_name) out.push_back(c.get());
  return out;
}

namespace {

constexpr int kMaxDepth = 128;  // libvirt nests about 6 deep; more is not a domain

class Parser {
 public:
  Parser(const std::string& text, std::string source) : s_(text), source_(std::move(source)) {}

  std::unique_ptr<XmlElement> document() {
    skip_misc();
    if (at_end() || s_[pos_] != '<') fail("expected an XML element");
    auto root = element(0);
    skip_misc();
    if (!at_end()) fail("text after the root element </" + root->name + ">");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(source_ + ": line " + std::to_string(line_) +
                     ": not well-formed XML: " + problem);
  }

  bool at_end() const { return pos_ >= s_.size(); }
  bool starts(const char* what) const {
    return s_.compare(pos_, std::char_traits<char>::length(what), what) == 0;
  }

  void advance(std::size_t n) {
    for (std::size_t i = 0; i < n && pos_ < s_.size(); ++i)
      if (s_[pos_++] == '\n') ++line_;
  }

  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s_[pos_]))) advance(1);
  }

  void skip_past(const char* end, const char* what) {
    const std::size_t at = s_.find(end, pos_);
    if (at == std::string::npos) fail("unterminated " + std::string(what));
    advance(at - pos_ + std::char_traits<char>::length(end));
  }

  // White space, comments and processing instructions between top-level constructs.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts("<?")) {
        skip_past("?>", "processing instruction");
      } else if (starts("<!--")) {
        skip_past("-->", "comment");
      } else if (starts("<!DOCTYPE")) {
        // hwloc's XML names its DTD; a declaration without an internal subset is skipped.
        const std::size_t end = s_.find('>', pos_);
        if (end == std::string::npos || s_.find('[', pos_) < end)
          fail("a DOCTYPE with an internal subset is not read here");
        advance(end - pos_ + 1);
      } else {
        return;
      }
    }
  }

  std::string name() {
    const std::size_t start = pos_;
    while (!at_end()) {
      const unsigned char c = static_cast<unsigned char>(s_[pos_]);
      const bool first = pos_ == start;
      if (std::isalpha(c) || c == '_' || c == ':' ||
          (!first && (std::isdigit(c) || c == '-' || c == '.')))
        advance(1);
      else
        break;
    }
    if (pos_ == start) fail("expected a name");
    return s_.substr(start, pos_ - start);
  }

  static void put_utf8(std::string& out, unsigned long cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  // After '&': the reference up to ';', decoded into `out`.
  void reference(std::string& out) {
    const std::size_t semi = s_.find(';', pos_);
    if (semi == std::string::npos || semi - pos_ > 10) fail("'&' that starts no reference");
    const std::string ref = s_.substr(pos_, semi - pos_);
    advance(semi - pos_ + 1);
    if (ref == "lt") return out.push_back('<');
    if (ref == "gt") return out.push_back('>');
    if (ref == "amp") return out.push_back('&');
    if (ref == "quot") return out.push_back('"');
    if (ref == "apos") return out.push_back('\'');
    if (ref.size() > 1 && ref[0] == '#') {
      const bool hex = ref[1] == 'x';
      const std::string digits = ref.substr(hex ? 2 : 1);
      if (!digits.empty() && digits.find_first_not_of(hex ? "0123456789abcdefABCDEF"
                                                          : "0123456789") == std::string::npos) {
        const unsigned long cp = std::stoul(digits, nullptr, hex ? 16 : 10);
        if (cp > 0 && cp <= 0x10ffff) return put_utf8(out, cp);
      }
    }
    fail("unknown reference &" + ref + ";");
  }

  std::string attribute_value() {
    if (at_end() || (s_[pos_] != '"' && s_[pos_] != '\'')) fail("attribute value without quotes");
    const char quote = s_[pos_];
    advance(1);
    std::string value;
    while (!at_end() && s_[pos_] != quote) {
      if (s_[pos_] == '<') fail("'<' inside an attribute value");
      if (s_[pos_] == '&') {
        advance(1);
        reference(value);
      } else {
        value += s_[pos_];
        advance(1);
      }
    }
    if (at_end()) fail("unterminated attribute value");
    advance(1);
    return value;
  }

  // The start tag's attributes; true when the element closes itself ("/>").
  bool attributes(XmlElement& e) {
    // Keys seen in this tag, so that a tag of many attributes is checked in linear time (asking
    // the element for each new key was quadratic: 200,000 attributes ran past 30 s).
    std::unordered_set<std::string> seen;
    for (;;) {
      skip_space();
      if (starts("/>")) {
        advance(2);
        return true;
      }
      if (starts(">")) {
        advance(1);
        return false;
      }
      std::string key = name();
      skip_space();
      if (at_end() || s_[pos_] != '=') fail("attribute " + key + " without '='");
      advance(1);
      skip_space();
      if (!seen.insert(key).second) fail("attribute " + key + " given twice");
      e.attributes.emplace_back(std::move(key), attribute_value());
    }
  }

  std::unique_ptr<XmlElement> element(int depth) {
    if (depth > kMaxDepth) fail("elements nested deeper than " + std::to_string(kMaxDepth));
    auto e = std::make_unique<XmlElement>();
    e->line = line_;
    advance(1);  // '<'
    e->name = name();
    if (attributes(*e)) return e;
    content(*e, depth);
    return e;
  }

  void content(XmlElement& e, int depth) {
    for (;;) {
      if (at_end()) fail("<" + e.name + "> is never closed");
      if (starts("</")) {
        advance(2);
        const std::string end = name();
        if (end != e.name) fail("</" + end + "> closes <" + e.name + ">");
        skip_space();
        if (at_end() || s_[pos_] != '>') fail("malformed end tag </" + end);
        advance(1);
        return;
      }
      if (starts("<!--")) {
        skip_past("-->", "comment");
      } else if (starts("<![CDATA[")) {
        advance(9);
        const std::size_t end = s_.find("]]>", pos_);
        if (end == std::string::npos) fail("unterminated CDATA section");
        e.text += s_.substr(pos_, end - pos_);
        advance(end - pos_ + 3);
      } else if (starts("<?")) {
        skip_past("?>", "processing instruction");
      } else if (s_[pos_] == '<') {
        e.children.push_back(element(depth + 1));
      } else if (s_[pos_] == '&') {
        advance(1);
        reference(e.text);
      } else {
        e.text += s_[pos_];
        advance(1);
      }
    }
  }

  const std::string& s_;
  std::string source_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

std::unique_ptr<XmlElement> parse_xml(const std::string& text, const std::string& source) {
  return Parser(text, source).document();
}

}  // namespace p2p::vm
