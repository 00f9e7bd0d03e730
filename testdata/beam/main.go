// Command beam is the tested recipe of docs/scale-out.md: an Apache Beam
// pipeline that classifies sharded JSON Lines request logs (plain or
// gzip, by file extension) with a gpl ruleset and writes per-class and
// per-rule counts, as gpl classify --summary counts them. Each file is read
// whole, as a stream, by one DoFn call.
//
//	go run . --input 'logs/part-*.jsonl*' --output counts.txt            # the direct runner
//	go run . --input 'gs://…/part-*' --output gs://…/counts --runner dataflow …
//
// The ruleset is compiled once per DoFn instance, in Setup: std/kapsl by
// default, or --rules NAME from --rules-file FILE. It is its own module
// (testdata/beam/go.mod), so that gpl's own module does not depend on
// Beam; it uses gpl's packages through a replace directive.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

var (
	input     = flag.String("input", "", "the request files, a glob; .gz files are read as gzip")
	output    = flag.String("output", "counts.txt", "where the counts are written, one \"KEY COUNT\" line each")
	rules     = flag.String("rules", "kapsl", "the ruleset's name")
	rulesFile = flag.String("rules-file", "", "the .gpl file that declares it; the bundled library when empty")
)

func main() {
	flag.Parse()
	beam.Init()
	if *input == "" {
		log.Fatal("--input GLOB is required")
	}
	p := beam.NewPipeline()
	s := p.Root()
	textio.Write(s, *output, Counts(s, *input, *rules, *rulesFile))
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatalf("the pipeline failed: %v", err)
	}
}
