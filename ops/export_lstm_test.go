package ops

// LSTMKeptHits is the number of times lstmLayer_bp has taken the trace
// lstmLayer kept in the run.
func LSTMKeptHits() int64 { return lstmKeptHits.Load() }
