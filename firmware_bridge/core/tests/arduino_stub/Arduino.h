// Just enough of the Arduino (and Arduino-Pico) API to compile arcade_board.ino on the host, so a
// change to the core that breaks the sketch fails `make test`. Behaviour: a recorded fake board.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string>

#define HIGH 1
#define LOW 0
#define INPUT_PULLUP 2
#define OUTPUT 1
#define A0 26

namespace stub {
inline uint32_t now_us = 0;
inline uint32_t gpio_levels = 0xFFFFFFFFu;  // pull-ups: nothing pressed
inline int pin_mode[32] = {};
inline int pin_level[32] = {};
inline std::string serial_out;
inline std::string serial_in;
}  // namespace stub

inline unsigned long micros() { return stub::now_us; }
inline void pinMode(uint8_t pin, int mode) { stub::pin_mode[pin] = mode; }
inline void digitalWrite(uint8_t pin, int level) { stub::pin_level[pin] = level; }
inline int digitalRead(uint8_t pin) { return (stub::gpio_levels >> pin) & 1u ? HIGH : LOW; }
inline int analogRead(uint8_t) { return 0; }
inline uint32_t gpio_get_all() { return stub::gpio_levels; }

struct RP2040Stub {
  uint32_t hwrand32() { return 0xBEEF; }
};
inline RP2040Stub rp2040;

struct SerialStub {
  void begin(unsigned long) {}
  int available() { return static_cast<int>(stub::serial_in.size()); }
  int read() {
    if (stub::serial_in.empty()) return -1;
    int c = static_cast<unsigned char>(stub::serial_in[0]);
    stub::serial_in.erase(0, 1);
    return c;
  }
  int availableForWrite() { return 256; }
  size_t write(const char* data, size_t n) {
    stub::serial_out.append(data, n);
    return n;
  }
};
inline SerialStub Serial;
