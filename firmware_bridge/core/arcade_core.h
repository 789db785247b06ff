// Portable core of the arcade-button board firmware (protocol version 1, see ../PROTOCOL.md).
//
// Everything that matters happens here: pin scanning with eager debounce, 64-bit microsecond
// timestamps from the wrapping 32-bit clock, the checksummed line protocol, races, lamps and the
// heartbeat. Hardware is reached only through the tiny `Hal` interface, so the same code runs in
// the Arduino sketch (../arcade_board/arcade_board.ino) and in the host unit tests (tests/).
// No heap, no exceptions, no printf: it fits an ATmega32U4 as well as an RP2040.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace arcade {

constexpr uint8_t kProtocolVersion = 1;
constexpr const char* kFirmwareVersion = "1.0.0";
constexpr uint8_t kMaxButtons = 16;
constexpr size_t kMaxLine = 96;     // bytes before the newline, checksum included
constexpr uint8_t kReplayDepth = 32;  // edges kept for RESEND

// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor.
uint16_t crc16(const uint8_t* data, size_t n);

// What the core needs from the board.
class Hal {
 public:
  virtual ~Hal() = default;
  virtual uint32_t micros() = 0;                          // free-running, wraps every ~71.6 min
  virtual uint32_t readButtons() = 0;                     // bit i set: button i is held down
  virtual void writeLamps(uint32_t mask) = 0;             // bit i set: lamp i lit
  virtual int readByte() = 0;                             // next received byte, or -1
  virtual void writeBytes(const char* data, size_t n) = 0;
};

// Extends the 32-bit microsecond counter to 64 bits. Must see the clock at least once per wrap
// period (the scan loop calls it thousands of times a second).
class Clock64 {
 public:
  uint64_t extend(uint32_t now32);

 private:
  uint32_t last_ = 0;
  uint32_t high_ = 0;
};

struct Edge {
  uint8_t button;
  bool pressed;
  uint64_t t_us;
};

// Eager debounce: an edge counts on its first sample; the pin is then ignored for debounce_us.
class Debouncer {
 public:
  void configure(uint8_t buttons, uint32_t debounce_us);
  void setDebounce(uint32_t debounce_us) { debounce_us_ = debounce_us; }
  uint32_t debounce() const { return debounce_us_; }
  void reset(uint32_t raw);  // adopt the current levels without reporting them
  // Compares the raw levels with the reported state; writes new edges to out, returns how many.
  uint8_t scan(uint32_t raw, uint64_t now_us, Edge* out);

 private:
  uint8_t buttons_ = 0;
  uint32_t debounce_us_ = 5000;
  uint32_t state_ = 0;
  uint64_t quiet_until_[kMaxButtons] = {};
};

enum class LampMode : uint8_t { Off, On, Blink };

class Lamps {
 public:
  void set(uint32_t mask, LampMode mode, uint32_t period_ms);
  uint32_t maskAt(uint64_t now_us) const;

 private:
  LampMode mode_[kMaxButtons] = {};
  uint32_t period_ms_[kMaxButtons] = {};
};

// Builds one protocol line: tokens separated by single spaces, then "*XXXX\n".
class LineBuilder {
 public:
  explicit LineBuilder(const char* word);
  LineBuilder& str(const char* s);
  LineBuilder& u64(uint64_t v);
  LineBuilder& hex(uint32_t v);
  // Appends the checksum and newline; returns the line (nullptr if it would be too long).
  const char* finish(size_t* len);

 private:
  void put(char c);
  char buf_[kMaxLine + 2];
  size_t len_ = 0;
  bool overflow_ = false;
};

// Collects received bytes into lines.
class LineReader {
 public:
  enum class Status : uint8_t { None, Line, TooLong };
  Status feed(uint8_t byte);
  const char* line() const { return buf_; }
  size_t length() const { return len_; }

 private:
  char buf_[kMaxLine + 1] = {};
  size_t len_ = 0;
  bool overflow_ = false;
  bool ready_ = false;
};

enum class CommandKind : uint8_t { Hi, Clock, Arm, Disarm, Lamp, Resend, Debounce };
// The ERR codes of the protocol (None: no error). Gone answers a RESEND for dropped history.
enum class ErrorCode : uint8_t { None, Crc, Cmd, Arg, Len, Gone };

struct Command {
  CommandKind kind = CommandKind::Hi;
  uint32_t a = 0;  // CLK token, ARM/DISARM race, LAMP mask, RESEND seq, DEB microseconds
  uint32_t b = 0;  // ARM mask, LAMP blink period (ms)
  LampMode mode = LampMode::Off;
};

// Checks a line's checksum and parses a host command from it.
ErrorCode parseCommand(const char* line, size_t n, Command& out);
// Is `line` (without newline) a well-formed line with a matching checksum?
bool checkLine(const char* line, size_t n, size_t* body_len);

struct Config {
  uint8_t buttons = 12;
  uint8_t lamps = 12;
  uint32_t debounce_us = 5000;
  uint32_t heartbeat_us = 500000;
  uint16_t boot_id = 0;  // differs on every power-up, so the host notices a reset
  uint8_t max_bytes_per_poll = 32;
};

class Core {
 public:
  Core(Hal& hal, const Config& config);
  void begin();  // adopt the current button levels, send HELLO
  void poll();   // one loop iteration: clock, scan, commands, heartbeat, lamps
  uint64_t now() const { return now_us_; }
  uint32_t lastSeq() const { return seq_; }
  uint32_t raceMask() const { return race_pending_; }

 private:
  void tick();
  void scanButtons();
  void onEdge(const Edge& e);
  void sendEdge(uint32_t seq, const Edge& e);
  void readCommands();
  void execute(const Command& c);
  void replay(uint32_t from_seq);
  void sendError(ErrorCode e);  // ERR <code>
  void sendHello();
  void sendOk(const char* word);
  void send(LineBuilder& b);
  void heartbeat();
  void updateLamps();
  uint32_t validMask() const;

  Hal& hal_;
  Config config_;
  Clock64 clock_;
  Debouncer debouncer_;
  Lamps lamps_;
  LineReader reader_;
  uint64_t now_us_ = 0;
  uint64_t next_heartbeat_us_ = 0;
  uint32_t seq_ = 0;
  Edge history_[kReplayDepth] = {};
  uint32_t race_ = 0;
  uint32_t race_mask_ = 0;     // buttons of the armed race
  uint32_t race_pending_ = 0;  // armed buttons not pressed yet: their lamps are lit
  uint32_t lamp_out_ = 0xFFFFFFFFu;
};

}  // namespace arcade
