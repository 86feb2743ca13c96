package serialize

// The FlatBuffers schema lives in schema/graph.fbs (namespace fb); flatc
// writes one Go file per table and enum into a directory named after the
// namespace under its -o directory: internal/fb. The checked-in code was
// generated with flatc 2.0.8 (Debian package flatbuffers-compiler) and builds
// against github.com/google/flatbuffers v25 as required in go.mod. make
// generate-check (part of make test) regenerates it and fails if a file
// changes.
//go:generate flatc --go --no-warnings -o internal schema/graph.fbs
