"""Protocol v1 framing and messages (firmware_bridge/framing.py) and clock sync (clock.py)."""
from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import framing as fr
from firmware_bridge.clock import ClockSample, ClockSync

VECTORS = Path(__file__).resolve().parents[2] / "firmware_bridge" / "core" / "tests" / "vectors.txt"


def vectors() -> list[tuple[str, bytes]]:
    """(direction, line) for every vector; the file's section comments name the direction."""
    out, direction = [], ""
    for ln in VECTORS.read_text().splitlines():
        if ln.startswith("# device"):
            direction = "device"
        elif ln.startswith("# host"):
            direction = "host"
        elif ln and not ln.startswith("#"):
            out.append((direction, ln.encode()))
    assert len(out) >= 20 and {d for d, _ in out} == {"device", "host"}
    return out


def decode(direction: str, line: bytes):
    return fr.decode_device(line) if direction == "device" else fr.decode_host(line)


def test_crc16_check_value():
    assert fr.crc16(b"123456789") == fr.crc16_bitwise(b"123456789") == 0x29B1


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=100))
def test_fast_crc_equals_the_firmware_bitwise_crc(data):
    assert fr.crc16(data) == fr.crc16_bitwise(data)


def test_shared_vectors_decode_in_the_right_direction_and_re_encode_identically():
    for direction, line in vectors():
        assert fr.encode(decode(direction, line)) == line + b"\n"


def test_every_single_bit_flip_in_the_vectors_is_dropped():
    for direction, line in vectors():
        for i in range(len(line)):
            for bit in range(8):
                bad = line[:i] + bytes([line[i] ^ (1 << bit)]) + line[i + 1 :]
                if bad[i : i + 1] == b"\n":
                    continue  # that just cuts the line: covered by the truncation test
                with pytest.raises(fr.FrameError):
                    decode(direction, bad)


def test_truncated_lines_are_dropped():
    line = fr.encode(fr.ButtonEdge(12, 3, 4294967296123, True)).rstrip(b"\n")
    for cut in range(1, len(line)):
        with pytest.raises(fr.FrameError):
            fr.decode_device(line[:cut])


@pytest.mark.parametrize(
    "body,error",
    [
        ("P 1 3", fr.MalformedLine),  # missing argument
        ("P 1 16 100", fr.MalformedLine),  # no such button
        ("P 1 x 100", fr.MalformedLine),
        ("P  1 3 100", fr.MalformedLine),  # empty token
        ("ARMED 1 7g 100", fr.MalformedLine),
        ("ERR WHAT", fr.MalformedLine),
        ("OK JUMP", fr.MalformedLine),
        ("HELLO 1 1.0 99 12 5000 1 0", fr.MalformedLine),
        ("HELLO 1 1.0 12 12 5000 1", fr.MalformedLine),  # a field missing
        ("ZAP 1", fr.UnknownMessage),
    ],
)
def test_well_framed_but_wrong_lines_raise_typed_errors(body, error):
    with pytest.raises(error):
        fr.decode_device(fr.frame(body).rstrip(b"\n"))


def test_lowercase_checksum_and_crlf():
    line = fr.frame("HB 5 0").rstrip(b"\n")
    assert fr.decode_device(line + b"\r") == fr.Heartbeat(5, 0)
    with pytest.raises(fr.FrameError):
        fr.decode_device(line.lower())


def test_frame_refuses_bad_bodies():
    for body in ("a*b", "tab\there", "x" * 200, "é"):
        with pytest.raises((ValueError, UnicodeEncodeError)):
            fr.frame(body)


def test_lamp_command_forms():
    assert fr.decode_host(b"LAMP 3 BLINK 500*9CE4") == fr.SetLamps(3, fr.LampMode.BLINK, 500)
    for body in ("LAMP 3 BLINK", "LAMP 3 ON 5", "LAMP 3 DIM", "LAMP 3 BLINK 1"):
        with pytest.raises(fr.MalformedLine):
            fr.decode_host(fr.frame(body).rstrip(b"\n"))


u32 = st.integers(0, fr.U32)
u64 = st.integers(0, fr.U64)
messages = st.one_of(
    st.builds(fr.Hello, st.integers(0, 255), st.from_regex(r"[0-9a-z.\-]{1,16}", fullmatch=True),
              st.integers(0, 16), st.integers(0, 16), u32, st.integers(0, 0xFFFF), u32),
    st.builds(fr.ButtonEdge, u32, st.integers(0, 15), u64, st.booleans()),
    st.builds(fr.Heartbeat, u64, u32),
    st.builds(fr.ClockReply, u32, u64),
    st.builds(fr.Armed, st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), u64),
    st.builds(fr.Disarmed, st.integers(0, 0xFFFF), u64),
    st.builds(fr.Ok, st.sampled_from(["LAMP", "DEB", "RESEND"])),
    st.builds(fr.DeviceError, st.sampled_from(list(fr.ErrorCode))),
)
commands = st.one_of(
    st.just(fr.HelloRequest()),
    st.builds(fr.ClockRequest, u32),
    st.builds(fr.Arm, st.integers(0, 0xFFFF), st.integers(0, 0xFFFF)),
    st.builds(fr.Disarm, st.integers(0, 0xFFFF)),
    st.builds(fr.SetLamps, st.integers(0, 0xFFFF), st.sampled_from([fr.LampMode.ON, fr.LampMode.OFF])),
    st.builds(fr.SetLamps, st.integers(0, 0xFFFF), st.just(fr.LampMode.BLINK), st.integers(2, 60_000)),
    st.builds(fr.Resend, u32),
    st.builds(fr.SetDebounce, st.integers(0, 1_000_000)),
)


@settings(max_examples=150, deadline=None)
@given(messages)
def test_device_messages_round_trip(msg):
    assert fr.decode_device(fr.encode(msg).rstrip(b"\n")) == msg


@settings(max_examples=100, deadline=None)
@given(commands)
def test_host_commands_round_trip(cmd):
    assert fr.decode_host(fr.encode(cmd).rstrip(b"\n")) == cmd


@settings(max_examples=60, deadline=None)
@given(st.lists(messages, min_size=1, max_size=20), st.lists(st.integers(1, 40), max_size=40))
def test_framer_output_does_not_depend_on_how_bytes_are_chunked(msgs, cuts):
    stream = b"".join(fr.encode(m) for m in msgs)
    framer, lines, pos = fr.LineFramer(), [], 0
    for size in cuts + [len(stream)]:
        lines += framer.feed(stream[pos : pos + size])
        pos += size
    assert [fr.decode_device(ln) for ln in lines] == msgs


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300), messages)
def test_garbage_never_crashes_and_the_next_good_line_after_a_newline_survives(junk, msg):
    framer = fr.LineFramer()
    out = framer.feed(junk + b"\n" + fr.encode(msg))
    decoded = []
    for item in out:
        if isinstance(item, bytes):
            with contextlib.suppress(fr.FrameError):
                decoded.append(fr.decode_device(item))
    assert decoded[-1] == msg


def test_overlong_line_is_reported_once_and_stream_recovers():
    framer = fr.LineFramer()
    out = framer.feed(b"x" * 500) + framer.feed(b"yyy\n" + fr.encode(fr.Heartbeat(1, 0)))
    assert isinstance(out[0], fr.LineTooLong) and len(out) == 2
    assert fr.decode_device(out[1]) == fr.Heartbeat(1, 0)


# ---------------------------------------------------------------------------------- clock
def test_clock_sync_uses_the_shortest_round_trip():
    sync = ClockSync()
    # device clock = session ms * 1000 + 5_000_000 µs; replies read at the true midpoint + jitter
    sync.add(ClockSample(100.0, 110.0, 5_000_000 + 103_000))  # slow: midpoint 105, true 103
    sync.add(ClockSample(200.0, 200.4, 5_000_000 + 200_200))  # fast and exact
    m = sync.map()
    assert m.to_session_ms(5_000_000 + 300_000) == pytest.approx(300.0)
    assert m.error_ms == pytest.approx(0.2 + 0.05)
    assert m.to_device_us(300.0) == 5_300_000


def test_clock_sync_fits_crystal_rate_over_a_long_span():
    sync = ClockSync()
    rate = 1.00005  # the device runs 50 ppm slow
    for i in range(20):
        session = 1000.0 + i * 2000.0
        device = round((session - 1000.0) / rate * 1000) + 77
        sync.add(ClockSample(session - 0.1, session + 0.1, device))
    m = sync.map()
    assert m.rate == pytest.approx(rate, abs=2e-6)
    far = round((60_000.0 - 1000.0) / rate * 1000) + 77
    assert m.to_session_ms(far) == pytest.approx(60_000.0, abs=0.05)


def test_clock_sync_prefers_a_recent_good_sample_and_bounds_drift():
    sync = ClockSync(min_span_for_rate_ms=1e12)  # never fit the rate: drift stays bounded by 100 ppm
    sync.add(ClockSample(0.0, 0.1, 50))  # the fastest round trip, but 60 s old by the end
    for i in range(1, 61):
        t = i * 1000.0
        sync.add(ClockSample(t - 0.12, t + 0.12, round(t * 1000)))
    m = sync.map()
    assert m.device_ref_us == 60_000_000  # the newest good sample, not the oldest fastest one
    assert m.error_at(60_000_000) == pytest.approx(0.12 + 0.05)
    assert m.error_at(70_000_000) == pytest.approx(0.17 + 10_000 * 1e-4)  # 10 s on: + 1 ms


def test_clock_freeze_pins_the_map_until_thawed():
    sync = ClockSync()
    with pytest.raises(LookupError):
        sync.map()
    sync.add(ClockSample(0.0, 2.0, 1000))
    sync.freeze()
    sync.add(ClockSample(10.0, 10.2, 10_500))
    assert sync.map().to_session_ms(1000) == pytest.approx(1.0)
    sync.thaw()
    assert sync.map().to_session_ms(10_500) == pytest.approx(10.1)
    with pytest.raises(ValueError):
        sync.add(ClockSample(5.0, 4.0, 0))


def test_every_example_in_PROTOCOL_md_is_a_valid_line():
    doc = (Path(__file__).resolve().parents[2] / "firmware_bridge" / "PROTOCOL.md").read_text()
    examples = [ln.split("> ", 1) for ln in doc.splitlines() if ln.startswith(("host> ", "board> "))]
    assert len(examples) >= 25
    for who, line in examples:
        decoder = fr.decode_host if who == "host" else fr.decode_device
        assert fr.encode(decoder(line.encode())) == line.encode() + b"\n"
