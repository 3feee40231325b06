"""A toy gate, its fixtures, its spec page and a misbehaving harness: the conformance tools
are tested against these, independent of the real gates."""
