#!/usr/bin/env python3
"""Renders Home Assistant templates the way its automations do, for the blueprint tests.

Home Assistant renders templates with Jinja2 in a sandbox; this does the same with the same library
(Debian's python3-jinja2), plus the few Home Assistant functions the blueprints use: states(),
state_attr(), is_state(), the device registry's device_id(), device_entities() and device_attr() (a state's
"device": {"id", "name"} stands for the registry: the entity's device), and for the dashboard's cards
has_value(), strptime(), now() (the job's
"now", an ISO time with its offset), timedelta, as_timestamp(), the timestamp_custom filter (in the
job's "tz") and the search test. A condition's result is read as Home Assistant reads it
(result_as_boolean).

One process serves the test files of a worker (test/helpers/blueprints.ts starts it at the first render),
each template compiled once:
stdin: one JSON request a line, {"jobs": [{"template": str, "variables": {...}, "states": {entity_id:
{"state": str, "attributes": {...}}}, "strict": bool, "as": "text" | "boolean" | "native", "now": str, "tz": str}]}
(a variable's template is read "native": a list, dict, bool or number as itself, as Home Assistant parses it)
stdout: one JSON answer a line, in the same order, {"results": [{"value": ...} | {"error": str}]}
"""
import ast
import json
import re
import sys
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment


class Job:
    """The job being rendered: what the environment's functions read (one job at a time, in order)."""

    states: dict = {}
    now: str | None = None


ENVIRONMENTS: dict[tuple[bool, str], ImmutableSandboxedEnvironment] = {}
COMPILED: dict[tuple[bool, str, str], jinja2.Template] = {}


def environment(strict: bool, tz: str) -> ImmutableSandboxedEnvironment:
    """One environment per strictness and time zone, its functions reading the current Job's states and now."""
    key = (strict, tz)
    if key in ENVIRONMENTS:
        return ENVIRONMENTS[key]
    env = ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined if strict else jinja2.Undefined)
    zone = ZoneInfo(tz)

    def current():
        return datetime.fromisoformat(Job.now).astimezone(zone) if Job.now else datetime.now(zone)

    def as_timestamp(value, default=None):
        try:
            moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
            return moment.timestamp()
        except (TypeError, ValueError):
            return default

    def timestamp_custom(value, fmt="%Y-%m-%d %H:%M:%S", local=True):
        return datetime.fromtimestamp(float(value), zone).strftime(fmt)

    def state_attr(entity_id, name):
        entity = Job.states.get(entity_id)
        return None if entity is None else entity.get("attributes", {}).get(name)

    def state_of(entity_id):
        entity = Job.states.get(entity_id)
        return "unknown" if entity is None else entity.get("state")

    def has_value(entity_id):
        return state_of(entity_id) not in ("unknown", "unavailable", None)

    def device_of(entity_id):
        return (Job.states.get(entity_id) or {}).get("device")

    def device_id(entity_id):
        device = device_of(entity_id)
        return None if device is None else device["id"]

    def device_entities(device):
        return [e for e, s in Job.states.items() if (s.get("device") or {}).get("id") == device]

    def device_attr(device_or_entity, name):
        # As Home Assistant's: a device id, or an entity id standing for its device.
        owner = device_of(device_or_entity) or next((s["device"] for s in Job.states.values() if (s.get("device") or {}).get("id") == device_or_entity), None)
        return None if owner is None else owner.get(name)

    env.globals.update(state_attr=state_attr, states=state_of, is_state=lambda e, s: state_of(e) == s, has_value=has_value, strptime=datetime.strptime)
    env.globals.update(now=current, timedelta=timedelta, as_timestamp=as_timestamp)
    env.globals.update(device_id=device_id, device_entities=device_entities, device_attr=device_attr)
    env.filters["timestamp_custom"] = timestamp_custom
    env.tests["search"] = lambda value, pattern, ignorecase=False: re.search(pattern, str(value), re.IGNORECASE if ignorecase else 0) is not None
    ENVIRONMENTS[key] = env
    return env


def compiled(source: str, strict: bool, tz: str) -> jinja2.Template:
    """The template compiled once a process: compiling is nearly all of a render's time, and the dashboard's
    templates come back for every state, language and test (its files share the process, test/helpers/blueprints.ts)."""
    key = (strict, tz, source)
    if key not in COMPILED:
        COMPILED[key] = environment(strict, tz).from_string(source)
    return COMPILED[key]


def as_boolean(text: str) -> bool:
    """homeassistant.helpers.template.result_as_boolean."""
    value = text.strip().lower()
    if value in ("true", "yes", "on", "enable"):
        return True
    try:
        return float(value) != 0
    except ValueError:
        return False


NUMBER = re.compile(r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?$")


def as_native(text: str):
    """homeassistant.helpers.template's parse_result: a list, dict, bool or plain number as itself, the rest as text."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text
    if isinstance(value, (list, dict, tuple, bool)) or value is None:
        return list(value) if isinstance(value, tuple) else value
    if isinstance(value, (int, float)) and NUMBER.match(text.strip()):
        return value
    return text


def run(job: dict) -> dict:
    try:
        Job.states, Job.now = job.get("states", {}), job.get("now")
        text = compiled(job["template"], job.get("strict", False), job.get("tz", "Europe/Warsaw")).render(**job.get("variables", {}))
    except Exception as error:  # a template error is a result the test reports
        return {"error": f"{type(error).__name__}: {error}"}
    kind = job.get("as")
    return {"value": as_boolean(text) if kind == "boolean" else as_native(text) if kind == "native" else text}


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            jobs = json.loads(line)["jobs"]
            # json.dumps escapes every new line inside a value: one answer is one line.
            print(json.dumps({"results": [run(job) for job in jobs]}), flush=True)


if __name__ == "__main__":
    main()
