"""The ``taiwan-poker`` command: one Typer app with a sub-command per tool."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import __version__
from .adjudicate_cmd import adjudicate_command
from .doctor_cmd import doctor_command
from .eval_cmd import eval_command
from .odds_cmd import odds_app
from .serve_cmd import migrate_command, serve_command
from .verify_cmd import verify_command

app = typer.Typer(
    name="taiwan-poker",
    help="台灣撲克 Taiwan Poker — multi-deck Hold'em tools. 多副牌德州撲克工具。",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("eval")(eval_command)
app.add_typer(odds_app, name="odds")
app.command("serve")(serve_command)
app.command("adjudicate")(adjudicate_command)
app.command("verify")(verify_command)
app.command("doctor")(doctor_command)
app.command("migrate")(migrate_command)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"taiwan-poker {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit. 顯示版本。")] = False,
) -> None:
    """台灣撲克 Taiwan Poker — multi-deck Hold'em tools. 多副牌德州撲克工具。"""


def main() -> None:
    """Console-script entry point."""
    app()
