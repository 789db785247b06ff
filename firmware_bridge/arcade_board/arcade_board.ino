// Arcade-button board for the tabletop: a thin sketch over the portable core (../core).
//
// Boards: Raspberry Pi Pico / any RP2040 with the Arduino-Pico core (12 buttons, 12 lamps), or an
// ATmega32U4 Pro Micro (8 buttons, 8 lamps). Wiring and flashing: ../README.md.
// Buttons connect a pin to GND (internal pull-ups, pressed = LOW); lamps are driven through a
// ULN2803 (or logic-level MOSFETs) from the lamp pins, HIGH = lit.
// Built on the host by `make -C firmware_bridge/core test` against a stub Arduino.h (tests/arduino_stub).
#include <Arduino.h>
#include <arcade_core.h>
#if defined(ARDUINO_ARCH_RP2040) && __has_include(<hardware/gpio.h>)
#include <hardware/gpio.h>  // gpio_get_all()
#endif

#if defined(ARDUINO_ARCH_RP2040)
static const uint8_t kButtonPins[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
static const uint8_t kLampPins[] = {14, 15, 16, 17, 18, 19, 20, 21, 22, 26, 27, 28};
#elif defined(ARDUINO_AVR_LEONARDO) || defined(ARDUINO_AVR_PROMICRO) || defined(__AVR_ATmega32U4__)
static const uint8_t kButtonPins[] = {2, 3, 4, 5, 6, 7, 8, 9};
static const uint8_t kLampPins[] = {10, 16, 14, 15, 18, 19, 20, 21};
#else
#error "Pick the pins for this board: RP2040 (Arduino-Pico) and ATmega32U4 are provided."
#endif

static constexpr uint8_t kButtons = sizeof(kButtonPins);
static constexpr uint8_t kLamps = sizeof(kLampPins);
static_assert(kButtons <= arcade::kMaxButtons && kLamps <= arcade::kMaxButtons, "too many pins");

class BoardHal : public arcade::Hal {
 public:
  uint32_t micros() override { return ::micros(); }

  uint32_t readButtons() override {
#if defined(ARDUINO_ARCH_RP2040)
    uint32_t levels = gpio_get_all();  // every pin sampled in the same instant
    uint32_t mask = 0;
    for (uint8_t i = 0; i < kButtons; ++i) {
      if (!(levels & (1u << kButtonPins[i]))) mask |= 1u << i;
    }
    return mask;
#else
    uint32_t mask = 0;
    for (uint8_t i = 0; i < kButtons; ++i) {
      if (digitalRead(kButtonPins[i]) == LOW) mask |= 1u << i;
    }
    return mask;
#endif
  }

  void writeLamps(uint32_t mask) override {
    for (uint8_t i = 0; i < kLamps; ++i) digitalWrite(kLampPins[i], (mask >> i) & 1u ? HIGH : LOW);
  }

  int readByte() override { return Serial.available() > 0 ? Serial.read() : -1; }

  void writeBytes(const char* data, size_t n) override {
    // Never block the scan loop: with no host reading, a line is dropped (the host asks RESEND).
    if (static_cast<size_t>(Serial.availableForWrite()) >= n) Serial.write(data, n);
  }
};

static uint16_t bootId() {
#if defined(ARDUINO_ARCH_RP2040)
  return static_cast<uint16_t>(rp2040.hwrand32());
#else
  uint16_t seed = 0;
  for (uint8_t i = 0; i < 16; ++i) seed = static_cast<uint16_t>((seed << 1) ^ analogRead(A0));
  return seed;
#endif
}

static BoardHal hal;
static arcade::Config config;
static arcade::Core* core = nullptr;

void setup() {
  for (uint8_t pin : kButtonPins) pinMode(pin, INPUT_PULLUP);
  for (uint8_t pin : kLampPins) {
    pinMode(pin, OUTPUT);
    digitalWrite(pin, LOW);
  }
  Serial.begin(115200);  // USB CDC: the baud rate is ignored
  config.buttons = kButtons;
  config.lamps = kLamps;
  config.boot_id = bootId();
  static arcade::Core instance(hal, config);
  core = &instance;
  core->begin();
}

void loop() { core->poll(); }
