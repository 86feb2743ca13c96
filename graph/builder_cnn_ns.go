package graph

// CNN returns the builder of SameDiff's CNN namespace (SDCNN): pooling,
// convolutions and the image shape ops.
func (g *Graph) CNN() CNN { return CNN{g} }

// CNN builds the ops of SameDiff's CNN namespace; get one from Graph.CNN.
type CNN struct{ g *Graph }
