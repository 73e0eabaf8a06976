"""The abstract KV transfer classes the fixtures' backends derive from,
shaped like the bases of a disaggregation package (written for sglint's
tests)."""

from abc import ABC


class KVPoll:
    Failed = 0
    Bootstrapping = 1
    WaitingForInput = 2
    Transferring = 3
    Success = 4


class BaseKVManager(ABC):
    """Owns the registered buffers, the peer tables and the KV threads."""


class BaseKVSender(ABC):
    """Moves one request's KV cache to its decode peer."""


class BaseKVReceiver(ABC):
    """Receives one request's KV cache on the decode side."""


class BaseKVBootstrapServer(ABC):
    """Tells decode ranks where their prefill peers listen."""
