package syntax

// SliceParts returns the start, stop and step expressions of a slice node
// (`a:b:c`), NoNode for each one left out. The parts are told apart by the
// colons between them, which the grammar does not name.
func (t *Tree) SliceParts(sl NodeID) (start, stop, step NodeID) {
	parts := [3]NodeID{NoNode, NoNode, NoNode}
	if sl == NoNode || t.Kind(sl) != Slice {
		return parts[0], parts[1], parts[2]
	}
	i := 0
	for c := range t.Children(sl) {
		if !t.IsNamed(c) {
			if t.TextIs(c, ":") {
				i++
			}
			continue
		}
		if i < len(parts) {
			parts[i] = c
		}
	}
	return parts[0], parts[1], parts[2]
}
