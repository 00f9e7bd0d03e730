package eval

import "github.com/gpl-lang/gpl/stdlib/goodput"

// Owner is the team that owns factor f of the job: named by the innermost
// owners block (the job's, a job it extends, its pool's, top level), else
// the factor's own name, "scheduling", "runtime" or "program".
func (j *Job) Owner(f goodput.Factor) string { return j.s.of(j.d).job.owner(f) }
