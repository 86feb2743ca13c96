// Package serialize reads and writes SameDiff FlatGraph files.
package serialize

// The FlatBuffers schema lives in schema/graph.fbs (namespace fb); flatc
// writes one Go file per type into ./fb. Generated with flatc 2.0.8
// (Debian package flatbuffers-compiler); the generated code builds against
// github.com/google/flatbuffers v25 as required in go.mod.
//go:generate flatc --go --no-warnings -o . schema/graph.fbs
