// Package npy reads and writes NumPy's array files: .npy, one array
// (numpy.save, numpy.load), and .npz, a zip archive of named arrays
// (numpy.savez, numpy.savez_compressed).
//
// Every dtype NumPy and sdgo share is read and written: booleans, signed
// and unsigned integers of 8 to 64 bits, float16, float32 and float64.
// Reading takes either byte order, C or Fortran order and header versions
// 1.0 to 3.0; writing produces the bytes numpy.save writes for the same
// array. A malformed file is an error wrapping ErrFormat that names the
// offset where it goes wrong; a header whose shape would pass the
// memory budget is refused before its data is read.
package npy
