"""Item stores: a first-in first-out base and a last-in first-out variant."""


class Store:
    """Holds items in arrival order."""

    def __init__(self):
        self.items = []

    def add(self, item):
        self._put(item)

    def _put(self, item):
        self.items.append(item)

    def _take(self):
        return self.items.pop(0)


class LifoStore(Store):
    """Hands out the newest item first."""

    def _put(self, item):
        self.items.insert(0, item)


class Unrelated:
    def _put(self, item):
        return item
