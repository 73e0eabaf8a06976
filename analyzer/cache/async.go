package cache

import "sync"

// Writes in the background. An entry is a file created and renamed into
// place, which costs a file system a fraction of a millisecond whatever its
// size: the writes of an edit run (the edited file's shards, the plan, the
// findings) add up to several milliseconds, while the rules leave a CPU
// idle. PutLater starts the write and returns; Wait ends them.

// pendingWrite is a key's last payload given to PutLater and not yet known
// to be on disk.
type pendingWrite struct {
	mu      sync.Mutex // serialises the key's writes, so the last payload is the one left
	payload []byte
	gen     int // of payload; written is the last gen on disk
	written int
}

// PutLater stores payload under k like Put, in the background: Get sees it
// at once, and Wait returns once it is written. payload must not change
// afterwards. Errors are dropped, as a failed write is only a later miss.
func (s *Store) PutLater(k Key, payload []byte) {
	if s.readOnly {
		return
	}
	s.pendingMu.Lock()
	if s.pending == nil {
		s.pending = map[Key]*pendingWrite{}
	}
	p := s.pending[k]
	if p == nil {
		p = &pendingWrite{}
		s.pending[k] = p
	}
	p.payload = payload
	p.gen++
	s.pendingMu.Unlock()
	s.writes.Go(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		s.pendingMu.Lock()
		data, gen := p.payload, p.gen
		s.pendingMu.Unlock()
		if gen == p.written {
			return // a later write of the key already wrote its payload
		}
		_ = s.Put(k, data)
		p.written = gen
	})
}

// Wait returns once every PutLater so far is written.
func (s *Store) Wait() {
	s.writes.Wait()
	s.pendingMu.Lock()
	s.pending = nil
	s.pendingMu.Unlock()
}

// pendingPayload returns k's payload given to PutLater and maybe not yet
// written, as a copy.
func (s *Store) pendingPayload(k Key) ([]byte, bool) {
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	if p := s.pending[k]; p != nil {
		return append([]byte(nil), p.payload...), true
	}
	return nil, false
}
