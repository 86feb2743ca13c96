// Package doccheck holds the test that measures how much of sdgo's exported
// API carries a doc comment, and fails when less than 95% does.
//
// The test reads every Go package of the module from source (relative to
// its own directory, nothing outside the repository) and leaves out test
// files, generated files (those with the standard "Code generated ... DO
// NOT EDIT." line), files built only with the tag ignore, package main
// (the commands, the benchmark and the examples), everything under
// examples/ and testdata/, and the flatc output in serialize/fb.
//
// The names it counts, and when each one is documented, follow the
// "exported" rule of golint and revive:
//
//   - an exported function, or a method whose receiver's base type is
//     exported (pointer or not, generic or not), is documented when its
//     declaration has a doc comment;
//   - an exported type is documented when its spec has a doc comment or a
//     line comment, or when the type or type ( ... ) declaration holding it
//     has one;
//   - each exported name of a const or var declaration is documented when
//     its spec has a doc comment or a line comment, or when the
//     declaration has one: the comment above a single var or const, or
//     above a parenthesised group, which then covers every member.
//
// A comment made only of directives (//go:noinline and the like) is no
// documentation. Fields, interface methods and the parameters of generic
// types are not counted. A name declared in several files (one per
// architecture, say) counts once, and only as documented when every one of
// its declarations is. Run the check, with the per-package table, with
//
//	go test -v -run TestExportedNamesDocumented ./internal/doccheck
package doccheck
