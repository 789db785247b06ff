// A scriptable stand-in for the board: settable clock and buttons, captured lamps and output.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "../arcade_core.h"

struct FakeHal : arcade::Hal {
  uint32_t now = 0;
  uint32_t buttons = 0;
  uint32_t lamps = 0;
  int lamp_writes = 0;
  std::deque<uint8_t> input;
  std::string output;

  uint32_t micros() override { return now; }
  uint32_t readButtons() override { return buttons; }
  void writeLamps(uint32_t mask) override {
    lamps = mask;
    ++lamp_writes;
  }
  int readByte() override {
    if (input.empty()) return -1;
    int b = input.front();
    input.pop_front();
    return b;
  }
  void writeBytes(const char* data, size_t n) override { output.append(data, n); }

  void send(const std::string& text) { input.insert(input.end(), text.begin(), text.end()); }

  // Complete lines written so far (without their newline); clears the output.
  std::vector<std::string> take() {
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t nl; (nl = output.find('\n', start)) != std::string::npos; start = nl + 1) {
      lines.push_back(output.substr(start, nl - start));
    }
    output.erase(0, start);
    return lines;
  }
};

// The body of a line ("P 1 3 1000*8A56" -> "P 1 3 1000").
inline std::string body(const std::string& line) { return line.substr(0, line.rfind('*')); }

// A framed host command, as the bridge sends it.
inline std::string framed(const std::string& text) {
  uint16_t crc = arcade::crc16(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  static const char* hex = "0123456789ABCDEF";
  std::string out = text + "*";
  for (int shift = 12; shift >= 0; shift -= 4) out += hex[(crc >> shift) & 0xF];
  return out + "\n";
}
