package exec

// Test hooks.

// HandedCount returns how many buffers of Recyclable outputs the session
// is tracking.
func HandedCount(s *Session) int {
	return s.handed.len()
}

// ParallelRuns returns how many runs took the concurrent path so far.
func ParallelRuns() int64 { return parallelRuns.Load() }

// CachedPlan returns the plan cached for these output names (nil if none),
// as an opaque value to compare.
func CachedPlan(s *Session, names ...string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.plans[planKey(names)]; p != nil {
		return p
	}
	return nil
}
