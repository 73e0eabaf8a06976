"""Send entries called from the scheduler: a KeyError here surfaces in the
caller, so every lookup needs a membership or non-None fact."""

import time

from tablepkg.base import PeerTables


class LookupSender(PeerTables):
    def __init__(self, agent):
        super().__init__()
        self.agent = agent

    def _fail(self, peer):
        self.agent.report("peer %s is not registered" % peer)
        return None

    def send_plain(self, peer, pages):
        layout = self.peer_layouts[peer]  # want: SGL004 "KeyError"
        return self.agent.post(layout, pages)

    def send_via_get(self, peer, pages):
        layout = self.peer_layouts.get(peer)
        if layout is None:
            return self._fail(peer)
        return self.agent.post(layout, pages)

    def send_if_member(self, peer, pages):
        if peer not in self.peer_layouts:
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_inside_member(self, peer, pages):
        if peer in self.peer_layouts:
            return self.agent.post(self.peer_layouts[peer], pages)
        return self._fail(peer)

    def send_conditional(self, peer, pages):
        layout = self.peer_layouts[peer] if peer in self.peer_layouts else None
        if layout is None:
            return self._fail(peer)
        return self.agent.post(layout, pages)

    def send_when_present(self, peer, pages):
        while peer not in self.peer_layouts:
            time.sleep(0.01)
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_wrong_key(self, peer, room, pages):
        if room not in self.peer_layouts:
            return self._fail(room)
        return self.agent.post(self.peer_layouts[peer], pages)  # want: SGL004 "KeyError"

    def send_other_table(self, peer, pages):
        if peer not in self.prepared:
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], self.prepared[peer])  # want: SGL004 "KeyError"

    def send_logged_twice(self, peer, pages):
        # The first lookup can raise; once it has not, the second one finds
        # the same key: one finding, at the first.
        self.agent.trace(f"layout {self.peer_layouts[peer]}")  # want: SGL004 "KeyError"
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_after_pop(self, peer, pages):
        self.agent.trace(f"layout {self.peer_layouts[peer]}")  # want: SGL004 "KeyError"
        self.peer_layouts.pop(peer)
        return self.agent.post(self.peer_layouts[peer], pages)  # want: SGL004 "KeyError"

    def _has_layout(self, peer):
        return peer in self.peer_layouts

    def _has_layout_in_steps(self, peer):
        found = peer in self.peer_layouts
        return found

    def _has_layout_branchy(self, peer):
        if peer in self.peer_layouts:
            return True
        return False

    def _has_layout_locked(self, peer):
        with self.agent.lock:
            self.agent.trace("looking up %s" % peer)
            return peer in self.peer_layouts

    def _has_layout_or_lenient(self, peer):
        if peer in self.peer_layouts:
            return True
        return self.agent.lenient

    def send_after_predicate(self, peer, pages):
        if not self._has_layout(peer):
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_waiting_on_predicate(self, peer, pages):
        while not self._has_layout(peer):
            time.sleep(0.01)
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_after_predicate_in_steps(self, peer, pages):
        if not self._has_layout_in_steps(peer):
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_after_branchy_predicate(self, peer, pages):
        if not self._has_layout_branchy(peer):
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_after_locked_predicate(self, peer, pages):
        if not self._has_layout_locked(peer):
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_after_lenient_predicate(self, peer, pages):
        if not self._has_layout_or_lenient(peer):
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], pages)  # want: SGL004 "KeyError"

    def send_after_get_check(self, peers, pages):
        # The .get() result is tested, not bound: the key was found.
        for peer in peers:
            if self.peer_layouts.get(peer) is None:
                continue
            self.agent.post(self.peer_layouts[peer], pages)

    def send_after_get_logged(self, peer, pages):
        if self.peer_layouts.get(peer) is None:
            self.agent.trace("peer %s not registered yet" % peer)
        return self.agent.post(self.peer_layouts[peer], pages)  # want: SGL004 "KeyError"

    def send_if_get_found(self, peer, pages):
        if self.peer_layouts.get(peer) is not None:
            return self.agent.post(self.peer_layouts[peer], pages)
        return self._fail(peer)

    def send_if_get_defaulted(self, peer, pages):
        if self.peer_layouts.get(peer, self.agent.fallback) is not None:
            return self.agent.post(self.peer_layouts[peer], pages)  # want: SGL004 "KeyError"
        return self._fail(peer)

    def send_to_every_peer(self, pages):
        # Keys read from the table itself are in it.
        for peer in list(self.peer_layouts):
            self.agent.post(self.peer_layouts[peer], pages)

    def send_to_every_prepared_peer(self, pages):
        for peer in list(self.prepared):
            self.agent.post(self.peer_layouts[peer], pages)  # want: SGL004 "KeyError"

    def send_to_stale_peers(self, pages):
        for peer, layout in self.peer_layouts.items():
            if layout.stale:
                self.agent.refresh(self.peer_layouts[peer])

    def send_to_stale_peers_after_drop(self, pages):
        for peer, layout in list(self.peer_layouts.items()):
            if layout.stale:
                self.agent.refresh(self.peer_layouts[peer])  # want: SGL004 "KeyError"
                self.peer_layouts.pop(layout.successor, None)

    def send_if_in_keys(self, peer, pages):
        if peer not in self.peer_layouts.keys():
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], pages)

    def send_if_in_other_keys(self, peer, pages):
        if peer not in self.prepared.keys():
            return self._fail(peer)
        return self.agent.post(self.peer_layouts[peer], pages)  # want: SGL004 "KeyError"

    def describe(self, peer):
        return self.peer_layouts[peer]


class RemovingSender(PeerTables):
    """Removing a peer fails like reading it when the key is gone."""

    def send_and_forget(self, peer, pages):
        layout = self.peer_layouts.get(peer)
        self.peer_layouts.pop(peer)  # want: SGL004 "`self.peer_layouts.pop\(peer\)` raises KeyError .* Remove it with `self.peer_layouts.pop\(peer, None\)`"
        return layout

    def send_and_forget_default(self, peer, pages):
        layout = self.peer_layouts.get(peer)
        self.peer_layouts.pop(peer, None)
        return layout

    def send_and_delete(self, peer, pages):
        del self.peer_layouts[peer]  # want: SGL004 "`del self.peer_layouts\[peer\]` raises KeyError"

    def send_and_delete_checked(self, peer, pages):
        if peer in self.peer_layouts:
            del self.peer_layouts[peer]


class AliasingSender(PeerTables):
    """The table under a local name fails the same way."""

    def send_through_alias(self, peer, pages):
        layouts = self.peer_layouts
        return layouts[peer]  # want: SGL004 "`layouts\[peer\]` raises KeyError"

    def send_through_alias_checked(self, peer, pages):
        layouts = self.peer_layouts
        if peer not in layouts:
            return None
        return layouts[peer]

    def send_through_alias_checked_on_table(self, peer, pages):
        layouts = self.peer_layouts
        if peer not in self.peer_layouts:
            return None
        return layouts[peer]

    def send_through_rebound_name(self, peer, pages, other):
        layouts = self.peer_layouts
        layouts = other
        return layouts[peer]


class TupleKeySender(PeerTables):
    """A table keyed by (peer, rank): the tuple is the key."""

    def register_rank(self, peer, rank, layout):
        self.prepared[peer, rank] = layout

    def send_rank(self, peer, rank, pages):
        return self.prepared[peer, rank]  # want: SGL004 "`self.prepared\[\(peer,rank\)\]` raises KeyError"

    def send_rank_checked(self, peer, rank, pages):
        if (peer, rank) not in self.prepared:
            return None
        return self.prepared[peer, rank]

    def send_rank_other_order(self, peer, rank, pages):
        if (rank, peer) not in self.prepared:
            return None
        return self.prepared[peer, rank]  # want: SGL004 "KeyError"
