"""The abstract KV transfer classes that every backend in these fixtures
derives from, shaped like the bases of a disaggregation package (written for
sglint's tests)."""

from abc import ABC


class BaseKVManager(ABC):
    """Owns the registered local buffers and the tables of decode peers."""


class BaseKVSender(ABC):
    """Moves one request's KV cache to its decode peer."""


class BaseKVReceiver(ABC):
    """Receives one request's KV cache on the decode side."""
