package train

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// update is one step's change of a parameter, over any part of its
// elements: x holds the parameter, its gradient and the updater's state
// arrays (as many as its StateKeys), all cut to the same elements, and
// scratch updChunk elements the function may overwrite.
type update struct {
	f32 func(x [4][]float32, scratch []float32)
	f64 func(x [4][]float64, scratch []float64)
}

// updChunk is how many elements of each array the fused updaters take at
// a time: a chunk of four arrays and the scratch, in float64, is 20 KiB,
// which stays in the L1 cache from one kernel to the next.
const updChunk = 512

// pieceLen is the most elements of a parameter one goroutine updates
// before it takes the next piece: small enough that the goroutines finish
// close together, large enough that taking a piece costs nothing next to
// updating it. A multiple of updChunk.
const pieceLen = 32 * updChunk

// parallelMin is the fewest elements per goroutine an update pass is
// shared out for: below it, handing out the work costs more than it saves.
const parallelMin = 1 << 16

// updatePass applies one step's update to all the parameters at once.
// Their elements are cut into pieces that the calling goroutine and, on
// more than one core, the kernels' warm helpers (kernels.Parallel) take in
// turn. The update is elementwise, so the pieces are independent and the
// result is the same however they are shared out. Shared over all the
// parameters, the pieces keep every core busy to the end of the pass; and
// the helpers, awake from the step's products, start at once, where a
// goroutine started per parameter waits behind the running one for a core
// (the helpers that poll for the next product hold the other core without
// taking it up).
type updatePass struct {
	x32    [][4][]float32
	x64    [][4][]float64
	pieces []piece
	elems  int
}

// piece is elements lo to hi of parameter i of x64 (when f64) or x32.
type piece struct {
	f64    bool
	i      int
	lo, hi int
}

// reset empties the pass, keeping its storage.
func (p *updatePass) reset() {
	clear(p.x32)
	clear(p.x64)
	p.x32, p.x64, p.pieces, p.elems = p.x32[:0], p.x64[:0], p.pieces[:0], 0
}

// add takes a parameter and its gradient and state arrays (at most four in
// all), which must be packed and alike, into the pass.
func (p *updatePass) add(arrays ...*ndarray.Array) error {
	if err := packed(arrays...); err != nil {
		return err
	}
	switch arrays[0].DType() {
	case ndarray.Float32:
		addParam(p, elems[float32](arrays))
	case ndarray.Float64:
		addParam(p, elems[float64](arrays))
	default:
		return fmt.Errorf("train: cannot update a %v parameter", arrays[0].DType())
	}
	return nil
}

// addParam takes the elements of a parameter, its gradient and its state
// into the pass.
func addParam[T kernels.Float](p *updatePass, x [4][]T) {
	var f64 bool
	var i int
	switch x := any(x).(type) {
	case [4][]float32:
		i, p.x32 = len(p.x32), append(p.x32, x)
	case [4][]float64:
		f64, i, p.x64 = true, len(p.x64), append(p.x64, x)
	}
	n := len(x[0])
	for lo := 0; lo < n; lo += pieceLen {
		p.pieces = append(p.pieces, piece{f64: f64, i: i, lo: lo, hi: min(lo+pieceLen, n)})
	}
	p.elems += n
}

// run applies u to every parameter added.
func (p *updatePass) run(u update) {
	w := min(runtime.GOMAXPROCS(0), p.elems/parallelMin, len(p.pieces))
	// Each pass has its own counter: a helper may call work once more
	// after Parallel has returned, and must then find nothing left rather
	// than take pieces of the next pass while it is being built.
	j := &passJob{pieces: p.pieces, x32: p.x32, x64: p.x64, u: u}
	kernels.Parallel(w-1, j.work)
}

type passJob struct {
	next   atomic.Int64
	pieces []piece
	x32    [][4][]float32
	x64    [][4][]float64
	u      update
}

func (j *passJob) work() {
	var s32 *[]float32
	var s64 *[]float64
	for {
		k := int(j.next.Add(1) - 1)
		if k >= len(j.pieces) {
			break
		}
		pc := j.pieces[k]
		if pc.f64 {
			if s64 == nil {
				s64 = getScratch[float64]()
			}
			j.u.f64(slicePart(j.x64[pc.i], pc.lo, pc.hi), *s64)
		} else {
			if s32 == nil {
				s32 = getScratch[float32]()
			}
			j.u.f32(slicePart(j.x32[pc.i], pc.lo, pc.hi), *s32)
		}
	}
	if s32 != nil {
		putScratch(s32)
	}
	if s64 != nil {
		putScratch(s64)
	}
}

// slicePart returns elements lo to hi of each array of x that is there.
func slicePart[T kernels.Float](x [4][]T, lo, hi int) [4][]T {
	var p [4][]T
	for i, a := range x {
		if a != nil {
			p[i] = a[lo:hi]
		}
	}
	return p
}

var scratch32, scratch64 = sync.Pool{New: func() any { return new(make([]float32, updChunk)) }},
	sync.Pool{New: func() any { return new(make([]float64, updChunk)) }}

func scratchPool[T kernels.Float]() *sync.Pool {
	var z T
	if _, ok := any(z).(float32); ok {
		return &scratch32
	}
	return &scratch64
}

func getScratch[T kernels.Float]() *[]T { return scratchPool[T]().Get().(*[]T) }

func putScratch[T kernels.Float](s *[]T) { scratchPool[T]().Put(s) }
