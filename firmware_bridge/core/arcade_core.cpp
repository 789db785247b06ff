// Portable core of the arcade-button board firmware. See arcade_core.h and ../PROTOCOL.md.
#include "arcade_core.h"

namespace arcade {

namespace {

constexpr char kHex[] = "0123456789ABCDEF";

bool isPrintable(char c) { return c >= 0x20 && c <= 0x7E; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool sameWord(const char* a, size_t n, const char* word) {
  size_t i = 0;
  for (; i < n; ++i) {
    if (word[i] == '\0' || word[i] != a[i]) return false;
  }
  return word[i] == '\0';
}

// A token of the body: [start, start + len).
struct Token {
  const char* start;
  size_t len;
};

// Splits on single spaces; fails on empty tokens or more than `cap` tokens.
int tokenize(const char* body, size_t n, Token* out, int cap) {
  int count = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= n; ++i) {
    if (i < n && body[i] != ' ') continue;
    if (i == begin || count == cap) return -1;
    out[count++] = Token{body + begin, i - begin};
    begin = i + 1;
  }
  return count;
}

bool parseDecimal(const Token& t, uint32_t limit, uint32_t* value) {
  if (t.len == 0 || t.len > 10) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < t.len; ++i) {
    if (t.start[i] < '0' || t.start[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(t.start[i] - '0');
  }
  if (v > limit) return false;
  *value = static_cast<uint32_t>(v);
  return true;
}

bool parseMask(const Token& t, uint32_t* value) {
  if (t.len == 0 || t.len > 4) return false;
  uint32_t v = 0;
  for (size_t i = 0; i < t.len; ++i) {
    int d = hexValue(t.start[i]);
    if (d < 0) return false;
    v = (v << 4) | static_cast<uint32_t>(d);
  }
  *value = v;
  return true;
}

ErrorCode parseLamp(const Token* t, int n, Command& out) {
  if (n != 3 && n != 4) return ErrorCode::Arg;
  if (!parseMask(t[1], &out.a)) return ErrorCode::Arg;
  if (sameWord(t[2].start, t[2].len, "ON")) out.mode = LampMode::On;
  else if (sameWord(t[2].start, t[2].len, "OFF")) out.mode = LampMode::Off;
  else if (sameWord(t[2].start, t[2].len, "BLINK")) out.mode = LampMode::Blink;
  else return ErrorCode::Arg;
  bool blink = out.mode == LampMode::Blink;
  if (blink != (n == 4)) return ErrorCode::Arg;
  if (blink && (!parseDecimal(t[3], 60000, &out.b) || out.b < 2)) return ErrorCode::Arg;
  return ErrorCode::None;
}

ErrorCode parseTokens(const Token* t, int n, Command& out) {
  const Token& w = t[0];
  if (sameWord(w.start, w.len, "HI")) {
    out.kind = CommandKind::Hi;
    return n == 1 ? ErrorCode::None : ErrorCode::Arg;
  }
  if (sameWord(w.start, w.len, "LAMP")) {
    out.kind = CommandKind::Lamp;
    return parseLamp(t, n, out);
  }
  if (sameWord(w.start, w.len, "ARM")) {
    out.kind = CommandKind::Arm;
    bool ok = n == 3 && parseDecimal(t[1], 0xFFFF, &out.a) && parseMask(t[2], &out.b);
    return ok ? ErrorCode::None : ErrorCode::Arg;
  }
  struct Simple {
    const char* word;
    CommandKind kind;
    uint32_t limit;
  };
  static const Simple kSimple[] = {
      {"CLK", CommandKind::Clock, 0xFFFFFFFFu},
      {"DISARM", CommandKind::Disarm, 0xFFFF},
      {"RESEND", CommandKind::Resend, 0xFFFFFFFFu},
      {"DEB", CommandKind::Debounce, 1000000},
  };
  for (const Simple& s : kSimple) {
    if (!sameWord(w.start, w.len, s.word)) continue;
    out.kind = s.kind;
    return n == 2 && parseDecimal(t[1], s.limit, &out.a) ? ErrorCode::None : ErrorCode::Arg;
  }
  return ErrorCode::Cmd;
}

}  // namespace

uint16_t crc16(const uint8_t* data, size_t n) {
  uint16_t crc = 0xFFFF;
  for (size_t i = 0; i < n; ++i) {
    crc = static_cast<uint16_t>(crc ^ (data[i] << 8));
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 0x8000) ? static_cast<uint16_t>((crc << 1) ^ 0x1021) : static_cast<uint16_t>(crc << 1);
    }
  }
  return crc;
}

// ------------------------------------------------------------------------------------ Clock64
uint64_t Clock64::extend(uint32_t now32) {
  if (now32 < last_) ++high_;  // the 32-bit counter wrapped since the last call
  last_ = now32;
  return (static_cast<uint64_t>(high_) << 32) | now32;
}

// ---------------------------------------------------------------------------------- Debouncer
void Debouncer::configure(uint8_t buttons, uint32_t debounce_us) {
  buttons_ = buttons > kMaxButtons ? kMaxButtons : buttons;
  debounce_us_ = debounce_us;
}

void Debouncer::reset(uint32_t raw) {
  state_ = raw;
  for (uint64_t& q : quiet_until_) q = 0;
}

uint8_t Debouncer::scan(uint32_t raw, uint64_t now_us, Edge* out) {
  uint8_t count = 0;
  uint32_t changed = (raw ^ state_) & ((1u << buttons_) - 1u);
  for (uint8_t b = 0; changed != 0 && b < buttons_; ++b) {
    uint32_t bit = 1u << b;
    if (!(changed & bit)) continue;
    changed &= ~bit;
    if (now_us < quiet_until_[b]) continue;  // still bouncing from the last edge: ignore
    state_ ^= bit;
    quiet_until_[b] = now_us + debounce_us_;
    out[count++] = Edge{b, (raw & bit) != 0, now_us};
  }
  return count;
}

// -------------------------------------------------------------------------------------- Lamps
void Lamps::set(uint32_t mask, LampMode mode, uint32_t period_ms) {
  for (uint8_t i = 0; i < kMaxButtons; ++i) {
    if (!(mask & (1u << i))) continue;
    mode_[i] = mode;
    period_ms_[i] = period_ms;
  }
}

uint32_t Lamps::maskAt(uint64_t now_us) const {
  uint32_t mask = 0;
  uint64_t now_ms = now_us / 1000;
  for (uint8_t i = 0; i < kMaxButtons; ++i) {
    bool blink = mode_[i] == LampMode::Blink && period_ms_[i] >= 2;
    bool lit = (mode_[i] == LampMode::On) || (blink && (now_ms % period_ms_[i]) < period_ms_[i] / 2) ||
               (mode_[i] == LampMode::Blink && !blink);
    if (lit) mask |= 1u << i;
  }
  return mask;
}

// -------------------------------------------------------------------------------- LineBuilder
LineBuilder::LineBuilder(const char* word) { str(word); }

void LineBuilder::put(char c) {
  if (len_ >= kMaxLine) {
    overflow_ = true;
    return;
  }
  buf_[len_++] = c;
}

LineBuilder& LineBuilder::str(const char* s) {
  if (len_ > 0) put(' ');
  while (*s) put(*s++);
  return *this;
}

LineBuilder& LineBuilder::u64(uint64_t v) {
  char digits[21];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  if (len_ > 0) put(' ');
  while (n > 0) put(digits[--n]);
  return *this;
}

LineBuilder& LineBuilder::hex(uint32_t v) {
  char digits[8];
  int n = 0;
  do {
    digits[n++] = kHex[v & 0xF];
    v >>= 4;
  } while (v != 0);
  if (len_ > 0) put(' ');
  while (n > 0) put(digits[--n]);
  return *this;
}

const char* LineBuilder::finish(size_t* len) {
  if (overflow_ || len_ + 5 > kMaxLine) return nullptr;
  uint16_t crc = crc16(reinterpret_cast<const uint8_t*>(buf_), len_);
  buf_[len_++] = '*';
  for (int shift = 12; shift >= 0; shift -= 4) buf_[len_++] = kHex[(crc >> shift) & 0xF];
  buf_[len_++] = '\n';
  *len = len_;
  return buf_;
}

// --------------------------------------------------------------------------------- LineReader
LineReader::Status LineReader::feed(uint8_t byte) {
  if (ready_) {
    len_ = 0;
    ready_ = false;
  }
  if (byte == '\n') {
    if (len_ > 0 && buf_[len_ - 1] == '\r') --len_;
    if (overflow_) {
      overflow_ = false;
      len_ = 0;
      return Status::TooLong;
    }
    if (len_ == 0) return Status::None;
    buf_[len_] = '\0';
    ready_ = true;
    return Status::Line;
  }
  if (overflow_) return Status::None;
  if (len_ >= kMaxLine + 1) {  // one spare byte for a '\r'
    overflow_ = true;
    return Status::None;
  }
  buf_[len_++] = static_cast<char>(byte);
  return Status::None;
}

// ---------------------------------------------------------------------------------- commands
bool checkLine(const char* line, size_t n, size_t* body_len) {
  if (n < 5 || n > kMaxLine || line[n - 5] != '*') return false;
  size_t body = n - 5;
  uint16_t crc = 0;
  for (size_t i = n - 4; i < n; ++i) {
    int d = hexValue(line[i]);
    if (d < 0) return false;
    crc = static_cast<uint16_t>((crc << 4) | d);
  }
  for (size_t i = 0; i < body; ++i) {
    if (!isPrintable(line[i]) || line[i] == '*') return false;
  }
  *body_len = body;
  return crc16(reinterpret_cast<const uint8_t*>(line), body) == crc;
}

ErrorCode parseCommand(const char* line, size_t n, Command& out) {
  if (n > kMaxLine) return ErrorCode::Len;
  size_t body = 0;
  if (!checkLine(line, n, &body)) return ErrorCode::Crc;
  Token tokens[4];
  int count = tokenize(line, body, tokens, 4);
  if (count <= 0) return count == 0 ? ErrorCode::Cmd : ErrorCode::Arg;
  return parseTokens(tokens, count, out);
}

// --------------------------------------------------------------------------------------- Core
Core::Core(Hal& hal, const Config& config) : hal_(hal), config_(config) {
  if (config_.buttons > kMaxButtons) config_.buttons = kMaxButtons;
  if (config_.lamps > kMaxButtons) config_.lamps = kMaxButtons;
  debouncer_.configure(config_.buttons, config_.debounce_us);
}

void Core::begin() {
  now_us_ = clock_.extend(hal_.micros());
  debouncer_.reset(hal_.readButtons());
  next_heartbeat_us_ = now_us_ + config_.heartbeat_us;
  hal_.writeLamps(0);
  lamp_out_ = 0;
  sendHello();
}

void Core::poll() {
  tick();
  scanButtons();
  readCommands();
  heartbeat();
  updateLamps();
}

void Core::tick() { now_us_ = clock_.extend(hal_.micros()); }

uint32_t Core::validMask() const { return (1u << config_.buttons) - 1u; }

void Core::scanButtons() {
  Edge edges[kMaxButtons];
  uint8_t n = debouncer_.scan(hal_.readButtons(), now_us_, edges);
  for (uint8_t i = 0; i < n; ++i) onEdge(edges[i]);
}

void Core::onEdge(const Edge& e) {
  ++seq_;
  history_[seq_ % kReplayDepth] = e;
  if (e.pressed) race_pending_ &= ~(1u << e.button);  // the player sees the lamp go out
  sendEdge(seq_, e);
}

void Core::sendEdge(uint32_t seq, const Edge& e) {
  LineBuilder b(e.pressed ? "P" : "R");
  b.u64(seq).u64(e.button).u64(e.t_us);
  send(b);
}

void Core::readCommands() {
  for (uint8_t i = 0; i < config_.max_bytes_per_poll; ++i) {
    int byte = hal_.readByte();
    if (byte < 0) return;
    LineReader::Status s = reader_.feed(static_cast<uint8_t>(byte));
    if (s == LineReader::Status::TooLong) {
      sendError(ErrorCode::Len);
    } else if (s == LineReader::Status::Line) {
      tick();  // answers carry the time the command was read, not the start of the poll
      Command c;
      ErrorCode e = parseCommand(reader_.line(), reader_.length(), c);
      if (e == ErrorCode::None) execute(c);
      else sendError(e);
    }
  }
}

void Core::execute(const Command& c) {
  switch (c.kind) {
    case CommandKind::Hi:
      sendHello();
      return;
    case CommandKind::Clock: {
      LineBuilder b("CLK");
      b.u64(c.a).u64(now_us_);
      send(b);
      return;
    }
    case CommandKind::Arm: {
      race_ = c.a;
      race_mask_ = c.b & validMask();
      race_pending_ = race_mask_;
      LineBuilder b("ARMED");
      b.u64(race_).hex(race_mask_).u64(now_us_);
      send(b);
      return;
    }
    case CommandKind::Disarm: {
      race_mask_ = 0;
      race_pending_ = 0;
      LineBuilder b("DISARMED");
      b.u64(c.a).u64(now_us_);
      send(b);
      return;
    }
    case CommandKind::Lamp:
      lamps_.set(c.a & validMask(), c.mode, c.b);
      sendOk("LAMP");
      return;
    case CommandKind::Resend:
      replay(c.a);
      return;
    case CommandKind::Debounce:
      debouncer_.setDebounce(c.a);
      sendOk("DEB");
      return;
  }
}

void Core::replay(uint32_t from_seq) {
  if (from_seq == 0) from_seq = 1;
  uint32_t oldest = seq_ >= kReplayDepth ? seq_ - kReplayDepth + 1 : 1;
  bool gone = from_seq < oldest;
  if (gone) {
    sendError(ErrorCode::Gone);
    from_seq = oldest;
  }
  for (uint32_t s = from_seq; s <= seq_ && s != 0; ++s) sendEdge(s, history_[s % kReplayDepth]);
  if (!gone) sendOk("RESEND");
}

void Core::sendError(ErrorCode e) {
  const char* code = "GONE";
  switch (e) {
    case ErrorCode::Crc: code = "CRC"; break;
    case ErrorCode::Cmd: code = "CMD"; break;
    case ErrorCode::Arg: code = "ARG"; break;
    case ErrorCode::Len: code = "LEN"; break;
    case ErrorCode::Gone:
    case ErrorCode::None: break;
  }
  LineBuilder b("ERR");
  b.str(code);
  send(b);
}

void Core::sendHello() {
  LineBuilder b("HELLO");
  b.u64(kProtocolVersion).str(kFirmwareVersion).u64(config_.buttons).u64(config_.lamps);
  b.u64(debouncer_.debounce()).u64(config_.boot_id).u64(seq_);
  send(b);
}

void Core::sendOk(const char* word) {
  LineBuilder b("OK");
  b.str(word);
  send(b);
}

void Core::send(LineBuilder& b) {
  size_t n = 0;
  const char* line = b.finish(&n);
  if (line != nullptr) hal_.writeBytes(line, n);
}

void Core::heartbeat() {
  if (now_us_ < next_heartbeat_us_) return;
  next_heartbeat_us_ = now_us_ + config_.heartbeat_us;
  LineBuilder b("HB");
  b.u64(now_us_).u64(seq_);
  send(b);
}

void Core::updateLamps() {
  uint32_t lamp_bits = (1u << config_.lamps) - 1u;
  uint32_t out = ((lamps_.maskAt(now_us_) & ~race_mask_) | race_pending_) & lamp_bits;
  if (out == lamp_out_) return;
  lamp_out_ = out;
  hal_.writeLamps(out);
}

}  // namespace arcade
