package trace

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/pipeline"
)

// TestDocsWaveforms keeps docs/waveforms.md in step with the signal
// tables: every observation signal is named there, and the table of warp
// states and stall classes is the one the tracer writes.
func TestDocsWaveforms(t *testing.T) {
	raw, err := os.ReadFile("../docs/waveforms.md")
	require.NoError(t, err)
	doc := string(raw)
	p := pipeline.TopParams{WarpStateWidth: 5, StallWidth: 4, WarpSlotWidth: 6, NumWarps: 64, CTAs: 32, ThreadCountWidth: 11, WarpsPerCTA: 2}
	var tables []string
	for _, tab := range [][]string{
		pipeline.TopTable[pipeline.TopPorts]("s", p).Names(), pipeline.TopTable[pipeline.WarpRegs]("s", p).Names(), pipeline.TopTable[pipeline.IssueOutputs]("s", p).Names(),
		pipeline.TopTable[pipeline.WritebackOutputs]("s", p).Names(), pipeline.TopTable[regPoolObs]("s", p).Names(), pipeline.TopTable[pipeline.BarrierCTA]("s", p).Names(),
		pipeline.TopTable[pipeline.BarrierRegs]("s", p).Names(), pipeline.TopTable[pipeline.LSUOutputs]("s", p).Names(),
	} {
		tables = append(tables, tab...)
	}
	for _, n := range tables {
		assert.Contains(t, doc, "`"+n+"`", "docs/waveforms.md does not name %s", n)
	}
	stall := stallCodes(enumValues()["stall"])
	names := enumValues()["stall"]
	for s, name := range pipeline.StateNames() {
		row := fmt.Sprintf("| %d | `%s`", s, name)
		i := strings.Index(doc, row)
		if !assert.GreaterOrEqual(t, i, 0, "docs/waveforms.md has no state row %q", row) {
			continue
		}
		line := doc[i:]
		line = line[:strings.IndexByte(line, '\n')]
		want := fmt.Sprintf("| %d `%s` |", stall[s], names[stall[s]])
		assert.True(t, strings.HasSuffix(line, want), "state %s: row %q, want stall class %q", name, line, want)
	}
}
