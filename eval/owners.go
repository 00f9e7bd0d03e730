package eval

import (
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// explainOwner says who owns a factor of the job and where that was
// named, for Explain: owner.runtime = "training infra", set in job j
// (plan.gpl:4).
func (j *Job) explainOwner(name string) string {
	f, _ := goodput.ParseFactor(strings.TrimPrefix(name, "owner."))
	line := name + " = " + strconv.Quote(j.Owner(f))
	if from := j.d.Job.Owners.From[f]; from != "" {
		return line + ", " + from
	}
	return line + ": no owners block names the " + f.String() + " factor, so its owner is named after it"
}
