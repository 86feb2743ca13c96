package opcases_test

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ops"
)

// opTypeNames are the op types as ops.tsv names them (SameDiff's Op.Type),
// with the byte a file stores.
var opTypeNames = map[string]ops.OpType{
	"TRANSFORM_FLOAT": ops.TransformFloat, "TRANSFORM_SAME": ops.TransformSame, "TRANSFORM_BOOL": ops.TransformBool,
	"TRANSFORM_STRICT": ops.TransformStrict, "TRANSFORM_ANY": ops.TransformAny, "REDUCE_FLOAT": ops.ReduceFloat,
	"REDUCE_SAME": ops.ReduceSame, "REDUCE_LONG": ops.ReduceLong, "REDUCE_BOOL": ops.ReduceBool,
	"INDEX_REDUCE": ops.IndexReduce, "SCALAR": ops.Scalar, "SCALAR_BOOL": ops.ScalarBool, "BROADCAST": ops.Broadcast,
	"BROADCAST_BOOL": ops.BroadcastBool, "PAIRWISE": ops.Pairwise, "PAIRWISE_BOOL": ops.PairwiseBool,
	"REDUCE_3": ops.Reduce3, "SUMMARYSTATS": ops.SummaryStats, "RANDOM": ops.Random, "CUSTOM": ops.Custom, "LOGIC": ops.Logic,
}

// vocabOp is one row of testdata/samediff/ops.tsv: an op name SameDiff's
// namespaces write into files.
type vocabOp struct {
	namespaces []string
	name       string
	typ        string
	num        int64
}

// noNumber marks an op whose number ops.tsv does not fix.
const noNumber = -1 << 63

func readVocabulary(t *testing.T) []vocabOp {
	t.Helper()
	f, err := os.Open("../../testdata/samediff/ops.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vocabOp
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		if line == 0 {
			continue // the header
		}
		col := strings.Split(sc.Text(), "\t")
		if len(col) < 5 {
			t.Fatalf("ops.tsv line %d: %d columns", line+1, len(col))
		}
		num, err := strconv.ParseInt(col[4], 10, 64)
		if col[4] == "None" {
			// cas: Java writes 12 or 13 depending on its inputs.
			num, err = noNumber, nil
		}
		if err != nil {
			t.Fatalf("ops.tsv line %d: op number %q: %v", line+1, col[4], err)
		}
		out = append(out, vocabOp{strings.Split(col[0], ","), col[2], col[3], num})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 300 {
		t.Fatalf("ops.tsv holds %d ops; SameDiff's namespaces write some 330", len(out))
	}
	return out
}

// readMissing reads testdata/samediff/missing_ops.txt: the op names of
// ops.tsv that sdgo does not run yet, one a line ("#" starts a comment).
func readMissing(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile("../../testdata/samediff/missing_ops.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			m[l] = true
		}
	}
	return m
}

// TestVocabulary holds sdgo to SameDiff's vocabulary: every op name
// SameDiff's namespaces write (ops.tsv) is registered under that name with
// the op type and number (or name hash) a file stores, or is listed in
// missing_ops.txt. The list may only shrink: an op that is registered but
// still listed fails too, so the list and the log below stay the true
// count of what is left.
func TestVocabulary(t *testing.T) {
	vocab := readVocabulary(t)
	missing := readMissing(t)
	have := map[string][2]int{} // per namespace: registered, total
	var absent []string
	for _, v := range vocab {
		d, ok := ops.Lookup(v.name)
		for _, ns := range v.namespaces {
			c := have[ns]
			c[1]++
			if ok {
				c[0]++
			}
			have[ns] = c
		}
		if !ok {
			if !missing[v.name] {
				absent = append(absent, v.name)
			}
			continue
		}
		if missing[v.name] {
			t.Errorf("op %s is registered: take it off missing_ops.txt", v.name)
		}
		want, known := opTypeNames[v.typ]
		if !known {
			t.Errorf("op %s: op type %s is not one sdgo knows", v.name, v.typ)
			continue
		}
		// A file names the op by its own name; an alias that resolves to
		// another op is matched by name, its number is the registry's.
		if d.Name != v.name {
			continue
		}
		if d.Type != want || d.Num != v.num && v.num != noNumber {
			t.Errorf("op %s is registered as %v %d; SameDiff writes %s %d", v.name, d.Type, d.Num, v.typ, v.num)
		}
	}
	sort.Strings(absent)
	if len(absent) > 0 {
		t.Errorf("%d ops of SameDiff's namespaces are neither registered nor listed in missing_ops.txt: %s", len(absent), strings.Join(absent, " "))
	}
	names := make([]string, 0, len(have))
	for ns := range have {
		names = append(names, ns)
	}
	sort.Strings(names)
	total := [2]int{}
	for _, ns := range names {
		c := have[ns]
		t.Logf("%-10s %3d of %3d op names run", ns, c[0], c[1])
	}
	for _, v := range vocab {
		if _, ok := ops.Lookup(v.name); ok {
			total[0]++
		}
		total[1]++
	}
	t.Logf("all       %3d of %3d op names run (%s)", total[0], total[1], fmt.Sprintf("%.0f%%", 100*float64(total[0])/float64(total[1])))
}
