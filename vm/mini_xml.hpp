// A small XML reader for the documents `vm plan` is given: libvirt domain XML (virsh dumpxml, or
// a file a person edited). Elements, attributes, text, comments, processing instructions, CDATA
// and the five predefined and numeric character references; no DTDs, no namespace resolution
// (names keep their prefix: "qemu:commandline"). Malformed input is one InputError naming the
// line. The project's dependencies have no XML library but hwloc's, which reads only its own.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace p2p::vm {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // in document order
  std::vector<std::unique_ptr<XmlElement>> children;
  std::string text;  // the character data directly inside, concatenated
  int line = 0;      // where the start tag is

  // "" when absent.
  std::string attribute(const std::string& key) const;
  bool has_attribute(const std::string& key) const;
  // The first child of that name, or nullptr; all of them, in order.
  const XmlElement* child(const std::string& child_name) const;
  std::vector<const XmlElement*> all(const std::string& child_name) const;
};

// The document's root element. InputError "<source>: line N: <problem>" on malformed XML.
std::unique_ptr<XmlElement> parse_xml(const std::string& text, const std::string& source);

}  // namespace p2p::vm
