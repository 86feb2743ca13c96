// Package train fits a graph's trainable variables to data: updaters (SGD,
// momentum with optional Nesterov, Adam, AdamW) with learning-rate schedules,
// L2 regularization and weight decay, a training configuration naming which
// placeholders take features and labels, a Fit loop over batches that
// returns the loss history, listeners for iteration and epoch events
// (including a progress bar with an ETA), and classifier evaluation.
//
// Around Fit: held-out data evaluated every epoch (Trainer.SetValidation,
// with a Metric from package metrics), early stopping on a figure with
// patience and best-model restore (Trainer.SetEarlyStopping), checkpoints
// every N epochs or iterations, kept K at a time and resumed from
// (NewCheckpointListener, Resume), and a Predictor that runs a model, or
// an inference file saved with serialize.SaveOptions.InferenceOutputs, on
// inputs given by name.
//
// The gradient is built into the graph once (package autodiff) and each step
// runs it with package exec; variables are updated in place, so a running
// Fit owns the graph's variable arrays: Variable.Value returns the live
// array, while outputs of a session run are copies that keep their values.
package train
