// Host unit tests of the firmware core: make -C firmware_bridge/core test
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "../arcade_core.h"
#include "check.h"
#include "fake_hal.h"

using namespace arcade;

static const char* g_vectors = "tests/vectors.txt";

// A core with a fake board at t = 1000 µs, HELLO already taken.
struct Rig {
  FakeHal hal;
  Config config;
  Core core;
  explicit Rig(Config c = Config{}, uint32_t start = 1000) : config(c), core(hal, config) {
    hal.now = start;
    core.begin();
    hal.take();
  }
  std::vector<std::string> at(uint32_t t, uint32_t buttons) {
    hal.now = t;
    hal.buttons = buttons;
    core.poll();
    return hal.take();
  }
  std::vector<std::string> command(const std::string& text) {
    hal.send(framed(text));
    core.poll();
    return hal.take();
  }
};

static std::vector<std::string> bodies(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines) out.push_back(body(l));
  return out;
}

static std::string one(const std::vector<std::string>& lines) {
  return lines.size() == 1 ? body(lines[0]) : "<" + std::to_string(lines.size()) + " lines>";
}

// ------------------------------------------------------------------------------- checksum
TEST(crc16_matches_the_ccitt_false_check_value) {
  const char* text = "123456789";
  CHECK_EQ(crc16(reinterpret_cast<const uint8_t*>(text), 9), 0x29B1);
  CHECK_EQ(crc16(nullptr, 0), 0xFFFF);
}

TEST(shared_vectors_are_valid_and_any_single_byte_change_is_detected) {
  std::ifstream in(g_vectors);
  CHECK(in.good());
  int lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++lines;
    size_t body_len = 0;
    CHECK(checkLine(line.data(), line.size(), &body_len));
    CHECK_EQ(body_len, line.size() - 5);
    for (size_t i = 0; i < line.size(); ++i) {
      std::string bad = line;
      bad[i] = static_cast<char>(bad[i] ^ 0x01);
      if (!checkLine(bad.data(), bad.size(), &body_len)) continue;
      check::fail(__FILE__, __LINE__, "undetected change in " + line);
    }
  }
  CHECK(lines >= 20);
}

TEST(line_builder_encodes_numbers_masks_and_checksum) {
  size_t n = 0;
  LineBuilder b("P");
  const char* line = b.u64(7).u64(11).u64(4294967296123ull).finish(&n);
  CHECK_EQ(std::string(line, n), std::string("P 7 11 4294967296123*6E65\n"));
  LineBuilder armed("ARMED");
  line = armed.u64(5).hex(0x7).u64(2000).finish(&n);
  CHECK_EQ(std::string(line, n), std::string("ARMED 5 7 2000*FA58\n"));
  LineBuilder zero("HB");
  line = zero.u64(0).hex(0).finish(&n);
  CHECK_EQ(std::string(line, n), framed("HB 0 0"));
}

TEST(line_builder_refuses_lines_that_are_too_long) {
  LineBuilder b("X");
  for (int i = 0; i < 10; ++i) b.u64(18446744073709551615ull);
  size_t n = 0;
  CHECK(b.finish(&n) == nullptr);
}

// ---------------------------------------------------------------------------------- clock
TEST(clock64_extends_across_the_32_bit_wrap) {
  Clock64 c;
  CHECK_EQ(c.extend(0xFFFFFF00u), 0xFFFFFF00ull);
  CHECK_EQ(c.extend(0xFFFFFFFFu), 0xFFFFFFFFull);
  CHECK_EQ(c.extend(5u), 0x100000005ull);
  CHECK_EQ(c.extend(0x80000000u), 0x180000000ull);
  CHECK_EQ(c.extend(3u), 0x200000003ull);
  CHECK_EQ(c.extend(3u), 0x200000003ull);  // same reading: no spurious wrap
}

TEST(press_timestamps_stay_monotonic_across_the_wrap) {
  Rig rig(Config{}, 0xFFFFF000u);
  auto press = rig.at(0xFFFFFF00u, 0b1);
  CHECK_EQ(one(press), std::string("P 1 0 4294967040"));
  CHECK(rig.at(0x00001000u, 0b0).empty());  // wrapped, only 4352 µs later: still debouncing
  auto release = rig.at(0x00002000u, 0b0);   // wrapped: 2^32 + 8192
  CHECK_EQ(one(release), std::string("R 2 0 4294975488"));
}

// ------------------------------------------------------------------------------- debounce
TEST(eager_debounce_counts_the_first_edge_and_ignores_bounces_in_the_window) {
  Rig rig;
  CHECK_EQ(one(rig.at(2000, 0b100)), std::string("P 1 2 2000"));  // counted on its first edge
  CHECK(rig.at(2100, 0b000).empty());                             // bounce: ignored
  CHECK(rig.at(2200, 0b100).empty());
  CHECK(rig.at(6999, 0b000).empty());                             // still inside 5 ms
  CHECK_EQ(one(rig.at(7000, 0b000)), std::string("R 2 2 7000"));  // window over: release counts
  CHECK(rig.at(7500, 0b100).empty());                             // release bounce ignored
  CHECK(rig.at(8000, 0b000).empty());
  CHECK_EQ(one(rig.at(12500, 0b100)), std::string("P 3 2 12500"));  // second press counted
}

TEST(debounce_is_per_button_and_simultaneous_presses_share_a_timestamp) {
  Rig rig;
  auto lines = bodies(rig.at(3000, 0b1001));
  CHECK_EQ(lines.size(), 2u);
  if (lines.size() == 2) {
    CHECK_EQ(lines[0], std::string("P 1 0 3000"));
    CHECK_EQ(lines[1], std::string("P 2 3 3000"));
  }
  CHECK(rig.at(3001, 0b0001).empty());                         // button 3 bounces: ignored
  CHECK_EQ(one(rig.at(3002, 0b0011)), std::string("P 3 1 3002"));  // button 1 is independent
}

TEST(buttons_beyond_the_configured_count_are_ignored) {
  Config c;
  c.buttons = 4;
  Rig rig(c);
  CHECK(rig.at(2000, 0b110000).empty());
  CHECK_EQ(one(rig.at(2001, 0b111000)), std::string("P 1 3 2001"));
}

TEST(buttons_held_at_power_up_do_not_report_a_press) {
  FakeHal hal;
  hal.now = 10;
  hal.buttons = 0b10;
  Core core(hal, Config{});
  core.begin();
  hal.take();
  hal.now = 20;
  core.poll();
  CHECK(hal.take().empty());
}

// -------------------------------------------------------------------------------- protocol
TEST(hello_on_begin_and_on_request) {
  FakeHal hal;
  Config c;
  c.boot_id = 4660;
  Core core(hal, c);
  core.begin();
  CHECK_EQ(hal.take().at(0), std::string("HELLO 1 1.0.0 12 12 5000 4660 0*FB2A"));
  hal.send("HI*4087\r\n");
  core.poll();
  CHECK_EQ(hal.take().at(0), std::string("HELLO 1 1.0.0 12 12 5000 4660 0*FB2A"));
}

TEST(clock_request_answers_with_device_time) {
  Rig rig;
  rig.hal.now = 123456;
  CHECK_EQ(one(rig.command("CLK 7")), std::string("CLK 7 123456"));
  rig.hal.now = 123456789;  // a heartbeat is due as well
  CHECK_EQ(bodies(rig.command("CLK 4294967295")).at(0), std::string("CLK 4294967295 123456789"));
}

TEST(bad_commands_get_typed_errors_and_change_nothing) {
  Rig rig;
  CHECK_EQ(one(rig.command("LAMP 3 ON")), std::string("OK LAMP"));
  rig.hal.send("LAMP 3 OFF*0000\n");
  rig.core.poll();
  CHECK_EQ(one(rig.hal.take()), std::string("ERR CRC"));
  CHECK_EQ(one(rig.command("FLY 3")), std::string("ERR CMD"));
  CHECK_EQ(one(rig.command("ARM 5")), std::string("ERR ARG"));
  CHECK_EQ(one(rig.command("ARM 70000 3")), std::string("ERR ARG"));
  CHECK_EQ(one(rig.command("LAMP 3 BLINK")), std::string("ERR ARG"));
  CHECK_EQ(one(rig.command("LAMP 3 ON 5")), std::string("ERR ARG"));
  CHECK_EQ(one(rig.command("LAMP 3  ON")), std::string("ERR ARG"));
  CHECK_EQ(one(rig.command("LAMP 3g ON")), std::string("ERR ARG"));
  CHECK_EQ(one(rig.command("CLK 99999999999")), std::string("ERR ARG"));
  rig.hal.send("no checksum at all\n");
  rig.core.poll();
  CHECK_EQ(one(rig.hal.take()), std::string("ERR CRC"));
  CHECK_EQ(rig.hal.lamps, 0b11u);  // the lamps set before are untouched
}

TEST(overlong_and_garbage_input_is_dropped_and_the_next_line_works) {
  Config c;
  c.max_bytes_per_poll = 255;
  Rig rig(c);
  rig.hal.send(std::string(200, 'x') + "\n");
  rig.core.poll();
  rig.core.poll();
  CHECK_EQ(one(rig.hal.take()), std::string("ERR LEN"));
  std::string noise = "\x01\xff\xfe" "ARM 1 F*12";
  rig.hal.send(noise + "\n" + framed("CLK 1"));
  rig.core.poll();
  auto lines = bodies(rig.hal.take());
  CHECK_EQ(lines.size(), 2u);
  if (lines.size() == 2) {
    CHECK_EQ(lines[0], std::string("ERR CRC"));
    CHECK_EQ(lines[1], std::string("CLK 1 1000"));
  }
  CHECK_EQ(rig.core.raceMask(), 0u);
}

TEST(a_flood_of_input_does_not_stall_scanning) {
  Rig rig;
  for (int i = 0; i < 50; ++i) rig.hal.send(framed("CLK 1"));
  auto first = bodies(rig.at(2000, 0b1));
  CHECK(!first.empty());
  if (!first.empty()) CHECK_EQ(first[0], std::string("P 1 0 2000"));  // scanned before commands
  CHECK(first.size() < 5);  // at most max_bytes_per_poll of input handled per poll
}

// ---------------------------------------------------------------------------- races, lamps
TEST(arm_lights_the_eligible_lamps_and_a_press_puts_its_lamp_out) {
  Rig rig;
  rig.hal.now = 5000;
  CHECK_EQ(one(rig.command("ARM 9 B")), std::string("ARMED 9 B 5000"));
  CHECK_EQ(rig.hal.lamps, 0xBu);
  auto press = rig.at(6000, 0b10);
  CHECK_EQ(one(press), std::string("P 1 1 6000"));
  CHECK_EQ(rig.hal.lamps, 0x9u);
  rig.at(7000, 0b110);  // button 2 is not in the race: reported, lamps unchanged
  CHECK_EQ(rig.hal.lamps, 0x9u);
  rig.hal.now = 8000;
  CHECK_EQ(one(rig.command("DISARM 9")), std::string("DISARMED 9 8000"));
  CHECK_EQ(rig.hal.lamps, 0u);
}

TEST(arm_ignores_buttons_the_board_does_not_have) {
  Rig rig;
  CHECK_EQ(one(rig.command("ARM 1 FFFF")), std::string("ARMED 1 FFF 1000"));
}

TEST(lamps_on_off_and_blink_with_a_common_phase) {
  Rig rig;
  rig.command("LAMP 5 ON");
  CHECK_EQ(rig.hal.lamps, 0x5u);
  rig.command("LAMP 1 OFF");
  CHECK_EQ(rig.hal.lamps, 0x4u);
  rig.hal.now = 1000000;  // 1000 ms: 1000 % 400 = 200 -> off half
  rig.command("LAMP 3 BLINK 400");
  CHECK_EQ(rig.hal.lamps, 0x4u);
  rig.at(1200000, 0);  // 1200 % 400 = 0 -> on half
  CHECK_EQ(rig.hal.lamps, 0x7u);
  rig.at(1399000, 0);  // 1399 % 400 = 199: still on
  CHECK_EQ(rig.hal.lamps, 0x7u);
  rig.at(1400000, 0);  // 200: off
  CHECK_EQ(rig.hal.lamps, 0x4u);
  int writes = rig.hal.lamp_writes;
  rig.at(1400500, 0);
  CHECK_EQ(rig.hal.lamp_writes, writes);  // unchanged lamps are not rewritten
}

// ------------------------------------------------------------------------ heartbeat, replay
TEST(heartbeat_every_half_second_with_the_last_sequence_number) {
  Rig rig;  // begun at 1000 µs
  CHECK(rig.at(500999, 0).empty());
  CHECK_EQ(one(rig.at(501000, 0)), std::string("HB 501000 0"));
  rig.at(600000, 0b1);
  CHECK(rig.at(1000999, 0b1).empty());
  CHECK_EQ(one(rig.at(1001000, 0b1)), std::string("HB 1001000 1"));
}

TEST(resend_replays_buffered_edges_and_reports_what_is_gone) {
  Rig rig;
  uint32_t t = 10000;
  for (int i = 0; i < 40; ++i) {  // 40 edges: press/release of button 0 every 10 ms
    rig.at(t, i % 2 == 0 ? 1 : 0);
    t += 10000;
  }
  CHECK_EQ(rig.core.lastSeq(), 40u);
  auto replay = bodies(rig.command("RESEND 39"));
  CHECK_EQ(replay.size(), 3u);
  if (replay.size() == 3) {
    CHECK_EQ(replay[0], std::string("P 39 0 390000"));
    CHECK_EQ(replay[1], std::string("R 40 0 400000"));
    CHECK_EQ(replay[2], std::string("OK RESEND"));
  }
  auto gone = bodies(rig.command("RESEND 2"));
  CHECK_EQ(gone.size(), 33u);  // ERR GONE + the 32 kept edges (9..40)
  if (gone.size() == 33) {
    CHECK_EQ(gone[0], std::string("ERR GONE"));
    CHECK_EQ(gone[1], std::string("P 9 0 90000"));
  }
  CHECK_EQ(one(rig.command("RESEND 41")), std::string("OK RESEND"));
}

TEST(debounce_time_can_be_changed_by_the_host) {
  Rig rig;
  CHECK_EQ(one(rig.command("DEB 20000")), std::string("OK DEB"));
  rig.at(2000, 1);
  CHECK(rig.at(12000, 0).empty());  // inside the new 20 ms window
  CHECK_EQ(one(rig.at(22000, 0)), std::string("R 2 0 22000"));
  CHECK_EQ(body(rig.command("HI").at(0)), std::string("HELLO 1 1.0.0 12 12 20000 0 2"));
}

int main(int argc, char** argv) {
  if (argc > 1) g_vectors = argv[1];
  return check::run_all(argc > 2 ? argv[2] : nullptr);
}
