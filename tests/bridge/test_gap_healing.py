"""BoardProtocol heals press lines lost to noise with RESEND: every edge arrives exactly once."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import framing as fr
from firmware_bridge.bridge import BoardProtocol

HISTORY = 32  # edges the firmware keeps for RESEND


class FakeBoard:
    """The firmware's side of the link: a history of edges, RESEND answered from it, and a lossy
    line where ``drops`` says which transmissions are lost."""

    def __init__(self, protocol: BoardProtocol, drops: list[bool]) -> None:
        self.protocol = protocol
        self.drops = iter(drops)
        self.history: list[fr.ButtonEdge] = []
        self.asked: list[int] = []
        self.corrupted = 0
        protocol.connection_made(self)  # type: ignore[arg-type]

    def write(self, data: bytes) -> None:  # the host's commands arrive here
        cmd = fr.decode_host(data.rstrip(b"\n"))
        assert isinstance(cmd, fr.Resend)
        self.asked.append(cmd.seq)
        for edge in self.history[-HISTORY:]:
            if edge.seq >= cmd.seq:
                self.transmit(edge)

    def transmit(self, msg: fr.DeviceMessage) -> None:
        line = fr.encode(msg)
        if next(self.drops, False):
            line = line[:5] + b"#" + line[6:]  # noise: the checksum no longer matches
            self.corrupted += 1
        self.protocol.data_received(line)

    def press(self, button: int, t_us: int) -> None:
        edge = fr.ButtonEdge(len(self.history) + 1, button, t_us, True)
        self.history.append(edge)
        self.transmit(edge)

    def heartbeat(self, t_us: int) -> None:
        self.transmit(fr.Heartbeat(t_us, len(self.history)))


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 24),
    st.lists(st.booleans(), max_size=200),
    st.integers(0, 10),
)
def test_every_edge_is_delivered_exactly_once_despite_lost_lines(n_edges, drops, heartbeats_between):
    delivered: list[fr.ButtonEdge] = []
    protocol = BoardProtocol(lambda m: delivered.append(m) if isinstance(m, fr.ButtonEdge) else None, lambda e: None)
    protocol.restart_sequence(0)
    board = FakeBoard(protocol, drops)
    t = 1_000_000
    for i in range(n_edges):
        board.press(i % 12, t)
        t += 1000
        if heartbeats_between and i % heartbeats_between == 0:
            board.heartbeat(t)
    for _ in range(len(drops) + 2):  # heartbeats keep coming until every loss has been healed
        board.heartbeat(t)
        t += 500_000
    assert sorted(e.seq for e in delivered) == list(range(1, n_edges + 1))
    assert protocol.stats.dropped.total() == board.corrupted  # every damaged line dropped, none misread
    if not any(drops):
        assert board.asked == []
