"""Tool runner: executes the tool calls of one model turn."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Callable, Dict, List


@dataclass
class ToolCall:
    call_id: str
    name: str
    arguments: dict


@dataclass
class ToolResult:
    call_id: str
    output: str
    error: str | None = None
    seconds: float = 0.0


class ToolRunner:
    """Runs registered tools; independent calls of a turn run in parallel."""

    def __init__(self, max_parallel: int = 4, timeout: float = 60.0):
        self.max_parallel = max_parallel
        self.timeout = timeout
        self.tools: Dict[str, Callable[..., str]] = {}

    def register(self, name: str, fn: Callable[..., str]) -> None:
        self.tools[name] = fn

    def run_one(self, call: ToolCall) -> ToolResult:
        fn = self.tools.get(call.name)
        if fn is None:
            return ToolResult(call.call_id, "", error=f"unknown tool {call.name!r}")
        start = time.monotonic()
        try:
            out = fn(**call.arguments)
        except Exception as exc:  # a failing tool must not stop the turn
            return ToolResult(call.call_id, "", error=str(exc))
        return ToolResult(call.call_id, out, seconds=time.monotonic() - start)

    def run_parallel(self, calls: List[ToolCall]) -> List[ToolResult]:
        """Run all calls concurrently; results come back in call order."""
        if len(calls) <= 1:
            return [self.run_one(c) for c in calls]
        results: Dict[str, ToolResult] = {}
        with ThreadPoolExecutor(max_workers=self.max_parallel) as pool:
            futures = {pool.submit(self.run_one, c): c for c in calls}
            for fut in as_completed(futures, timeout=self.timeout):
                res = fut.result()
                results[res.call_id] = res
        return [results[c.call_id] for c in calls]
