package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFirstParagraph(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"one line", "# Llama 2 70B on 128 H100s.\n#\n# More.\n", "Llama 2 70B on 128 H100s."},
		{"a sentence over two lines", "# How much does\n# checkpointing buy?\n#\n# More.\n", "How much does checkpointing buy?"},
		{"ends at code", "# Reserved or spot?\npool p { devices = 8 }\n", "Reserved or spot?"},
		{"ends at a blank line", "# First.\n\n# Second.\n", "First."},
		{"an empty comment line with spaces ends it", "# First.\n#   \n# Second.\n", "First."},
		{"spacing is normalised", "#  Two   spaces\n#\tand a tab\r\n", "Two spaces and a tab"},
		{"no opening comment", "pool p { devices = 8 }\n# later\n", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, firstParagraph(tt.src)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummaries(t *testing.T) {
	got := map[string]string{}
	for _, n := range Names() {
		got[n] = Summary(n)
	}
	want := map[string]string{
		"checkpointing_what_if":      "Checkpointing what-if: how much runtime goodput does asynchronous checkpointing buy a 512-device job that fails every eight hours?",
		"fleet_inventory":            "A fleet's inventory from a spreadsheet: 24 jobs of four teams, one per row of fleet_inventory.csv, on a reserved and a spot pool.",
		"fleet_quarter":              "A quarter on a growing reserved fleet and a spot pool: four teams' jobs placed in time, what the idle part of the reservation costs each month, and how much checkpointing the fleet can afford.",
		"fleet_reserved_and_spot":    "A quarter's fleet plan: three jobs on reserved and spot H100s, and what each team's losses cost.",
		"llama2_70b_shared_pool_128": "Llama 2 70B pre-training on a shared pool of 128 H100s.",
		"llama3_405b_uncertain":      "Llama 3 405B pre-training with two inputs as measured ranges: 38–43% MFU, and the MTBF that 419 interruptions in 54 days allow.",
		"llama3_405b_pretraining":    "Llama 3 405B-scale pre-training: 16,384 H100s for 54 days, 419 unexpected interruptions.",
		"reserved_vs_spot":           "Reserved capacity against a spot pool: which buys useful work cheaper?",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summaries (-want +got):\n%s", diff)
	}
	if s := Summary("no_such_scenario"); s != "" {
		t.Errorf("Summary of a missing scenario = %q", s)
	}
}
