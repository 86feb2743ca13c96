package ops

import (
	"fmt"
	"runtime/debug"
)

// PanicError is a panic inside sdgo (an op's Run or shape inference, a
// gradient rule, the file loader) turned into an error, so that it never
// reaches the caller as a panic. Its message stays one line; the stack is
// kept in Stack for a bug report.
type PanicError struct {
	// Where names what panicked, e.g. `op "h" (matmul)`.
	Where string
	// Value is what panic was called with.
	Value any
	// Stack is the panicking goroutine's stack.
	Stack []byte
}

// Recovered wraps the value of a recover() call. Call it in the deferred
// function itself, so that Stack shows where the panic happened.
func Recovered(where string, v any) *PanicError {
	return &PanicError{Where: where, Value: v, Stack: debug.Stack()}
}

// Error names where the panic happened and its value.
func (e *PanicError) Error() string {
	return fmt.Sprintf("%s panicked: %v (a bug in sdgo: please report it with the stack, PanicError.Stack)", e.Where, e.Value)
}

// Unwrap returns the panic value when it is an error (a runtime error, say).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
