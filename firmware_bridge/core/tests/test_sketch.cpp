// Compiles the Arduino sketch on the host (with tests/arduino_stub) and runs setup()/loop() once
// with a button held, checking the wiring of pins to the core.
#include <cstdio>
#include <string>

#include "../../arcade_board/arcade_board.ino"

int main() {
  stub::now_us = 100;
  setup();
  bool hello = stub::serial_out.rfind("HELLO 1 1.0.0 12 12 5000 48879 0*", 0) == 0;
  bool pullups = stub::pin_mode[2] == INPUT_PULLUP && stub::pin_mode[13] == INPUT_PULLUP;
  bool lamps = stub::pin_mode[14] == OUTPUT && stub::pin_mode[28] == OUTPUT;
  stub::serial_out.clear();
  stub::now_us = 2000;
  stub::gpio_levels &= ~(1u << 5);  // GP5 pulled low: button 3 pressed
  loop();
  bool press = stub::serial_out.rfind("P 1 3 2000*", 0) == 0;
  stub::serial_out.clear();
  stub::serial_in = "ARM 1 8*";
  char crc[8];
  uint16_t c = arcade::crc16(reinterpret_cast<const uint8_t*>("ARM 1 8"), 7);
  std::snprintf(crc, sizeof crc, "%04X\n", c);
  stub::serial_in += crc;
  for (int i = 0; i < 20; ++i) loop();
  // pressed before the race was armed: a false start, so its lamp lights and waits for a press
  bool armed = stub::serial_out.rfind("ARMED 1 8 2000*", 0) == 0 && stub::pin_level[17] == HIGH;
  std::printf("%s sketch: hello=%d pullups=%d lamps=%d press=%d armed=%d\n",
              hello && pullups && lamps && press && armed ? "ok  " : "FAIL", hello, pullups, lamps, press, armed);
  return hello && pullups && lamps && press && armed ? 0 : 1;
}
