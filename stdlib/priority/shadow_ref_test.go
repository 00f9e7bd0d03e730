package priority

// shadowedCubic is Shadowed as it was first written: for each rule, the
// union of the earlier rules rebuilt from scratch, cubic in the number of
// rules. The tests hold the quadratic Shadowed to its answers.
func shadowedCubic(rs *Ruleset) []Shadow {
	n := len(rs.conds)
	nodes := make([]*anode, n)
	unders := make([]cover, n)
	for i, c := range rs.conds {
		nodes[i] = build(c, false)
		unders[i] = under(nodes[i])
	}
	var out []Shadow
	for i, node := range nodes {
		if node.kind == aFalse {
			out = append(out, Shadow{Rule: i, By: -1})
			continue
		}
		by := -1
		for j := 0; j < i; j++ {
			if covered(node, &unders[j]) {
				by = j
				break
			}
		}
		if by < 0 {
			var acc cover
			for j := 0; j < i; j++ {
				acc.add(&unders[j])
				if covered(node, &acc) {
					by = j
					break
				}
			}
		}
		if by >= 0 {
			out = append(out, Shadow{Rule: i, By: by})
		}
	}
	return out
}
