"""First run on a server (issue 48, point 4): ``serve`` on a public address without Google sign-in refuses to
start and says what to set; ``doctor`` reports what ``serve`` would use and names each problem; ``--version``."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from taiwan_poker import __version__
from taiwan_poker.cli.doctor_cmd import Level, diagnose
from taiwan_poker.pure import built as machine_built
from taiwan_poker.web.config import Settings, is_loopback
from tests.cli.test_eval_cli import script
from tests.server_process import free_port

SERVER_ENV = ("TP_GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_ID", "DATABASE_URL", "TP_PUSH_BUS", "TP_RATE_LIMIT_STORAGE",
              "TP_RATE_LIMIT_SCALE", "TAIWAN_POKER_KERNEL")


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV}
    return {**env, "PYTHONIOENCODING": "utf-8", **extra}


def run(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([script(), *args], capture_output=True, text=True, encoding="utf-8", env=env, cwd=cwd,
                          timeout=timeout)


def test_version_prints_the_package_version(tmp_path: Path) -> None:
    r = run(["--version"], clean_env(), tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"taiwan-poker {__version__}"


@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                                 ("127.0.0.2", True), ("[::1]", True), ("0.0.0.0", False),
                                                 ("::", False), ("192.168.1.20", False), ("poker.example", False)])
def test_only_loopback_addresses_count_as_this_computer(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    settings = Settings(data_dir=Path("d"), database_url="sqlite://", google_client_id=None, host=host)
    assert settings.local_mode is loopback
    assert settings.public_without_signin is not loopback
    with_google = Settings(data_dir=Path("d"), database_url="sqlite://", google_client_id="x", host=host)
    assert not with_google.local_mode and not with_google.public_without_signin


def test_serve_on_a_public_address_without_google_refuses_and_says_what_to_set(tmp_path: Path) -> None:
    r = run(["serve", "--host", "0.0.0.0", "--port", str(free_port()), "--data-dir", str(tmp_path / "d")],
            clean_env(), tmp_path, timeout=30)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("不啟動") and "TP_GOOGLE_CLIENT_ID" in lines[0] and "127.0.0.1" in lines[0]
    assert lines[1].startswith("Not starting") and "TP_GOOGLE_CLIENT_ID" in lines[1] and "docs/hosting.md" in lines[1]
    assert not (tmp_path / "d").exists()  # refused before anything was made


def test_serve_on_a_public_address_starts_with_a_google_client_id(tmp_path: Path) -> None:
    port = free_port()
    env = clean_env(TP_GOOGLE_CLIENT_ID="123-abc.apps.googleusercontent.com")
    proc = subprocess.Popen([script(), "serve", "--host", "0.0.0.0", "--port", str(port), "--data-dir",
                             str(tmp_path / "d"), "--log-level", "warning"], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as res:
                    assert res.status == 200
                    break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(15)


def test_doctor_reports_a_first_run_on_this_computer_without_problems(tmp_path: Path) -> None:
    r = run(["doctor", "--data-dir", str(tmp_path / "d")], clean_env(), tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    for zh, en in (("資料庫", "Database"), ("登入方式", "Sign-in"), ("推播匯流排", "Push bus"),
                   ("速率限制計數", "Rate-limit storage"), ("資料目錄", "Data directory"),
                   ("牌力評估核心", "Evaluator kernel"), ("牌桌狀態機", "Table machine")):
        assert f"✓ {zh}：" in out and f"  {en}: " in out, (zh, out)
    assert "local sign-in" in out and "made on first start" in out and "No problems found." in out
    assert not (tmp_path / "d").exists()  # the doctor only reads


def test_doctor_says_whether_the_table_machine_runs_compiled_or_its_python_source(tmp_path: Path) -> None:
    """``TAIWAN_POKER_PURE=1`` runs the Python source of a compiled build (setup.py), and the doctor says so."""
    compiled = run(["doctor", "--data-dir", str(tmp_path / "d")], clean_env(TAIWAN_POKER_PURE="0"), tmp_path)
    pure = run(["doctor", "--data-dir", str(tmp_path / "d")], clean_env(TAIWAN_POKER_PURE="1"), tmp_path)
    built = "Table machine: compiled (mypyc)" if machine_built() else "Table machine: Python: this install"
    assert built in compiled.stdout, compiled.stdout
    assert "✓ 牌桌狀態機：Python 原始碼（TAIWAN_POKER_PURE=1 指定）" in pure.stdout, pure.stdout
    assert "Table machine: Python source (chosen by TAIWAN_POKER_PURE=1)" in pure.stdout


def test_doctor_names_every_problem_and_exits_1(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    env = clean_env(DATABASE_URL="postgresql://nobody@127.0.0.1:1/none", TP_PUSH_BUS="1",
                    TP_RATE_LIMIT_STORAGE="redis://127.0.0.1:1")
    r = run(["doctor", "--host", "0.0.0.0", "--data-dir", str(blocker)], env, tmp_path)
    assert r.returncode == 1
    problems = [line for line in r.stdout.splitlines() if line.startswith("✗")]
    assert [p.split("：")[0] for p in problems] == ["✗ 資料庫", "✗ 登入方式", "✗ 速率限制計數", "✗ 資料目錄"]
    assert "cannot reach postgresql+psycopg://nobody@127.0.0.1:1/none" in r.stdout
    assert "TP_GOOGLE_CLIENT_ID is not set" in r.stdout
    assert "cannot reach redis://127.0.0.1:1" in r.stdout
    assert "exists but is not a directory" in r.stdout
    assert "4 problem(s) found" in r.stdout


def test_doctor_findings_for_a_cluster_on_postgresql(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process (no database needed): the push bus on SQLite is a problem; unshared counters with the bus a note;
    TP_RATE_LIMIT_SCALE=0 a problem; a Google client ID makes a public address fine."""
    for name in SERVER_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TP_PUSH_BUS", "1")
    monkeypatch.setenv("TP_GOOGLE_CLIENT_ID", "123-abc.apps.googleusercontent.com")
    found = {f.item: f for f in diagnose(tmp_path / "d", "0.0.0.0")}
    assert found["push_bus"].level is Level.PROBLEM and found["push_bus"].key == "cli.doctor.push_bus.sqlite"
    assert found["rate_limits"].level is Level.NOTE and found["rate_limits"].key.endswith("memory_shared")
    assert found["signin"].level is Level.OK and found["signin"].key == "cli.doctor.signin.google"
    monkeypatch.setenv("TP_RATE_LIMIT_SCALE", "0")
    assert {f.item: f for f in diagnose(tmp_path / "d", "0.0.0.0")}["rate_limits"].level is Level.PROBLEM


def test_doctor_says_a_database_migrated_by_a_newer_version_is_a_problem(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    for name in SERVER_ENV:
        monkeypatch.delenv(name, raising=False)
    data = tmp_path / "d"
    data.mkdir()
    with sqlite3.connect(data / "taiwan-poker.sqlite3") as conn:
        conn.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
        conn.execute("INSERT INTO alembic_version VALUES ('9999')")
    found = {f.item: f for f in diagnose(data, "127.0.0.1")}
    assert found["database"].level is Level.PROBLEM and found["database"].key == "cli.doctor.database.newer"
    with sqlite3.connect(data / "taiwan-poker.sqlite3") as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0001'")
    found = {f.item: f for f in diagnose(data, "127.0.0.1")}
    assert found["database"].level is Level.NOTE and found["database"].key == "cli.doctor.database.behind"


def test_migrate_brings_a_new_database_to_the_newest_schema(tmp_path: Path) -> None:
    r = run(["migrate", "--data-dir", str(tmp_path / "d")], clean_env(), tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith("- → ")
    again = run(["doctor", "--data-dir", str(tmp_path / "d")], clean_env(), tmp_path)
    assert "up to date" in again.stdout
