"""Conversation memory with a token budget."""

from collections import deque


class Memory:
    def __init__(self, max_tokens: int = 8000):
        self.max_tokens = max_tokens
        self.turns = deque()
        self.tokens = 0

    def add(self, role: str, text: str) -> None:
        cost = len(text) // 4 + 1
        self.turns.append((role, text, cost))
        self.tokens += cost
        while self.tokens > self.max_tokens and len(self.turns) > 1:
            _, _, old = self.turns.popleft()
            self.tokens -= old

    def clear(self) -> None:
        self.turns.clear()
        self.tokens = 0
