// The one stripper of terminal escapes that the capture readers and the NCCL log reader share:
// both rules it replaced, each with the inputs it must leave alone.
#include "common/ansi_escapes.hpp"

#include <gtest/gtest.h>

namespace p2p {
namespace {

TEST(AnsiEscapes, ControlSequencesOfAnyFinalLetterGo) {
  // vLLM's coloured prefix, as in the NCCL logs pasted from its workers.
  EXPECT_EQ(strip_ansi_escapes("\x1b[36m(VllmWorkerProcess pid=7)\x1b[0;0m host:1:2 [0] NCCL INFO"),
            "(VllmWorkerProcess pid=7) host:1:2 [0] NCCL INFO");
  // nvidia-smi's underlined header.
  EXPECT_EQ(strip_ansi_escapes("\x1b[4mGPU0\tGPU1\x1b[0m"), "GPU0\tGPU1");
  // Cursor and erase sequences end in other letters.
  EXPECT_EQ(strip_ansi_escapes("\x1b[2K\x1b[1Aok"), "ok");
}

TEST(AnsiEscapes, RemnantsWithoutTheEscapeByteGoOnlyWhenTheyEndInM) {
  EXPECT_EQ(strip_ansi_escapes("[4mGPU0[0m"), "GPU0");
  EXPECT_EQ(strip_ansi_escapes("[1;32mok[0m"), "ok");
  // What real text has in brackets stays: an NCCL rank's device, a bare "[m", a sample's title.
  EXPECT_EQ(strip_ansi_escapes("Channel 00 : 0[0] -> 1[1] via P2P/IPC"),
            "Channel 00 : 0[0] -> 1[1] via P2P/IPC");
  EXPECT_EQ(strip_ansi_escapes("[m] [;m] [12]"), "[m] [;m] [12]");
  EXPECT_EQ(strip_ansi_escapes("[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]"),
            "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]");
}

TEST(AnsiEscapes, LoneAndCutEscapesLeaveNothingBehind) {
  EXPECT_EQ(strip_ansi_escapes("a\x1b"), "a");
  EXPECT_EQ(strip_ansi_escapes("a\x1b[12"), "a[12");  // cut before its final byte: the rest is text
  EXPECT_EQ(strip_ansi_escapes("\x1b\x1b[0mb"), "b");
  EXPECT_EQ(strip_ansi_escapes(""), "");
}

}  // namespace
}  // namespace p2p
