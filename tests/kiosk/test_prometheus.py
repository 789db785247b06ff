"""The café's fleet files (``tools/prometheus/``): Prometheus accepts the scrape config and the alert
rules (``promtool``, Debian's ``prometheus`` package; ``tools/test`` installs it), the rules' own unit
tests pass, and every metric the rules and the Grafana dashboard query is one the program exports."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families
from test_metrics import PIN, MakeKiosk, basic, make_kiosk  # noqa: F401 (make_kiosk: the fixture)

from game.kiosk.web import KEEPER
from game.server.app import FRAMES

FLEET = Path(__file__).resolve().parents[2] / "tools" / "prometheus"
PROMQL_BUILTINS = {"up"}  # series Prometheus makes itself
NAME = re.compile(r"\b(tabletop_[a-z_]+|up)\b(?!\s*\()")


def promtool(*args: str) -> str:
    if shutil.which("promtool") is None:
        pytest.skip("promtool is not installed (Debian: apt install prometheus; tools/test installs it)")
    done = subprocess.run(["promtool", *args], cwd=FLEET, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_promtool_accepts_the_scrape_config_and_the_rules() -> None:
    assert "SUCCESS" in promtool("check", "config", "prometheus.yml")
    assert "7 rules found" in promtool("check", "rules", "tabletop.rules.yml")


def test_each_alert_fires_on_its_series_and_not_on_a_healthy_tables() -> None:
    assert "SUCCESS" in promtool("test", "rules", "tabletop.rules.test.yml")


def test_the_alerts_cover_the_fleets_troubles() -> None:
    rules = yaml.safe_load((FLEET / "tabletop.rules.yml").read_text(encoding="utf-8"))
    alerts = {rule["alert"] for group in rules["groups"] for rule in group["rules"]}
    assert {"TableDown", "TableCrashLoop", "TableRestarting", "TableArchiveNearItsLimit", "TableNoGameToday",
            "TableWatchdogMisses"} <= alerts
    tested = (FLEET / "tabletop.rules.test.yml").read_text(encoding="utf-8")
    assert all(f"alertname: {alert}" in tested for alert in alerts - {"TableScreenFrozen"})


def queried() -> dict[str, set[str]]:
    """Every series name each fleet file queries."""
    rules = yaml.safe_load((FLEET / "tabletop.rules.yml").read_text(encoding="utf-8"))
    dashboard = json.loads((FLEET / "grafana-dashboard.json").read_text(encoding="utf-8"))
    exprs = {
        "rules": [rule["expr"] for group in rules["groups"] for rule in group["rules"]],
        "dashboard": [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]],
    }
    return {where: {name for expr in found for name in NAME.findall(expr)} for where, found in exprs.items()}


async def test_every_metric_the_rules_and_the_dashboard_query_is_exported(make_kiosk: MakeKiosk) -> None:  # noqa: F811
    client = await make_kiosk()
    archive = client.app[KEEPER].archive
    archive.game_started(1, "collusion", None, 5, 3)  # labelled families show once they have a sample
    client.app[FRAMES].seen()
    client.app[FRAMES].watchdog_misses = 0
    text = await (await client.get("/metrics", headers=basic("prometheus", PIN))).text()
    exported = {sample.name for family in text_string_to_metric_families(text) for sample in family.samples}
    for where, names in queried().items():
        assert names, where
        assert names - exported - PROMQL_BUILTINS == set(), f"{where} queries what the program does not export"
    dashboard = json.loads((FLEET / "grafana-dashboard.json").read_text(encoding="utf-8"))
    titles = " ".join(panel["title"] for panel in dashboard["panels"]).lower()
    assert all(word in titles for word in ("games", "per hour", "players", "crashes", "uptime"))
