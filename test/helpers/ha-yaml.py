#!/usr/bin/env python3
"""YAML files read as Home Assistant reads them, written out as JSON for the tests.

Home Assistant (and its Supervisor, for an app's config.yaml and translations) loads YAML with PyYAML's safe
loader, the C one where it is built: YAML 1.1, where a bare on, off, yes, no, y or n is a boolean, 15:00:00 a
number of seconds, 2026-11-18 a date and 010 an octal number. Its own tags (!input, !secret, !include, !env_var)
are read as {"<tag>": "<name>"}. What JSON has no form for (a date, a key that is no string) is written tagged, so
that it never equals what a YAML 1.2 reader makes of the same text: {"!date": "2026-11-18"}, "!bool:True" as a key.

Usage: ha-yaml.py FILE...  (or "-" and the YAML text on stdin); prints {"<file>": <its content>} as one JSON line.
"""
import datetime
import json
import sys

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class HomeAssistantLoader(LOADER):
    """The safe loader with Home Assistant's tags."""


def tagged(tag):
    return lambda loader, node: {tag: loader.construct_scalar(node)}


for name in ("!input", "!secret", "!include", "!env_var"):
    HomeAssistantLoader.add_constructor(name, tagged(name))


def key_of(key):
    return key if isinstance(key, str) else f"!{type(key).__name__}:{key}"


def plain(value):
    if isinstance(value, dict):
        return {key_of(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return {"!date": value.isoformat()}
    if isinstance(value, bytes):
        return {"!binary": value.hex()}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return {f"!{type(value).__name__}": str(value)}


def main() -> None:
    out = {}
    for path in sys.argv[1:]:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        out[path] = [plain(doc) for doc in yaml.load_all(text, Loader=HomeAssistantLoader)]
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
