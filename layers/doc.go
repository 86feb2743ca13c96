// Package layers builds neural-network layers into a graph: Dense,
// Conv1D, Conv2D, Conv3D, MaxPool2D, AvgPool2D, MaxPool3D, AvgPool3D,
// BatchNorm, LayerNorm, Dropout, Embedding, LSTM, GRU, MultiHeadAttention,
// Flatten, Reshape and Residual.
//
// A layer is a convenience, not a second engine: it adds its weights as
// VARIABLEs and calls the graph's namespace builders (g.NN(), g.CNN(),
// g.RNN(), ...), so what it builds is the same graph of SameDiff ops a
// file stores, and serialize saves it as a SameDiff file.
//
// A Builder holds what every layer needs besides its input and options:
//
//	b := layers.New(g, seed)          // float32 weights, inference path
//	b = b.WithTraining(true)          // Dropout drops, BatchNorm uses batch statistics
//	h := b.Conv2D("conv1", x, layers.ConvConfig{Filters: 6, Kernel: [3]int{5, 5}, Activation: g.NN().Relu})
//	h = b.MaxPool2D(h, layers.PoolConfig{Kernel: [3]int{2, 2}})
//	y := b.Dense("fc", b.Flatten(h), layers.DenseConfig{Units: 10})
//
// Each layer's variables are named after the layer, "conv1/W" and
// "conv1/b"; Scope prefixes a block's names ("block1/conv1/W"), and an
// empty name gets the layer's kind and a number ("dense", "dense_1").
// Weights start from a weightinit initializer, chosen per layer (Init,
// with DL4J's XAVIER by default) and drawn from the builder's seeded
// generator, so the same seed and the same calls give the same weights.
// Convolution kernels take DL4J's fans (fan-in iC·∏k, fan-out
// oC·∏k/∏stride) and are stored in libnd4j's default layout [k..., iC, oC].
//
// Layers check their input as they are built: an input of the wrong rank,
// a size the weights need that is unknown, or a bad option gives a
// variable carrying an error (wrapping graph.ErrBuild) that names the
// layer, the input and its shape; the graph keeps the first error
// (Builder.Err, graph.Graph.Err) and later layers pass it on, so a model
// is checked once, at its end.
//
// Training and inference differ in two layers. Dropout for training draws
// a new mask each run (or a fixed one from a seed, for gradient checks;
// ops.SetRandomSeed makes the sequence of new masks repeat);
// for inference it adds nothing. BatchNorm for training normalizes with
// the batch's mean and variance; for inference with the CONSTANTs
// name/mean and name/variance. A program builds the model twice, once
// with WithTraining(true) to train and once without for inference, copies
// the trained weights across with CopyVariables, and sets the BatchNorm
// statistics with SetBatchNormStats.
package layers
