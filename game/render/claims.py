"""The host's approval prompt on the big screen: a new phone asks for a held seat
(its player's phone died, or a guest wants a bot's seat mid-game). Drawn over any scene while the
snapshot's ``claims`` are not empty; Y allows and N refuses the first request, as Allow
and Refuse do on the host console. A kiosk's keyboard belongs to the guests: there only the host
console (behind the PIN) answers."""
from __future__ import annotations

import pygame

from game import i18n
from game.seating import look
from game.session.snapshot import ClaimInfo, RunMode

from .kit import shapes, theme
from .kit.scene import Frame, HostIntent, RenderContext, host
from .kit.text import Align, TextStyle

CLAIM_KEYS: dict[int, bool] = {pygame.K_y: True, pygame.K_n: False}


def open_claims(frame: Frame) -> tuple[ClaimInfo, ...]:
    return frame.snapshot.claims


def prompt_text(frame: Frame, claim: ClaimInfo) -> str:
    """"A phone asks for Ali's seat", "A phone calling itself “Sara” asks for Ali's seat" or "… asks to
    take over from the bot Green": the asker's name is only what it typed, so it is quoted as such."""
    who = claim.name
    holder = claim.seat_name or frame.s("seat.name", n=claim.seat + 1)
    if claim.bot:
        return frame.s("claim.bot", who=who, name=holder)
    return frame.s("claim.named", who=who, name=holder) if who else frame.s("claim.phone", name=holder)


def draw_claims(surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
    """The prompt for the one request shown (the session shows one at a time), over whatever the screen shows."""
    claims = open_claims(frame)
    if not claims:
        return
    claim, u = claims[0], frame.scale.u
    w, h = surface.get_size()
    box = pygame.Rect(0, 0, round(w * 0.72), round(h * 0.30))
    box.midbottom = (w // 2, h - round(24 * u))
    surface.blit(shapes.veil((w, h), (0, 0, 0, 120)), (0, 0))
    seat_look = look(claim.seat)
    colour = pygame.Color(seat_look.colour)
    shapes.panel(surface, box, theme.PANEL, border=(colour.r, colour.g, colour.b), radius=round(18 * u), width=max(3, round(4 * u)))
    pad = round(22 * u)
    r = box.height * 0.22
    rtl = frame.lang == "fa"
    centre_x = box.right - pad - r if rtl else box.x + pad + r
    shapes.symbol(surface, seat_look.symbol, (colour.r, colour.g, colour.b), (centre_x, box.centery), r)
    text_x = box.x + pad if rtl else round(centre_x + r + pad)
    text_w = round(box.width - 3 * pad - 2 * r)
    line = pygame.Rect(text_x, box.y + pad, text_w, round(box.height * 0.44))
    ctx.text.draw(surface, prompt_text(frame, claim), frame.lang, line,
                  TextStyle(round(40 * u), theme.TEXT, bold=True, align=Align.CENTER, max_lines=2, min_px=round(18 * u)))
    keys = pygame.Rect(text_x, line.bottom + pad // 3, text_w, round(box.height * 0.22))
    keys_text = frame.s("claim.keys_kiosk") if frame.snapshot.mode is RunMode.KIOSK else frame.s("claim.keys")
    if claim.others > 0:  # a flood on one seat is one prompt, with its count
        keys_text = f"{keys_text}{frame.s('sep')}{frame.s('claim.others', n=i18n.number(frame.lang, claim.others))}"
    ctx.text.draw(surface, keys_text, frame.lang, keys,
                  TextStyle(round(34 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=round(16 * u)))


def claim_answer(event: pygame.event.Event, frame: Frame) -> HostIntent | None:
    """Y or N while a phone is asking: the host's answer to the first request."""
    if event.type != pygame.KEYDOWN or event.key not in CLAIM_KEYS or frame.snapshot.mode is RunMode.KIOSK:
        return None
    claims = open_claims(frame)
    if not claims:
        return None
    return host("claim", id=claims[0].id, allow=CLAIM_KEYS[event.key])
