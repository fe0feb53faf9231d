"""Home Assistant's MCP integration as it drives the official MCP Python SDK (homeassistant/components/mcp/coordinator.py:
mcp_client opens a Streamable HTTP client and a ClientSession, initializes, and does one thing: lists the tools or calls
one), asked here by a test: argv[1] is the server's address with its key, stdin a JSON list of calls
({"tool": name, "arguments": {...}} or {"list": true}); stdout a JSON list of answers ({"text", "is_error"} or the tools).
With argv[2] `--one-client`, the sessions share one HTTP client (its kept-alive connections) where the integration makes
one for each: a loop of a hundred questions, whose point is the bridge's budget, not the transport, costs a third less
CPU so."""
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def one(url, call, client=None):
    # A session of its own for each listing and each call, as the integration opens one.
    async with streamable_http_client(url, http_client=client) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            await session.initialize()
            if call.get("list"):
                listed = await session.list_tools()
                return [{"name": t.name, "description": t.description} for t in listed.tools]
            result = await session.call_tool(call["tool"], call.get("arguments") or {})
            text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
            return {"text": text, "is_error": bool(getattr(result, "isError", False) or getattr(result, "is_error", False))}


async def main():
    url = sys.argv[1]
    calls = json.load(sys.stdin)
    answers = []
    if sys.argv[2:] == ["--one-client"]:
        async with create_mcp_http_client() as client:
            for call in calls:
                answers.append(await one(url, call, client))
    else:
        for call in calls:
            answers.append(await one(url, call))
    json.dump(answers, sys.stdout, ensure_ascii=False)


asyncio.run(main())
