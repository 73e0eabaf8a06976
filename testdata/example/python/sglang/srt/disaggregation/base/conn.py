"""The abstract classes every KV transfer backend derives from."""

from abc import ABC, abstractmethod


class BaseKVManager(ABC):
    """Registers the local KV buffers and talks to the decode peers."""


class BaseKVSender(ABC):
    @abstractmethod
    def send(self, kv_indices):
        """Send one chunk of a request's KV cache."""


class BaseKVReceiver(ABC):
    @abstractmethod
    def poll(self):
        """Report how the transfer is going."""
