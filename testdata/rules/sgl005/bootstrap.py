"""Bootstrap threads read frames from a socket: a frame that is not theirs
belongs to no request and must not end the thread."""
import threading

from kvbase import BaseKVManager

GUARD = b"guard"


class _Bootstrap(BaseKVManager):
    def __init__(self, sock):
        self.sock = sock
        self.peers = {}
        threading.Thread(target=self.bootstrap_thread, daemon=True).start()

    def _register(self, frames):
        self.peers[frames[1]] = frames[2:]


class AssertingBootstrap(_Bootstrap):
    def bootstrap_thread(self):
        while True:  # want: SGL005 "no later message on its socket is handled.*`assert msg\[0\] == GUARD, \"unexpected frame\"`"
            msg = self.sock.recv_multipart()
            assert msg[0] == GUARD, "unexpected frame"
            self._register(msg)


class SkippingBootstrap(_Bootstrap):
    def bootstrap_thread(self):
        while True:
            msg = self.sock.recv_multipart()
            if msg[0] != GUARD:
                print("dropping a foreign frame")
                continue
            self._register(msg)


class LoggingBootstrap(_Bootstrap):
    def bootstrap_thread(self):
        while True:
            msg = self.sock.recv_multipart()
            try:
                assert msg[0] == GUARD, "unexpected frame"
                self._register(msg)
            except Exception as e:
                print(f"bad frame: {e}")


class DeepRaisingBootstrap(_Bootstrap):
    def bootstrap_thread(self):
        while True:  # want: SGL005 "line 57 \(`raise ValueError\(\"empty frame\"\)`\)"
            msg = self.sock.recv_multipart()
            self._parse(msg)

    def _parse(self, frames):
        if not frames:
            raise ValueError("empty frame")
        self._register(frames)


class CheckedDeepBootstrap(_Bootstrap):
    def bootstrap_thread(self):
        while True:
            msg = self.sock.recv_multipart()
            if not msg:
                continue
            self._parse(msg)

    def _parse(self, frames):
        if not frames:
            raise ValueError("empty frame")
        self._register(frames)


class NotKV:
    """A thread outside KV code: not a KV thread, whatever it raises."""

    def __init__(self, sock):
        self.sock = sock
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            msg = self.sock.recv_multipart()
            assert msg[0] == GUARD, "unexpected frame"
