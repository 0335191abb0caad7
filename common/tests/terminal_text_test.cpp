// Text from users' files on its way to a terminal: UTF-8 kept, control bytes and bytes that are
// not UTF-8 written as escapes.
#include <gtest/gtest.h>

#include "common/text.hpp"

namespace p2p {
namespace {

TEST(TerminalText, Utf8LineBreaksAndTabsPassAsTheyAre) {
  EXPECT_EQ(terminal_text("gpu-vm \xC3\xA9t\xC3\xA9 \xE2\x9C\x94 \xF0\x9F\x9A\x80\n\tnext"),
            "gpu-vm \xC3\xA9t\xC3\xA9 \xE2\x9C\x94 \xF0\x9F\x9A\x80\n\tnext");
}

TEST(TerminalText, ControlBytesAndBrokenUtf8AreEscaped) {
  // An escape sequence that would clear the screen, a carriage return that would overwrite the
  // line, DEL, a C1 control (U+009B, CSI), a lone continuation byte, a cut sequence, 0xFF.
  EXPECT_EQ(terminal_text("a\x1b[2Jb\rc\x7f"), "a\\x1b[2Jb\\x0dc\\x7f");
  EXPECT_EQ(terminal_text("\xC2\x9B"
                          "31m"),
            "\\xc2\\x9b31m");
  EXPECT_EQ(terminal_text("x\x80y\xE2\x9Cz\xFF"), "x\\x80y\\xe2\\x9cz\\xff");
  EXPECT_EQ(terminal_text("\xC0\xAF"), "\\xc0\\xaf");  // an overlong '/'
}

}  // namespace
}  // namespace p2p
