#include "vm/mini_xml.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace p2p::vm {
namespace {

std::string error_of(const std::string& xml) {
  try {
    parse_xml(xml, "d.xml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MiniXml, ReadsElementsAttributesTextAndReferences) {
  const auto root = parse_xml(
      "<?xml version='1.0'?>\n<!-- a comment -->\n<domain type=\"kvm\" a='&lt;&amp;&#65;&#x42;'>\n"
      "  <name>x &gt; y</name><empty/><![CDATA[<raw>]]>\n</domain>\n",
      "d.xml");
  EXPECT_EQ(root->name, "domain");
  EXPECT_EQ(root->attribute("type"), "kvm");
  EXPECT_EQ(root->attribute("a"), "<&AB");
  EXPECT_EQ(root->attribute("missing"), "");
  ASSERT_NE(root->child("name"), nullptr);
  EXPECT_EQ(root->child("name")->text, "x > y");
  EXPECT_EQ(root->child("name")->line, 4);
  EXPECT_NE(root->text.find("<raw>"), std::string::npos);
  EXPECT_EQ(root->all("empty").size(), 1u);
  EXPECT_EQ(root->child("nothing"), nullptr);
}

TEST(MiniXml, MalformedXmlIsOneLineNamingTheLine) {
  EXPECT_EQ(error_of("<a>\n<b>\n</a>"), "d.xml: line 3: not well-formed XML: </a> closes <b>");
  EXPECT_NE(error_of("<a x='1' x='2'/>").find("given twice"), std::string::npos);
  EXPECT_NE(error_of("<a>").find("never closed"), std::string::npos);
  EXPECT_NE(error_of("<a x=1/>").find("without quotes"), std::string::npos);
  EXPECT_NE(error_of("<a>&bogus;</a>").find("unknown reference"), std::string::npos);
  EXPECT_NE(error_of("<a/><b/>").find("text after the root"), std::string::npos);
  EXPECT_EQ(error_of("<!DOCTYPE a SYSTEM \"a.dtd\"><a/>"), "");
  EXPECT_NE(error_of("<!DOCTYPE a [<!ENTITY x 'y'>]><a/>").find("internal subset"),
            std::string::npos);
  EXPECT_NE(error_of("").find("expected an XML element"), std::string::npos);
  EXPECT_NE(error_of("<a><!-- open </a>").find("unterminated comment"), std::string::npos);
}

TEST(MiniXml, DeepNestingIsRefusedNotARecursionCrash) {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "<a>";
  EXPECT_NE(error_of(deep).find("nested deeper than 128"), std::string::npos);
}

// One tag of 200,000 attributes (2.3 MB): each key is checked against those before it in one
// pass (the check was quadratic, past 30 s); a key given twice at the end is still found.
TEST(MiniXml, ATagOfManyAttributesIsReadInOnePass) {
  std::string tag = "<a";
  for (int i = 0; i < 200000; ++i) tag += " k" + std::to_string(i) + "='v'";
  EXPECT_EQ(parse_xml(tag + "/>", "d.xml")->attributes.size(), 200000u);
  EXPECT_NE(error_of(tag + " k7='again'/>").find("attribute k7 given twice"), std::string::npos);
}

}  // namespace
}  // namespace p2p::vm
