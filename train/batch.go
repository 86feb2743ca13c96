package train

import "fmt"

// checkBatch checks a batch against the placeholders it feeds: as many
// feature and label arrays as the configuration names, none of them nil.
func (t *Trainer) checkBatch(b *Batch) error {
	if b == nil {
		return fmt.Errorf("train: the data iterator gave a nil batch")
	}
	if len(b.Features) != len(t.features) || len(b.Labels) != len(t.labels) {
		return fmt.Errorf("train: a batch has %d feature and %d label arrays; the configuration names %d feature placeholders %q and %d label placeholders %q",
			len(b.Features), len(b.Labels), len(t.features), names(t.cfg.Features, t.features), len(t.labels), names(t.cfg.Labels, t.labels))
	}
	for i, a := range b.Features {
		if a == nil {
			return fmt.Errorf("train: a batch's feature array %d (for placeholder %q) is nil", i, t.features[i].Name())
		}
	}
	for i, a := range b.Labels {
		if a == nil {
			return fmt.Errorf("train: a batch's label array %d (for placeholder %q) is nil", i, t.labels[i].Name())
		}
	}
	return nil
}
